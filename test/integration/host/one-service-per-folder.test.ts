import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { openCliHost } from '../../../src/cli/open-host';
import { runCli } from '../../../src/cli/run-cli';
import type { CliIo } from '../../../src/cli/terminal';
import { cliFromSource } from '../../support/cli-source';

// One "this computer" service per data folder (core/host/plumbing/local-service-lease.ts): a second program
// on the same folder joins the running service instead of starting its own, whose restart recovery would end
// the first one's running turn as "the service restarted"; one with no sign-in to use there runs a guest
// service beside it, which leaves the first one's turns, temp files and schedules alone. Real processes and real files; a memory secret
// store plays the OS keychain where two runs in this process share it.

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-one-service-'));
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

const WRITE = 'write held.txt\n```\nwritten while another program ran\n```';
const lockFile = () => join(dataDir, 'local-service', 'service.lock');

/** `agentdesk …` in this process; `ask` answers its permission questions. */
async function run(
  argv: string[],
  secrets: SecretStore,
  ask: () => Promise<string | undefined> = async () => undefined,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    ask: async (prompt) => {
      out += prompt;
      return ask();
    },
    onInterrupt: () => () => {},
    color: false,
    close: () => {},
  };
  const code = await runCli([...argv, '--data', dataDir, '--no-open'], { io, secrets });
  return { code, out, err };
}

/** The states of the service's turns, read from its store as another process would. */
function turnStates(): string[] {
  const db = new Database(join(dataDir, 'local-service', 'service.db'), { readonly: true });
  try {
    return (db.prepare('SELECT state FROM turns').all() as { state: string }[]).map((row) => row.state);
  } finally {
    db.close();
  }
}

/** The file the agent wrote, wherever its workspace is. */
async function heldFile(): Promise<string | undefined> {
  const entries = await readdir(join(dataDir, 'local-service'), { withFileTypes: true, recursive: true });
  const hit = entries.find((entry) => entry.isFile() && entry.name === 'held.txt');
  return hit ? readFile(join(hit.parentPath, hit.name), 'utf8') : undefined;
}

async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** `agentdesk chat` in this process, its turn held open at its permission question until `answer`. */
async function holdTurnOpen(keychain: SecretStore) {
  let answer!: (line: string) => void;
  const answered = new Promise<string>((done) => (answer = done));
  let asked = false;
  const holding = run(['chat', 'assistant', WRITE], keychain, () => {
    asked = true;
    return answered;
  });
  await until('the first run asks', () => asked);
  return { holding, answer };
}

it('a command with no sign-in to share runs beside the program holding a turn open: the turn goes on and ends', async () => {
  // The first program: `agentdesk chat` in a process of its own, its turn waiting for a permission answer.
  const first = spawn(process.execPath, [...cliFromSource, 'chat', 'assistant', WRITE, '--data', dataDir], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  first.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  first.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((done) => first.on('close', (code) => done(code)));
  try {
    await until('the first program asks', () => /Choose 1-\d/.test(text));

    // A second program on the same folder, with no keychain to share the sign-in: it cannot use the first
    // one's service, so it runs a guest beside it and signs in by itself.
    const second = await run(['agents'], createMemorySecretStore());
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/^\S+\tAssistant$/m);
    // Its start left the first one's turn alone: still running in the store (a full start ended it as an error).
    expect(turnStates()).toEqual(['running']);
    // The folder is still the first program's.
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: first.pid });

    // The first program's turn was not ended by a second start: answered, it writes the file and ends.
    first.stdin.write('y\n');
    expect(await exited).toBe(0);
    expect(text).not.toMatch(/restarted|interrupted/i);
    expect(await heldFile()).toContain('written while another program ran');
    expect(existsSync(lockFile())).toBe(false);
  } finally {
    first.kill('SIGKILL');
  }
}, 120_000);

it('with the keychain shared, the second program works through the first one’s service; the last one out frees the folder', async () => {
  const keychain = createMemorySecretStore();
  const { holding, answer } = await holdTurnOpen(keychain);
  const lock = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number; url: string; who: string };
  expect(lock).toMatchObject({ pid: process.pid, who: 'the agentdesk command' });
  expect(lock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const beside = await run(['agents'], keychain);
  expect(beside.code).toBe(0);
  expect(beside.out).toMatch(/^\S+\tAssistant$/m);
  // Its end did not stop the service the first run holds: the lock is still the first run's.
  expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ url: lock.url });

  answer('y');
  const first = await holding;
  expect(first.code).toBe(0);
  expect(first.out).not.toMatch(/restarted|interrupted/i);
  expect(await heldFile()).toContain('written while another program ran');
  expect(existsSync(lockFile())).toBe(false);

  // The folder is free: the next run starts the service itself.
  const next = await run(['agents'], keychain);
  expect(next.code).toBe(0);
}, 120_000);

