/**
 * The sync engine alone in its own process, watching a folder, for the "watching 20,000 files"
 * figures of `npm run bench:sync`: its RSS and CPU are then its own, not the service's.
 * Started with an IPC channel; answers `{ type: 'sample', gc? }` with `process.cpuUsage()` and RSS
 * (after a GC unless `gc: false`, when --expose-gc is on), sends `{ type: 'put', path, at }` when
 * a workspace upload is answered, and stops on `{ type: 'stop' }`.
 */
import { createApiClient } from '../../src/core/api/api-client';
import { staticTokenSource } from '../../src/core/auth/access-token-source';
import { BoxRemote } from '../../src/core/sync/remote/box-remote';
import { SyncEngine } from '../../src/core/sync/engine/sync-engine';
import { SyncStateStore } from '../../src/core/sync/state/sync-state-store';
import { wallNow } from './wall-now';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const gc = (globalThis as { gc?: () => void }).gc;
/** The looks at the agent's workspace listing (the poll's, and each cycle's own). */
let looks = 0;
/** CPU is read first, so a GC asked for here never counts as the engine's own work. */
const sample = (collect = true) => {
  const cpu = process.cpuUsage();
  const at = performance.now();
  if (collect) gc?.();
  const memory = process.memoryUsage();
  return { cpu, rss: memory.rss, heap: memory.heapUsed, external: memory.external, at, looks };
};

const before = sample();
const agentId = env('SYNC_AGENT');
const root = env('SYNC_ROOT');
const api = createApiClient({
  baseUrl: env('SYNC_URL'),
  auth: staticTokenSource(env('SYNC_TOKEN')),
  fetch: async (input, init) => {
    const { pathname } = new URL(String(input));
    if ((init?.method ?? 'GET') === 'GET' && /\/files\/?$/.test(pathname)) looks += 1;
    const response = await fetch(input, init);
    // Each workspace upload's moment, for the bench's save → agent figure (sync-watch.ts).
    const put = /\/files\/(.+)$/.exec(pathname);
    if (init?.method === 'PUT' && put && response.ok)
      process.send!({ type: 'put', path: decodeURIComponent(put[1]!), at: wallNow() });
    return response;
  },
});
const store = new SyncStateStore(env('SYNC_STATE'));
const engine = new SyncEngine({
  root,
  agentId,
  remote: new BoxRemote({ api, agentId, root }),
  store,
  trash: async () => {
    throw new Error('the bench never deletes');
  },
  watch: true,
  remoteIntervalMs: Number(process.env.SYNC_REMOTE_INTERVAL_MS ?? 0),
  // As in watch mode: a conditional listing every 2 s (304 while the agent writes nothing).
  remotePollMs: Number(process.env.SYNC_REMOTE_POLL_MS ?? 2000),
  // As in the app and the CLI, the looks space out while nothing moves (SYNC_POLL_IDLE=off: a fixed 2 s).
  ...(process.env.SYNC_POLL_IDLE === 'off' ? { remotePollIdle: false as const } : {}),
});
const started = performance.now();
const status = await engine.start();
const settled = sample();
process.send!({
  type: 'started',
  before,
  settled,
  startMs: performance.now() - started,
  state: status.state,
  total: status.total,
});

process.on('message', (message: { type: string; gc?: boolean }) => {
  if (message.type === 'sample') process.send!({ type: 'sample', ...sample(message.gc ?? true) });
  if (message.type === 'stop') {
    void engine.close().then(() => {
      store.close();
      // Ends here (a watcher's handles could keep it alive), so --cpu-prof in BENCH_WORKER_ARGS writes its profile.
      process.exit(0);
    });
  }
});
