import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFromSource } from '../../support/cli-source';
import { guideCommandNames, guidePages } from '../../support/guide-commands';
import { startOpenAiServer } from '../../support/scripted-providers';
import { serviceCli } from '../../support/service-process';

/**
 * Issue 41: every command the README and the guide (docs/guide/) tell a person to type runs in a test. Each
 * command name the pages show is run here as the guide says, with the real `agentdesk` process on This
 * computer (its own service in its process, a fresh data folder, no keychain) and the real service admin
 * commands; the few that need what a test cannot give here (a second terminal's conflict, a kept version)
 * name the test that runs them. A command added to the guide with neither fails the first test.
 */
const repo = resolve(import.meta.dirname, '../../..');

/** Commands another test runs, as the guide shows them: that file must exist and type the command. */
const RUN_ELSEWHERE: Record<string, { file: string; types: string }> = {
  'agentdesk sync resolve': { file: 'test/integration/sync/outsider-headless.test.ts', types: "'resolve'" },
  'agentdesk sync restore': { file: 'test/integration/sync/outsider-history.test.ts', types: "'restore'" },
  'agentdesk logout': { file: 'test/integration/host/cli.test.ts', types: "'logout'" },
  'npm run service': { file: 'test/integration/service/identity/cli.test.ts', types: "'--port', '0'" },
};

let home = '';
let data = '';
let folder = '';

async function agentdesk(
  ...args: (string | { env: Record<string, string> })[]
): Promise<{ code: number | null; out: string; err: string }> {
  const words = args.filter((arg): arg is string => typeof arg === 'string');
  const extra = args.find((arg) => typeof arg !== 'string')?.env ?? {};
  const child = spawn(process.execPath, [...cliFromSource, ...words, '--data', data], {
    cwd: home,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, '.local/share'), ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, out, err };
}

/** The first agent's id, from `agentdesk agents` as a person reads it. */
async function firstAgent(): Promise<string> {
  const agents = await agentdesk('agents');
  const id = /^(\S+)\tAssistant\b/m.exec(agents.out)?.[1];
  if (!id) throw new Error(`no Assistant in: ${agents.out} ${agents.err}`);
  return id;
}

/** Each command as the guide shows it, run for real, with what the person is promised. */
const RUN_HERE: Record<string, () => Promise<void>> = {
  agentdesk: async () => {
    const bare = await agentdesk();
    expect(bare.out + bare.err).toMatch(/Usage: agentdesk <command>/);
  },
  'agentdesk --help': async () => {
    const help = await agentdesk('--help');
    expect(help.code).toBe(0);
    for (const command of ['login', 'logout', 'whoami', 'agents', 'chat <agent>', 'sync <folder>'])
      expect(help.out).toMatch(new RegExp(`^  ${command}`, 'm'));
  },
  'agentdesk login': async () => {
    const login = await agentdesk('login');
    expect(login.code).toBe(0);
    expect(login.out).toMatch(/Signed in to This computer as /);
  },
  'agentdesk whoami': async () => {
    const who = await agentdesk('whoami');
    expect(who.code).toBe(0);
    expect(who.out).toMatch(/Signed in to This computer as /);
  },
  'agentdesk agents': async () => {
    expect(await firstAgent()).toMatch(/\S/);
  },
  'agentdesk chat': async () => {
    const chat = await agentdesk('chat', await firstAgent(), 'hello from the guide');
    expect(chat.code).toBe(0);
    expect(chat.out).toContain('hello from the guide');
  },
  'agentdesk models': async () => {
    const none = await agentdesk('models');
    expect(none.code).toBe(0);
    expect(none.out).toMatch(/No model providers yet/);
    // With a provider in the environment, as the guide says: its models are listed, its key never shown.
    const provider = await startOpenAiServer({ apiKey: 'test-key-guide', models: ['guide-model-1'] });
    try {
      const env = { OPENAI_API_KEY: 'test-key-guide', OPENAI_BASE_URL: provider.baseURL };
      const listed = await agentdesk('models', { env });
      expect(listed.code).toBe(0);
      expect(listed.out).toContain('guide-model-1');
      expect(listed.out + listed.err).not.toContain('test-key-guide');
    } finally {
      await provider.close();
    }
  },
  'agentdesk sync': async () => {
    const once = await agentdesk('sync', folder, '--agent', await firstAgent(), '--once');
    expect(once.code).toBe(0);
    expect(existsSync(join(folder, 'instructions.md'))).toBe(true);
  },
  'agentdesk sync conflicts': async () => {
    const conflicts = await agentdesk('sync', 'conflicts', folder);
    expect(conflicts.code).toBe(0);
    expect(conflicts.out).toMatch(/no (open )?conflicts/i);
  },
  'agentdesk sync history': async () => {
    await mkdir(join(folder, 'work'), { recursive: true });
    await writeFile(join(folder, 'work', 'notes.md'), 'first\n');
    expect((await agentdesk('sync', folder, '--once')).code).toBe(0);
    await writeFile(join(folder, 'work', 'notes.md'), 'second, longer\n');
    expect((await agentdesk('sync', folder, '--once')).code).toBe(0);
    const history = await agentdesk('sync', 'history', folder, '--cap', '100');
    expect(history.code).toBe(0);
    expect(history.out).toMatch(/100 MB/);
    expect((await agentdesk('sync', 'history', folder, 'work/notes.md')).out).toContain('work/notes.md');
  },
  'npm run service -- user add': async () => {
    const added = await serviceCli([
      'user',
      'add',
      '--email',
      'ana@example.com',
      '--password',
      'a long passphrase',
      '--data',
      join(home, 'server'),
    ]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: 'ana@example.com' });
  },
  'npm run service -- invite add': async () => {
    const invited = await serviceCli([
      'invite',
      'add',
      '--email',
      'bea@example.com',
      '--public-url',
      'https://agents.example.com',
      '--data',
      join(home, 'server'),
    ]);
    expect(invited.code).toBe(0);
    expect(JSON.parse(invited.stdout).url).toMatch(/^https:\/\/agents\.example\.com\/invite\?code=inv_/);
  },
  'npm run service -- client add': async () => {
    const client = await serviceCli([
      'client',
      'add',
      '--name',
      'Team tool',
      '--redirect-uri',
      'https://team.example/callback',
      '--scopes',
      'profile agents:read',
      '--data',
      join(home, 'server'),
    ]);
    expect(client.code).toBe(0);
    expect(JSON.parse(client.stdout)).toHaveProperty('client_id');
  },
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'agentdesk-guide-'));
  data = join(home, 'data');
  folder = join(home, 'AgentDesk', 'assistant');
});
afterAll(async () => rm(home, { recursive: true, force: true }));

describe('the commands of the README and the guide', { timeout: 240_000 }, () => {
  const shown = [...guideCommandNames(guidePages(repo))].sort();

  it('are each run here or by a named test', () => {
    const unaccounted = shown.filter((name) => !(name in RUN_HERE) && !(name in RUN_ELSEWHERE));
    expect(unaccounted).toEqual([]);
    for (const [name, { file, types }] of Object.entries(RUN_ELSEWHERE)) {
      expect(readFileSync(join(repo, file), 'utf8'), `${file} runs ${name}`).toContain(types);
    }
  });

  // In the order a person meets them: sign in, look, chat, sync, then the server's admin commands.
  for (const name of Object.keys(RUN_HERE)) {
    it(`run as the guide shows: ${name}`, async () => {
      await RUN_HERE[name]!();
    });
  }
});
