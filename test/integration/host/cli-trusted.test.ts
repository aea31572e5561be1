import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { runCli } from '../../../src/cli/run-cli';
import type { CliIo } from '../../../src/cli/terminal';

// `agentdesk` on "This computer" as people run it: the service it starts in its own process trusts it, as the
// app's does, so login needs no browser and no password, and the account is the same passwordless owner the
// app made. A memory secret store plays the OS keychain.

let dataDir: string;
let secrets: SecretStore;

async function run(
  argv: string[],
  store: SecretStore = secrets,
  answers: string[] = [],
): Promise<{ code: number; out: string; err: string; asked: string[] }> {
  let out = '';
  let err = '';
  const asked: string[] = [];
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    // The person types the scripted answers, then nothing more (the end of input).
    ask: async (prompt) => {
      asked.push(prompt);
      out += prompt;
      return answers.shift();
    },
    onInterrupt: () => () => {},
    color: false,
    close: () => {},
  };
  const code = await runCli([...argv, '--data', dataDir, '--no-open'], { io, secrets: store });
  return { code, out, err, asked };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-trusted-'));
  secrets = createMemorySecretStore();
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('agentdesk on this computer', () => {
  it('logs in with no browser and no password, then lists the first agent and chats', async () => {
    const login = await run(['login']);
    expect(login.code).toBe(0);
    expect(login.err).not.toMatch(/oauth2\/authorize/);
    expect(login.out).toMatch(/^Signed in to This computer as [a-z0-9._-]+\.\n$/);

    const agents = await run(['agents']);
    expect(agents.code).toBe(0);
    // The id and the name, no wire words (the protocol, "no access key yet").
    expect(agents.out).toMatch(/^\S+\tAssistant$/m);
    expect(agents.out).not.toMatch(/acp|access key/);
    const chat = await run(['chat', 'assistant', 'hello from the terminal']);
    expect(chat.code).toBe(0);
    expect(chat.out).toContain('hello from the terminal');
  });

  const FIRST_ASK = /^Choose 1-\d \(y allows once, n denies\): $/;

  it('y at a permission question allows once: asked once, the file written, exit code 0; n denies', async () => {
    const allowed = await run(['chat', 'assistant', 'write yes.txt\n```\nallowed by y\n```'], secrets, ['y']);
    expect(allowed.asked).toEqual([expect.stringMatching(FIRST_ASK)]);
    expect(allowed.out).toMatch(/The agent asks: /);
    expect(allowed.code).toBe(0);
    const yes = await findFile(join(dataDir, 'local-service'), 'yes.txt');
    expect(yes && (await readFile(yes, 'utf8'))).toContain('allowed by y');

    const denied = await run(['chat', 'assistant', 'write no.txt\n```\nnot wanted\n```'], secrets, ['no']);
    expect(denied.asked).toEqual([expect.stringMatching(FIRST_ASK)]);
    expect(denied.out).toMatch(/permission was refused/);
    expect(denied.code).toBe(0);
    expect(await findFile(join(dataDir, 'local-service'), 'no.txt')).toBeUndefined();

    // Anything else asks again, in a line that says what it takes.
    const unsure = await run(['chat', 'assistant', 'write maybe.txt\n```\nperhaps\n```'], secrets, [
      'maybe',
      '1',
    ]);
    expect(unsure.asked).toEqual([
      expect.stringMatching(FIRST_ASK),
      expect.stringMatching(/^Type 1-\d, y or n: $/),
    ]);
    expect(unsure.code).toBe(0);
  });

  it('never prints or stores the tokens in plain text', async () => {
    const who = await run(['whoami']);
    expect(who.out + who.err).not.toMatch(/access_token|refresh_token|Bearer /);
    const profiles = await readFile(join(dataDir, 'profiles.json'), 'utf8');
    expect(profiles).not.toMatch(/token/i);
  });

  it('with no keychain (each command its own memory), whoami tells the same truth as agents', async () => {
    // A memory-only run keeps its sign-in for itself: the next command starts signed out, yet agents signs in
    // at once. whoami must not claim "Not signed in" then: it signs in the same way and says who and for how long.
    const agents = await run(['agents'], createMemorySecretStore());
    expect(agents.code).toBe(0);
    expect(agents.out).toMatch(/^\S+\tAssistant$/m);
    expect(agents.out + agents.err).not.toMatch(/Signed in|Note:/);

    const who = await run(['whoami'], createMemorySecretStore());
    expect(who.code).toBe(0);
    expect(who.out).not.toMatch(/Not signed in/);
    expect(who.out).toMatch(/^Signed in to This computer as [a-z0-9._-]+\.\n/);
    expect(who.out).toMatch(/lasts for this command only/);

    const login = await run(['login'], createMemorySecretStore());
    expect(login.err).toMatch(
      /^Note: no keychain is available here, so a sign-in lasts for one command only\./,
    );
  });
});

/** The file named `name` anywhere under `root` (the agent's workspace lives deeper in the data folder). */
async function findFile(root: string, name: string): Promise<string | undefined> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  const hit = entries.find((e) => e.isFile() && e.name === name);
  return hit ? join(hit.parentPath, hit.name) : undefined;
}