it('a lock left by a process that is gone is taken over', async () => {
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => gone.on('close', done));
  await run(['login'], createMemorySecretStore());
  const stale = {
    pid: gone.pid,
    host: hostname(),
    who: 'the AgentDesk app',
    since: 1,
    url: 'http://127.0.0.1:9',
  };
  await writeFile(lockFile(), JSON.stringify(stale));
  const after = await run(['agents'], createMemorySecretStore());
  expect(after.code).toBe(0);
  expect(after.out).toMatch(/\tAssistant$/m);
}, 120_000);

it('when the program holding the service ends, one that joined it takes it over at the same address', async () => {
  const keychain = createMemorySecretStore();
  const { holding, answer } = await holdTurnOpen(keychain);
  const before = JSON.parse(await readFile(lockFile(), 'utf8')) as { url: string; since: number };

  // A program that stays: a host on the same folder, signed in through the shared keychain.
  const io: CliIo = {
    out: () => {},
    err: () => {},
    ask: async () => undefined,
    onInterrupt: () => () => {},
    color: false,
    close: () => {},
  };
  const staying = await openCliHost({ dataDir, io, openBrowser: false, secrets: keychain });
  try {
    const agents = await staying.listAgents();
    expect(agents.ok).toBe(true);

    answer('y');
    expect((await holding).code).toBe(0);
    // The holder has stopped its service; within seconds the staying one runs it, at the same address.
    await expect
      .poll(
        async () => JSON.parse(await readFile(lockFile(), 'utf8').catch(() => '{}')) as { since?: number },
        {
          timeout: 15_000,
        },
      )
      .toMatchObject({ url: before.url, since: expect.toSatisfy((since: number) => since > before.since) });
    const again = await staying.listAgents();
    expect(again.ok && again.value.agents.map((agent) => agent.name)).toContain('Assistant');
  } finally {
    await staying.close();
  }
  expect(existsSync(lockFile())).toBe(false);
}, 120_000);

it('a guest takes the folder over when the program it ran beside dies: that one’s turn ends, its own goes on, and a later program leaves it alone', async () => {
  const turns = () => {
    const db = new Database(join(dataDir, 'local-service', 'service.db'), { readonly: true });
    try {
      return new Map(
        (db.prepare('SELECT turn_id, state FROM turns').all() as { turn_id: string; state: string }[]).map(
          (row) => [row.turn_id, row.state],
        ),
      );
    } finally {
      db.close();
    }
  };
  // The holder: `agentdesk chat` in a process of its own, its turn waiting for a permission answer.
  const first = spawn(process.execPath, [...cliFromSource, 'chat', 'assistant', WRITE, '--data', dataDir], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  first.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise((done) => first.on('close', done));
  try {
    await until('the holder asks', () => /Choose 1-\d/.test(text));
    const [holdersTurn] = [...turns().keys()];

    // A guest beside it (no sign-in to share), its own turn held open at its permission question too.
    const { holding, answer } = await holdTurnOpen(createMemorySecretStore());
    await until('the guest’s turn runs', () => turns().size === 2);
    const guestsTurn = [...turns().keys()].find((id) => id !== holdersTurn)!;

    // The holder dies mid-turn. Within seconds the guest holds the folder, at its own address, and ends the
    // dead program's turn as a restart would; its own turn is still running.
    first.kill('SIGKILL');
    await exited;
    await expect
      .poll(
        async () => JSON.parse(await readFile(lockFile(), 'utf8').catch(() => '{}')) as { pid?: number },
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({ pid: process.pid, who: 'the agentdesk command' });
    await until('the dead program’s turn ends', () => turns().get(holdersTurn!) === 'error', 10_000);
    expect(turns().get(guestsTurn)).toBe('running');

    // A later program on the folder is now the one beside: its start leaves the running turn alone.
    const later = await run(['agents'], createMemorySecretStore());
    expect(later.code).toBe(0);
    expect(turns().get(guestsTurn)).toBe('running');

    answer('y');
    const guest = await holding;
    expect(guest.code).toBe(0);
    expect(guest.out).not.toMatch(/restarted|interrupted/i);
    expect(turns().get(guestsTurn)).toBe('done');
    expect(await heldFile()).toContain('written while another program ran');
    expect(existsSync(lockFile())).toBe(false);
  } finally {
    first.kill('SIGKILL');
  }
}, 120_000);
