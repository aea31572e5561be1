/**
 * The CLI as a person runs it: `bin/agentdesk.js sync …` spawned as its own process, against the
 * real local service with an agent token (gat_…) made on the account page. HOME and XDG_DATA_HOME
 * point into a temp folder, so the OS trash the CLI uses (the `trash` package) is a real XDG trash
 * there, and the state database lands in AGENTDESK_DATA. Each test gets its own folder and data
 * folder, and an empty workspace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import {
  createAgentToken,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';
import { cliFromSource } from '../../support/cli-source';

export interface Finished {
  code: number | null;
  out: string;
  err: string;
}

export interface Running {
  child: ChildProcess;
  output(): string;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  finished: Promise<Finished>;
}

const repo = resolve(import.meta.dirname, '../../..');

/** Registers the hooks and returns the world; its fields are set once the hooks ran. */
export function useCliWorld() {
  const w = {
    service: undefined as unknown as TestService,
    agentId: '',
    token: '',
    api: undefined as unknown as ApiClient,
    scratch: '',
    home: '',
    dataDir: '',
    folder: '',
    startCli,
    syncOnce,
    writeLocal,
    writeRemote,
    readRemote,
    until,
  };
  let run = 0;

  beforeAll(async () => {
    w.service = await startTestService();
    const tokens = await signIn(w.service, { scopes: ['agents:read', 'agents:write'] });
    w.agentId = await firstAgentId(w.service, tokens.access_token);
    w.token = await createAgentToken(w.service, w.agentId);
    w.api = createApiClient({ baseUrl: w.service.url, auth: staticTokenSource(w.token) });
    w.scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-cli-'));
  });

  afterAll(async () => {
    await w.service?.cleanup();
    if (w.scratch) await rm(w.scratch, { recursive: true, force: true });
  });

  beforeEach(async () => {
    run += 1;
    w.home = join(w.scratch, `home-${run}`);
    w.dataDir = join(w.scratch, `data-${run}`);
    w.folder = join(w.scratch, `folder-${run}`);
    await mkdir(w.home, { recursive: true });
    const listing = await w.api.listWorkspace(w.agentId, '');
    if (!listing.ok) throw new Error(listing.error.message);
    for (const file of listing.value.files) await w.api.deleteWorkspaceFile(w.agentId, file.path);
  });

  function startCli(args: string[], env: Record<string, string> = {}): Running {
    const child = spawn(process.execPath, [...cliFromSource, 'sync', ...args], {
      cwd: repo,
      env: {
        ...process.env,
        HOME: w.home,
        XDG_DATA_HOME: join(w.home, '.local', 'share'),
        AGENTDESK_DATA: w.dataDir,
        AGENTDESK_TOKEN: w.token,
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
      waitFor(text, timeoutMs = 45_000) {
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
    return startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--once', ...extra]).finished;
  }

  async function writeLocal(path: string, text: string): Promise<void> {
    await mkdir(dirname(join(w.folder, path)), { recursive: true });
    await writeFile(join(w.folder, path), text);
  }

  async function writeRemote(path: string, text: string): Promise<void> {
    const result = await w.api.writeWorkspaceFile(w.agentId, path, Buffer.from(text));
    if (!result.ok) throw new Error(result.error.message);
  }

  async function readRemote(path: string): Promise<string | undefined> {
    const result = await w.api.readWorkspaceFile(w.agentId, path);
    return result.ok && result.value.kind === 'bytes'
      ? Buffer.from(result.value.bytes).toString()
      : undefined;
  }

  async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return w;
}
