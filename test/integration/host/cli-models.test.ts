import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { runCli } from '../../../src/cli/run-cli';
import type { CliIo } from '../../../src/cli/terminal';
import { startOpenAiServer, type ScriptedProvider } from '../../support/scripted-providers';

// `agentdesk models` and `agentdesk chat --model` on "This computer": the service the CLI starts in its own
// process finds a provider in its environment (a scripted server speaking OpenAI's protocol over real HTTP),
// lists it with its models and the key masked, and a chat with --model is answered by that model. A memory
// secret store plays the OS keychain.

const KEY = 'test-key-openai-cli-models';
let dataDir: string;
let secrets: SecretStore;
let provider: ScriptedProvider;
const saved = { key: process.env['OPENAI_API_KEY'], base: process.env['OPENAI_BASE_URL'] };

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    ask: async () => undefined,
    onInterrupt: () => () => {},
    color: false,
    close: () => {},
  };
  const code = await runCli([...argv, '--data', dataDir, '--no-open'], { io, secrets });
  return { code, out, err };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-models-'));
  secrets = createMemorySecretStore();
  provider = await startOpenAiServer({ apiKey: KEY, models: ['scripted-large', 'scripted-small'] });
  // Each command starts the service in this process, which reads its environment as it starts.
  process.env['OPENAI_API_KEY'] = KEY;
  process.env['OPENAI_BASE_URL'] = provider.baseURL;
});
afterAll(async () => {
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.key],
    ['OPENAI_BASE_URL', saved.base],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await provider.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('agentdesk models and chat --model', { timeout: 120_000 }, () => {
  it('--help names both', async () => {
    const help = await run(['--help']);
    expect(help.out).toMatch(/^ {2}models {2,}.*model providers/m);
    expect(help.out).toMatch(/^ {2}--model <id> {2,}chat: the model for this conversation/m);
  });

  it('lists the provider found in the environment with its models, and never the key', async () => {
    const models = await run(['models']);
    expect(models.code).toBe(0);
    expect(models.out).toMatch(/^.+ \(from the environment, key \S*…\S*, http:\/\/127\.0\.0\.1:\d+\/v1\)$/m);
    expect(models.out).toMatch(/^ {2}scripted-large\t/m);
    expect(models.out).toMatch(/^ {2}scripted-small\t/m);
    expect(models.out + models.err).not.toContain(KEY);
  });

  it('chat --model: the conversation is answered by that model', async () => {
    provider.reply({ text: 'Answered by the scripted model.' });
    const chat = await run(['chat', 'assistant', '--model', 'scripted-small', 'hello', '--yes']);
    expect(chat.err).toContain('Model scripted-small');
    expect(chat.out).toContain('Answered by the scripted model.');
    expect(chat.code).toBe(0);
    expect((provider.modelRequests().at(-1)?.body as { model: string }).model).toBe('scripted-small');
  });

  it('chat --model with a model the agent does not have says which it has, and sends nothing', async () => {
    const before = provider.modelRequests().length;
    const chat = await run(['chat', 'assistant', '--model', 'no-such-model', 'hello']);
    expect(chat.code).toBe(1);
    expect(chat.err).toMatch(/scripted-large/);
    expect(provider.modelRequests().length).toBe(before);
  });
});
