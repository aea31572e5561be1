/**
 * A real local service, a real temp folder and a real sync engine, for the
 * sync.md scenarios. Remote changes are made through the API, as another
 * client or the agent would make them.
 */
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { BoxRemote } from '../../../src/core/sync/remote/box-remote';
import type { RemoteSide } from '../../../src/core/sync/plan/remote-side';
import { SyncEngine, type SyncEngineOptions } from '../../../src/core/sync/engine/sync-engine';
import { SyncStateStore } from '../../../src/core/sync/state/sync-state-store';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { firstAgentId, signIn, startTestService, type TestService } from '../../support/local-service';

export interface SyncWorld {
  service: TestService;
  /** Every request of the sync engine goes through this proxy. */
  proxy: FaultProxy;
  api: ApiClient;
  agentId: string;
  token: string;
  root: string;
  stateFile: string;
  trashDir: string;
  /** Everything sent to the trash, by original relative path. */
  trashed: string[];
  engine(options?: Partial<SyncEngineOptions> & { remote?: RemoteSide }): SyncEngine;
  local: {
    write(path: string, text: string | Uint8Array): Promise<void>;
    /** An editor's atomic save: written outside the folder, then renamed over the path. */
    save(path: string, text: string): Promise<void>;
    read(path: string): Promise<string>;
    exists(path: string): Promise<boolean>;
    remove(path: string): Promise<void>;
  };
  remote: {
    write(path: string, text: string | Uint8Array): Promise<void>;
    read(path: string): Promise<string | undefined>;
    remove(path: string): Promise<void>;
    list(): Promise<string[]>;
  };
  close(): Promise<void>;
}

const noRetryWait = {
  attempts: 5,
  baseDelayMs: 1,
  maxDelayMs: 50,
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
};

export async function createSyncWorld(): Promise<SyncWorld> {
  const service = await startTestService();
  const proxy = await startFaultProxy(service.url);
  const tokens = await signIn(service, { scopes: ['agents:read', 'agents:write'] });
  const agentId = await firstAgentId(service, tokens.access_token);
  const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-'));
  const root = join(scratch, 'folder');
  let saves = 0;
  const trashDir = join(scratch, 'trash');
  await mkdir(trashDir);
  const api = createApiClient({ baseUrl: proxy.url, auth: staticTokenSource(tokens.access_token) });
  const direct = createApiClient({ baseUrl: service.url, auth: staticTokenSource(tokens.access_token) });
  const trashed: string[] = [];
  const engines: SyncEngine[] = [];
  const stores: SyncStateStore[] = [];
  const stateFile = join(scratch, 'state', 'sync.db');

  const world: SyncWorld = {
    service,
    proxy,
    api,
    agentId,
    token: tokens.access_token,
    root,
    stateFile,
    trashDir,
    trashed,
    engine(overrides = {}) {
      const store = new SyncStateStore(stateFile);
      stores.push(store);
      const engine = new SyncEngine({
        root,
        agentId,
        remote: overrides.remote ?? new BoxRemote({ api, agentId, root }),
        store,
        // A real move on disk into a folder of the test's own, standing in for the OS trash.
        trash: async (absolute) => {
          trashed.push(absolute.slice(root.length + 1));
          await rename(absolute, join(trashDir, `${trashed.length}-${basename(absolute)}`));
        },
        retry: noRetryWait,
        ...overrides,
      });
      engines.push(engine);
      return engine;
    },
    local: {
      async write(path, text) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), text);
      },
      async save(path, text) {
        const staged = join(scratch, `save-${++saves}`);
        await writeFile(staged, text);
        await mkdir(dirname(join(root, path)), { recursive: true });
        await rename(staged, join(root, path));
      },
      read: (path) => readFile(join(root, path), 'utf8'),
      exists: (path) =>
        readFile(join(root, path)).then(
          () => true,
          () => false,
        ),
      remove: (path) => rm(join(root, path), { recursive: true }),
    },
    remote: {
      async write(path, text) {
        const bytes = typeof text === 'string' ? Buffer.from(text) : text;
        const result = await direct.writeWorkspaceFile(agentId, workPath(path), bytes);
        if (!result.ok) throw new Error(result.error.message);
      },
      async read(path) {
        const result = await direct.readWorkspaceFile(agentId, workPath(path));
        if (!result.ok) return undefined;
        return result.value.kind === 'bytes' ? Buffer.from(result.value.bytes).toString('utf8') : undefined;
      },
      async remove(path) {
        const result = await direct.deleteWorkspaceFile(agentId, workPath(path));
        if (!result.ok) throw new Error(result.error.message);
      },
      async list() {
        const result = await direct.listWorkspace(agentId, '');
        if (!result.ok) throw new Error(result.error.message);
        return result.value.files.map((f) => `work/${f.path}`).sort();
      },
    },
    async close() {
      for (const engine of engines) await engine.close();
      for (const store of stores) store.close();
      await proxy.close();
      await service.cleanup();
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return world;
}

function workPath(path: string): string {
  if (!path.startsWith('work/')) throw new Error(`test helper writes workspace files only: ${path}`);
  return path.slice('work/'.length);
}

/** Polls until `probe` holds (the engine works in the background); fails after 30 s naming `what`. */
export async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A fresh world for each test, with one workspace file so the agent's listing is never empty,
 * closed after the test; `take` receives it.
 */
export function useSyncWorld(take: (world: SyncWorld) => void): void {
  let world: SyncWorld | undefined;
  beforeEach(async () => {
    world = await createSyncWorld();
    await world.remote.write('work/keep.txt', 'keeps the listing non-empty');
    take(world);
  });
  afterEach(async () => {
    await world?.close();
  });
}
