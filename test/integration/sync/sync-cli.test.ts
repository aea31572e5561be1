/**
 * `agentdesk sync <folder> --agent <id> [--once]`, spawned as its own process through the real
 * `bin/agentdesk.js`, against the real local service with an agent token (gat_…) made on the
 * account page. HOME and XDG_DATA_HOME point into a temp folder, so the OS trash the CLI uses
 * (the `trash` package) is a real XDG trash there, and the state database lands in AGENTDESK_DATA.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import {
  createAgentToken,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';

const repo = resolve(import.meta.dirname, '../../..');
let service: TestService;
let agentId: string;
let token: string;
let api: ApiClient;
let scratch: string;
let home: string;
let dataDir: string;
let folder: string;

beforeAll(async () => {
  service = await startTestService();
  const tokens = await signIn(service, { scopes: ['agents:read', 'agents:write'] });
  agentId = await firstAgentId(service, tokens.access_token);
  token = await createAgentToken(service, agentId);
  api = createApiClient({ baseUrl: service.url, auth: staticTokenSource(token) });
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-cli-'));
});

afterAll(async () => {
  await service?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

let run = 0;
beforeEach(async () => {
  run += 1;
  home = join(scratch, `home-${run}`);
  dataDir = join(scratch, `data-${run}`);
  folder = join(scratch, `folder-${run}`);
  await mkdir(home, { recursive: true });
  // Each test starts from an empty workspace.
  const listing = await api.listWorkspace(agentId, '');
  if (!listing.ok) throw new Error(listing.error.message);
  for (const file of listing.value.files) await api.deleteWorkspaceFile(agentId, file.path);
});

interface Finished {
  code: number | null;
  out: string;
  err: string;
}

interface Running {
  child: ChildProcess;
  output(): string;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  finished: Promise<Finished>;
}

function startCli(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [join(repo, 'bin/agentdesk.js'), 'sync', ...args], {
    cwd: repo,
    env: {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      AGENTDESK_DATA: dataDir,
      AGENTDESK_TOKEN: token,
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    for (const listener of listeners) listener();
  });
  const finished = new Promise<Finished>((done) => child.on('close', (code) => done({ code, out, err })));
  return {
    child,
    output: () => out + err,
    finished,
    waitFor(text, timeoutMs = 15_000) {
      const seen = () => (typeof text === 'string' ? (out + err).includes(text) : text.test(out + err));
      return new Promise((ok, fail) => {
        if (seen()) return ok();
        const timer = setTimeout(() => {
          listeners.delete(check);
          fail(new Error(`timed out waiting for ${String(text)}; output so far:\n${out}${err}`));
        }, timeoutMs);
        const check = () => {
          if (!seen()) return;
          clearTimeout(timer);
          listeners.delete(check);
          ok();
        };
        listeners.add(check);
        void finished.then(check);
      });
    },
  };
}

function syncOnce(...extra: string[]): Promise<Finished> {
  return startCli([folder, '--agent', agentId, '--server', service.url, '--once', ...extra]).finished;
}

async function writeLocal(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(folder, path)), { recursive: true });
  await writeFile(join(folder, path), text);
}

async function writeRemote(path: string, text: string): Promise<void> {
  const result = await api.writeWorkspaceFile(agentId, path, Buffer.from(text));
  if (!result.ok) throw new Error(result.error.message);
}

async function readRemote(path: string): Promise<string | undefined> {
  const result = await api.readWorkspaceFile(agentId, path);
  return result.ok && result.value.kind === 'bytes' ? Buffer.from(result.value.bytes).toString() : undefined;
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('agentdesk sync', () => {
  it('--once syncs both ways, prints progress, keeps its state in the data folder and exits 0', async () => {
    await writeRemote('from-agent.txt', 'theirs');
    await writeLocal('work/from-me.txt', 'mine');
    const result = await syncOnce();
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Syncing .* with .*\(machine agent\)/);
    expect(result.out).toMatch(/Syncing \d+ changes…/);
    expect(result.out).toMatch(/In step at/);
    expect(await readFile(join(folder, 'work/from-agent.txt'), 'utf8')).toBe('theirs');
    expect(await readRemote('from-me.txt')).toBe('mine');
    expect(existsSync(join(folder, 'instructions.md'))).toBe(true);
    // The state is in the app's data folder, never in the synced folder.
    expect((await readdir(join(dataDir, 'sync'))).some((name) => name.endsWith('.db'))).toBe(true);
    expect((await readdir(folder)).sort()).toEqual(['.agentdesk', 'instructions.md', 'mcp.json', 'work']);

    // A second run has nothing to do.
    const again = await syncOnce();
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/Syncing \d+ change/);
  });

  it('--once exits 3 and names the conflict when both sides changed a file differently', async () => {
    await writeRemote('notes.md', 'the agent wrote this');
    await writeLocal('work/notes.md', 'I wrote this instead');
    const result = await syncOnce();
    expect(result.code).toBe(3);
    expect(result.out).toMatch(/Conflict: work\/notes\.md changed on both sides/);
    const copies = (await readdir(join(folder, 'work'))).filter((n) => n.includes('.conflict-remote-'));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(folder, 'work', copies[0]!), 'utf8')).toBe('the agent wrote this');
    expect(await readFile(join(folder, 'work/notes.md'), 'utf8')).toBe('I wrote this instead');
    expect(await readRemote('notes.md')).toBe('the agent wrote this');
    // Still open on the next run: still non-zero.
    expect((await syncOnce()).code).toBe(3);
  });

  it('--once pauses on a mass deletion and goes ahead with --confirm-deletes', async () => {
    for (const n of [1, 2, 3, 4]) await writeRemote(`bulk/${n}.txt`, `file ${n}`);
    expect((await syncOnce()).code).toBe(0);
    await rm(join(folder, 'work/bulk'), { recursive: true });
    const paused = await syncOnce();
    expect(paused.code).toBe(1);
    expect(paused.err).toMatch(/Paused: This sync would delete 4 of/);
    expect(paused.err).toMatch(/--confirm-deletes/);
    expect(await readRemote('bulk/1.txt')).toBe('file 1');
    const confirmed = await syncOnce('--confirm-deletes');
    expect(confirmed.code).toBe(0);
    expect(await readRemote('bulk/1.txt')).toBeUndefined();
  });

  it('without --once it keeps watching: a saved file is uploaded, a remote delete goes to the trash, Ctrl-C stops it', async () => {
    await writeRemote('old.txt', 'going away');
    const cli = startCli([folder, '--agent', agentId, '--server', service.url, '--interval', '0.3']);
    try {
      await cli.waitFor('Watching for changes');
      expect(await readFile(join(folder, 'work/old.txt'), 'utf8')).toBe('going away');

      await writeLocal('work/saved.txt', 'saved in my editor');
      expect(await until(() => readRemote('saved.txt'))).toBe('saved in my editor');

      const delOld = await api.deleteWorkspaceFile(agentId, 'old.txt');
      expect(delOld.ok).toBe(true);
      const trashFiles = join(home, '.local', 'share', 'Trash', 'files');
      const trashed = await until(async () => {
        const names = await readdir(trashFiles).catch(() => []);
        return names.length > 0 ? names : undefined;
      });
      expect(await readFile(join(trashFiles, trashed[0]!), 'utf8')).toBe('going away');
      expect(existsSync(join(folder, 'work/old.txt'))).toBe(false);
    } finally {
      cli.child.kill('SIGINT');
    }
    const result = await cli.finished;
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Stopping\./);
  });

  it('explains bad arguments (exit 2) and a token the service refuses (exit 1)', async () => {
    const noAgent = await startCli([folder, '--server', service.url, '--once']).finished;
    expect(noAgent.code).toBe(2);
    expect(noAgent.err).toMatch(/--agent <id>/);

    const noToken = await startCli([folder, '--agent', agentId, '--server', service.url, '--once'], {
      AGENTDESK_TOKEN: '',
    }).finished;
    expect(noToken.code).toBe(2);
    expect(noToken.err).toMatch(/agent token/);

    const refused = await startCli([folder, '--agent', agentId, '--server', service.url, '--once'], {
      AGENTDESK_TOKEN: 'gat_not-a-real-token',
    }).finished;
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Could not reach agent/);
    expect(existsSync(join(folder, '.agentdesk'))).toBe(false);
  });
});
