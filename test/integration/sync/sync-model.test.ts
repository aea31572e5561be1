/**
 * Scenario 28 of docs/sync.md: a randomized model-based test (fast-check).
 *
 * Thousands of truly interleaved operations against the real local service and a real folder:
 * local edits, editor-style saves, deletes (files and folders), remote edits and deletes through
 * the API, sync cycles at full concurrency during which the person saves and the agent writes at
 * the moment a chosen request of the engine goes out (a save that lands during the download of
 * that very file, an agent write between the listing and the upload of that file), crashes (the
 * process "dies" after N requests: its state database is closed under it and the network is gone;
 * or it dies with a file moved aside mid-replace; a new SyncEngine reopens the same state file),
 * a second process trying the same folder, faults through the proxy (503 with Retry-After, 500,
 * dropped connections, truncated bodies, a listing that comes back empty), conflict resolutions
 * and mass-delete confirmations.
 *
 * The model records every version either side ever wrote (each write has unique contents;
 * versions of one side often share a size) and which of them a person or the agent themselves
 * overwrote or deleted outside the sync. The promise, checked after every operation that runs
 * the engine and after quiescence: every other version is present on some side, kept as a
 * conflict copy, or in the folder's version history. Versions a person dropped by resolving a
 * conflict count too: they must be in the history. After quiescence (faults cleared, cycles run
 * until settled, conflicts resolved) both sides hold the same work/ files.
 *
 * CI runs a fixed seed; `npm run bench:sync -- --soak` runs many more with a random seed
 * (SYNC_MODEL_RUNS / SYNC_MODEL_SEED / SYNC_MODEL_COMMANDS; failures shrink to a minimal
 * sequence with SYNC_MODEL_SHRINK=1).
 */
import fc from 'fast-check';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../../src/core/api/api-client';
import { realSleep, type FetchLike } from '../../../src/core/common/result';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { BoxRemote } from '../../../src/core/sync/remote/box-remote';
import { SyncEngine, type ConflictChoice, type SyncStatus } from '../../../src/core/sync/engine/sync-engine';
import { FolderBusyError, lockFolder, type FolderLock } from '../../../src/core/sync/state/folder-lock';
import {
  isAlwaysIgnored,
  looksLikeConflictCopy,
  tempFilePrefix,
} from '../../../src/core/sync/plan/sync-paths';
import { SyncStateStore } from '../../../src/core/sync/state/sync-state-store';
import type { Fault } from '../../support/fault-proxy';
import { createSyncWorld, type SyncWorld } from './sync-harness';

const seed = Number(process.env.SYNC_MODEL_SEED ?? 42);
const numRuns = Number(process.env.SYNC_MODEL_RUNS ?? 12);
const maxCommands = Number(process.env.SYNC_MODEL_COMMANDS ?? 400);
// A hang, not a slow machine: the 12 runs take about 80 s on a quiet machine and passed 150 s with both
// cores busy (3 December 2026), so the bound leaves room for four times the quiet time.
const timeoutMs = Number(process.env.SYNC_MODEL_TIMEOUT_MS ?? 360_000);

/** A small alphabet of names, so both sides keep touching the same paths. */
const filePaths = [
  'work/a.txt',
  'work/b.md',
  'work/n/c.txt',
  'work/n/d.txt',
  'work/n/m/e.txt',
  'work/n/m/f.txt',
  'work/n/m/g.txt',
] as const;
/** Folders, deleted whole; `work` itself empties a side (the mass-delete guard and the empty-listing guard). */
const folderPaths = ['work', 'work/n', 'work/n/m'] as const;

type Side = 'local' | 'remote';

interface Version {
  side: Side;
  path: string;
  /** A person overwrote or deleted it on purpose (or chose the other version): it may be gone. */
  discarded: boolean;
}

interface Model {
  versions: Map<string, Version>;
  written: number;
}

/** The network of one engine "process": counts requests, runs hooks, and can die. */
class ProcessNetwork {
  requests = 0;
  dead = false;
  crashAt: number | undefined;
  onCrash: (() => void) | undefined;
  readonly hooks = new Map<number, (url: string) => Promise<void>>();
  /** Hooks still running: a cycle can end while a request it no longer waits for is held by one. */
  readonly runningHooks = new Set<Promise<void>>();
  private lastHook: Promise<void> = Promise.resolve();

  readonly fetch: FetchLike = async (input, init) => {
    const index = this.requests++;
    if (this.crashAt !== undefined && index >= this.crashAt && !this.dead) {
      this.dead = true;
      this.onCrash?.();
    }
    if (this.dead) throw new TypeError('fetch failed: the sync process is gone');
    const hook = this.hooks.get(index);
    if (hook) {
      this.hooks.delete(index);
      // One edit at a time, as one person makes them, even when two requests go out together.
      const running = this.lastHook.then(() => hook(String(input instanceof Request ? input.url : input)));
      this.lastHook = running.catch(() => undefined);
      this.runningHooks.add(running);
      await running.finally(() => this.runningHooks.delete(running));
    }
    return fetch(input, init);
  };
}

/** One engine process: its state database, its network, its engine. */
interface Incarnation {
  /** The folder's lock, as the app and the CLI take it. */
  lock: FolderLock;
  store: SyncStateStore;
  net: ProcessNetwork;
  remote: BoxRemote;
  engine: SyncEngine;
}

interface Real {
  world: SyncWorld;
  root: string;
  stateFile: string;
  trashDir: string;
  current: Incarnation;
  /** Every wait the API client was asked for (Retry-After is honoured, but not slept out in full). */
  waits: number[];
  trashed: number;
}

let world: SyncWorld;
let scratch: string;
let runCount = 0;

/** What the runs actually went through, printed at the end so a quiet run is visibly not a trivial one. */
const stats = {
  operations: 0,
  cycles: 0,
  failedCycles: 0,
  editsDuringCycles: 0,
  fastPasses: 0,
  crashes: 0,
  conflicts: 0,
  resolved: 0,
  massDeletePauses: 0,
  trashed: 0,
  retryAfterWaits: 0,
  secondProcesses: 0,
};

beforeAll(async () => {
  world = await createSyncWorld();
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-model-'));
});

afterAll(async () => {
  await world?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const fastRetry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5, sleep: (ms: number) => realSleep(ms) };

function openIncarnation(real: Omit<Real, 'current'>, concurrency = 4): Incarnation {
  const lock = lockFolder(real.stateFile, real.root, 'the model test');
  const store = new SyncStateStore(real.stateFile);
  const net = new ProcessNetwork();
  const api = createApiClient({
    baseUrl: real.world.proxy.url,
    auth: staticTokenSource(real.world.token),
    fetch: net.fetch,
    // Retry-After and backoff waits are recorded, then shortened so the test stays fast.
    sleep: (ms, signal) => {
      real.waits.push(ms);
      return realSleep(Math.min(ms, 3), signal);
    },
  });
  const remote = new BoxRemote({ api, agentId: real.world.agentId, root: real.root });
  const engine = engineFor(real, store, remote, concurrency);
  return { lock, store, net, remote, engine };
}

function engineFor(
  real: Omit<Real, 'current'>,
  store: SyncStateStore,
  remote: BoxRemote,
  concurrency: number,
): SyncEngine {
  return new SyncEngine({
    root: real.root,
    agentId: real.world.agentId,
    remote,
    store,
    concurrency,
    retry: fastRetry,
    // Each plan's deletes counted alone, as before the guard remembered the last minute's (that memory is
    // sync-slow-deletions.test.ts's): the model deletes its dozen paths again and again within seconds, and
    // would spend its time confirming pauses instead of interleaving edits, crashes and faults.
    deleteWindowMs: 1,
    // A real move into a folder of the test's own, standing in for the OS trash.
    trash: async (absolute) => {
      real.trashed += 1;
      await rename(absolute, join(real.trashDir, `${real.trashed}`));
    },
  });
}

async function newRun(): Promise<Real> {
  runCount += 1;
  const dir = join(scratch, `run-${runCount}`);
  const trashDir = join(dir, 'trash');
  await mkdir(trashDir, { recursive: true });
  world.proxy.clear();
  // The agent's workspace starts empty for every run.
  for (const path of await world.remote.list()) await world.remote.remove(path);
  const base = {
    world,
    root: join(dir, 'folder'),
    stateFile: join(dir, 'state', 'sync.db'),
    trashDir,
    waits: [],
    trashed: 0,
  };
  const real: Real = { ...base, current: openIncarnation(base) };
  await real.current.engine.start();
  return real;
}

async function endRun(real: Real): Promise<void> {
  stats.trashed += real.trashed;
  stats.retryAfterWaits += real.waits.filter((ms) => ms === 1000).length;
  await real.current.engine.close().catch(() => undefined);
  try {
    real.current.store.close();
  } catch {
    // already closed by a crash
  }
  real.current.lock.release();
  world.proxy.clear();
  await rm(dirname(real.root), { recursive: true, force: true });
}

// --- The two sides, as a person and the agent change them -------------------------------------

function newVersion(m: Model, side: Side, path: string, pad: number): string {
  m.written += 1;
  const id = `${side === 'local' ? 'L' : 'R'}${m.written}:`;
  // Both sides reuse three lengths on purpose, so same-size edits are common on either side
  // (the listing's sha256 and ETag tell them apart).
  const content = (id + (side === 'local' ? 'l' : 'r').repeat(16)).slice(0, 12 + pad);
  m.versions.set(content, { side, path, discarded: false });
  return content;
}

function discard(m: Model, content: string | undefined): void {
  const version = content === undefined ? undefined : m.versions.get(content);
  if (version) version.discarded = true;
}

async function readLocal(real: Real, path: string): Promise<string | undefined> {
  return readFile(join(real.root, path), 'utf8').catch(() => undefined);
}

async function localFilesUnder(real: Real, dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(real.root, dir), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await localFilesUnder(real, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

async function localWrite(m: Model, real: Real, path: string, pad: number, editorSave: boolean) {
  const absolute = join(real.root, path);
  discard(m, await readLocal(real, path));
  const content = newVersion(m, 'local', path, pad);
  await mkdir(dirname(absolute), { recursive: true });
  if (editorSave) {
    // Write a swap file beside it, then rename over: a new inode, as many editors save.
    const swap = join(dirname(absolute), `.${path.split('/').pop()}.swp`);
    await writeFile(swap, content);
    await rename(swap, absolute);
  } else {
    await writeFile(absolute, content);
  }
}

async function localDelete(m: Model, real: Real, path: string) {
  const info = await lstat(join(real.root, path)).catch(() => undefined);
  if (!info) return;
  const files = info.isDirectory() ? await localFilesUnder(real, path) : [path];
  for (const file of files) discard(m, await readLocal(real, file));
  await rm(join(real.root, path), { recursive: true, force: true });
}

async function remoteWrite(m: Model, real: Real, path: string, pad = 0) {
  discard(m, await real.world.remote.read(path));
  await real.world.remote.write(path, newVersion(m, 'remote', path, pad));
}

async function remoteDelete(m: Model, real: Real, path: string) {
  const files = (await real.world.remote.list()).filter((p) => p === path || p.startsWith(`${path}/`));
  if (files.length === 0) return;
  for (const file of files) discard(m, await real.world.remote.read(file));
  if (path === 'work') for (const file of files) await real.world.remote.remove(file);
  else await real.world.remote.remove(path);
}

// --- The invariants ------------------------------------------------------------------------------

/** Every version on either side, conflict copies included, and every version in the history, by content. */
async function everythingPresent(real: Real): Promise<Set<string>> {
  const [localPaths, remotePaths, kept] = await Promise.all([
    localFilesUnder(real, 'work'),
    real.world.remote.list(),
    filesUnder(join(dirname(real.stateFile), 'sync-history', 'objects')),
  ]);
  const texts = await Promise.all([
    ...localPaths.map((path) => readLocal(real, path)),
    ...remotePaths.map((path) => real.world.remote.read(path)),
    ...kept.map((file) => readFile(file, 'utf8').catch(() => undefined)),
  ]);
  return new Set(texts.filter((text): text is string => text !== undefined));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]),
    ),
  );
  return nested.flat();
}

async function assertNoVersionLost(m: Model, real: Real, after: string): Promise<void> {
  const present = await everythingPresent(real);
  const lost = [...m.versions]
    .filter(([content, v]) => !v.discarded && !present.has(content))
    .map(([content, v]) => `${v.side} ${v.path} "${content.slice(0, 12)}…"`);
  if (lost.length > 0) throw new Error(`after ${after}, versions lost: ${lost.join(', ')}`);
}

async function workFiles(real: Real, side: Side): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (side === 'local') {
    for (const path of await localFilesUnder(real, 'work')) {
      // Conflict copies (the model never names a file like one) and swap files stay local.
      if (isAlwaysIgnored(path) || looksLikeConflictCopy(path)) continue;
      out[path] = (await readLocal(real, path)) ?? '';
    }
  } else {
    const paths = await real.world.remote.list();
    const texts = await Promise.all(paths.map((path) => real.world.remote.read(path)));
    paths.forEach((path, i) => (out[path] = texts[i] ?? ''));
  }
  return out;
}

// --- Commands -------------------------------------------------------------------------------------

type LocalOp =
  { kind: 'write'; path: string; pad: number; editorSave: boolean } | { kind: 'delete'; path: string };
/** What lands while a cycle runs: the person's edit, or the agent's write. */
type DuringOp = LocalOp | { kind: 'agent-write'; path: string; pad: number };

function runLocalOp(m: Model, real: Real, op: DuringOp): Promise<void> {
  if (op.kind === 'agent-write') return remoteWrite(m, real, op.path, op.pad);
  return op.kind === 'write'
    ? localWrite(m, real, op.path, op.pad, op.editorSave)
    : localDelete(m, real, op.path);
}

function describeLocalOp(op: DuringOp): string {
  if (op.kind === 'agent-write') return `agent write ${op.path}`;
  return op.kind === 'write'
    ? `local write ${op.path} (${op.pad}${op.editorSave ? ', editor save' : ''})`
    : `local delete ${op.path}`;
}

type Cmd = fc.AsyncCommand<Model, Real>;

class LocalCommand implements Cmd {
  constructor(readonly op: LocalOp) {}
  check = () => true;
  run = (m: Model, r: Real) => runLocalOp(m, r, this.op);
  toString = () => describeLocalOp(this.op);
}

class RemoteWriteCommand implements Cmd {
  constructor(readonly path: string) {}
  check = () => true;
  run = (m: Model, r: Real) => remoteWrite(m, r, this.path);
  toString = () => `remote write ${this.path}`;
}

class RemoteDeleteCommand implements Cmd {
  constructor(readonly path: string) {}
  check = () => true;
  run = (m: Model, r: Real) => remoteDelete(m, r, this.path);
  toString = () => `remote delete ${this.path}`;
}

/** The local path of the workspace file a request names, if it names one. */
function workPathOf(url: string): string | undefined {
  const match = /\/files\/(.+)$/.exec(new URL(url).pathname);
  return match ? `work/${decodeURIComponent(match[1]!)}` : undefined;
}

/**
 * One sync cycle, at full concurrency. The person's save or the agent's write lands the moment
 * its Nth request goes out: on a file of the alphabet, or on the very file that request uploads
 * or downloads (a save during its download, an agent write between the listing and its upload).
 */
class CycleCommand implements Cmd {
  constructor(
    readonly during: { at: number; op: DuringOp; inFlight: boolean }[],
    /**
     * The fast path: only these paths, as the watcher names them (any hint must be safe); or
     * 'remote': the agent's side listed, and only what moved there planned (the poll's pass).
     */
    readonly named?: string[] | 'remote',
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    stats.cycles += 1;
    if (this.named) stats.fastPasses += 1;
    const pass = (engine: SyncEngine) =>
      this.named === 'remote'
        ? engine.syncRemote()
        : this.named
          ? engine.syncPaths(this.named)
          : engine.syncNow();
    if (this.during.length === 0) {
      noteStatus(await pass(r.current.engine));
    } else {
      const { net, engine } = r.current;
      for (const { at, op, inFlight } of this.during)
        net.hooks.set(net.requests + at, (url) => {
          stats.editsDuringCycles += 1;
          const path = inFlight ? (workPathOf(url) ?? op.path) : op.path;
          return runLocalOp(m, r, { ...op, path });
        });
      noteStatus(await pass(engine));
      net.hooks.clear();
      await Promise.all([...net.runningHooks]);
    }
    await assertNoVersionLost(m, r, this.toString());
  }
  toString = () =>
    (this.named === 'remote' ? 'remote pass ' : this.named ? `fast path [${this.named.join(', ')}] ` : '') +
    (this.during.length === 0
      ? 'sync'
      : `sync with ${this.during
          .map(
            (d) =>
              `[at request ${d.at}: ${describeLocalOp(d.op)}${d.inFlight ? ', or the file in flight' : ''}]`,
          )
          .join(' ')}`);
}

/** The sync process dies after N more requests (mid-cycle), and a new one starts on the same state. */
class CrashCommand implements Cmd {
  constructor(readonly afterRequests: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const old = r.current;
    old.net.crashAt = old.net.requests + this.afterRequests;
    // The moment it dies, its database is gone: nothing more is committed.
    old.net.onCrash = () => {
      stats.crashes += 1;
      old.store.close();
      old.lock.release(); // a dead process's lock is stale: the next one takes it over
    };
    await old.engine.syncNow().catch(() => undefined);
    old.net.dead = true;
    await old.engine.close().catch(() => undefined);
    try {
      old.store.close();
    } catch {
      // closed by the crash
    }
    old.lock.release();
    r.current = openIncarnation(r);
    await r.current.engine.start().catch(() => undefined);
    await assertNoVersionLost(m, r, this.toString());
  }
  toString = () => `crash after ${this.afterRequests} requests, restart`;
}

/**
 * The process dies in the middle of a local replace: the file stands moved aside (as
 * checked-replace.ts leaves it between its rename and its link). The restart puts it back.
 */
class CrashMidReplaceCommand implements Cmd {
  constructor(readonly path: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const absolute = join(r.root, this.path);
    const aside = join(dirname(absolute), `${tempFilePrefix}crashed.d`);
    if ((await lstat(absolute).catch(() => undefined))?.isFile()) {
      await mkdir(aside, { recursive: true });
      await rename(absolute, join(aside, this.path.split('/').pop()!));
    }
    const old = r.current;
    old.net.dead = true;
    stats.crashes += 1;
    await old.engine.close().catch(() => undefined);
    old.store.close();
    old.lock.release();
    r.current = openIncarnation(r);
    await r.current.engine.start().catch(() => undefined);
    await assertNoVersionLost(m, r, this.toString());
  }
  toString = () => `crash with ${this.path} moved aside mid-replace, restart`;
}

/** A second process (the app, or another terminal) tries the folder: it is told who holds it and changes nothing. */
class SecondProcessCommand implements Cmd {
  check = () => true;
  async run(_m: Model, r: Real) {
    expect(() => lockFolder(r.stateFile, r.root, 'a second process')).toThrow(FolderBusyError);
    stats.secondProcesses += 1;
  }
  toString = () => 'a second process tries the folder';
}

const faultTargets = {
  list: { method: 'GET', path: /\/files\/$/ },
  bundle: { method: 'GET', path: /\/bundle$/ },
  download: { method: 'GET', path: /\/files\/.+/ },
  upload: { method: 'PUT', path: /\/files\/.+/ },
  delete: { method: 'DELETE', path: /\/files\/.+/ },
} as const;
type FaultTarget = keyof typeof faultTargets;

type FaultKind = '503-retry-after' | '500' | 'drop' | 'truncate' | 'empty-listing';

function faultOf(kind: FaultKind): Fault {
  switch (kind) {
    case '503-retry-after':
      return { kind: 'status', status: 503, retryAfter: 1 };
    case '500':
      return { kind: 'status', status: 500, body: JSON.stringify({ error: 'interno', detalle: 'fault' }) };
    case 'drop':
      return { kind: 'drop' };
    case 'truncate':
      return { kind: 'truncate', keepBytes: 5 };
    case 'empty-listing':
      // With a base, the empty-listing guard holds; without one, uploads are conditional
      // (If-None-Match: *), so a file the listing hid is answered 412, never overwritten.
      return { kind: 'rewrite-json', rewrite: (body) => ({ ...(body as object), files: [] }) };
  }
}

class FaultCommand implements Cmd {
  constructor(
    readonly kind: FaultKind,
    readonly target: FaultTarget,
    readonly times: number,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real) {
    const target = this.kind === 'empty-listing' ? faultTargets.list : faultTargets[this.target];
    r.world.proxy.add({ ...target, fault: faultOf(this.kind), times: this.times });
  }
  toString = () =>
    `fault ${this.kind} on ${this.kind === 'empty-listing' ? 'list' : this.target} ×${this.times}`;
}

class ClearFaultsCommand implements Cmd {
  check = () => true;
  run = async (_m: Model, r: Real) => r.world.proxy.clear();
  toString = () => 'faults cleared';
}

/** The person settles one flagged conflict. */
class ResolveCommand implements Cmd {
  constructor(
    readonly pick: number,
    readonly choice: ConflictChoice,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const conflicts = r.current.engine.current.conflicts;
    if (conflicts.length === 0) return;
    const conflict = conflicts[this.pick % conflicts.length]!;
    await resolve(m, r, conflict.key, this.choice).catch(() => undefined);
    await assertNoVersionLost(m, r, this.toString());
  }
  toString = () => `resolve conflict #${this.pick}: keep ${this.choice}`;
}

async function resolve(m: Model, r: Real, key: string, choice: ConflictChoice): Promise<void> {
  const conflict = r.current.store.conflicts().find((c) => c.key === key);
  if (!conflict) return;
  await r.current.engine.resolveConflict(key, choice);
  // What the person dropped is not discarded in the model: it must be in the version history.
  if (!r.current.store.conflicts().some((c) => c.key === key)) stats.resolved += 1;
}

class ConfirmDeletesCommand implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    if (!r.current.engine.current.pendingDeletes) return;
    await r.current.engine.confirmDeletes();
    await assertNoVersionLost(m, r, this.toString());
  }
  toString = () => 'confirm mass deletion';
}

const conflictsSeen = new Set<string>();
function noteStatus(status: SyncStatus): void {
  for (const c of status.conflicts) conflictsSeen.add(`${runCount} ${c.key} ${c.at}`);
  stats.conflicts = conflictsSeen.size;
  if (status.failures.length > 0 || status.state === 'error') stats.failedCycles += 1;
  if (status.pendingDeletes) stats.massDeletePauses += 1;
}

const anyFile = fc.constantFrom(...filePaths);
const anyPath = fc.constantFrom<string>(...filePaths, ...folderPaths);
const localOp: fc.Arbitrary<LocalOp> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      path: anyFile,
      pad: fc.integer({ min: 0, max: 2 }),
      editorSave: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), path: anyPath }) },
);

const duringOp: fc.Arbitrary<DuringOp> = fc.oneof(
  { weight: 1, arbitrary: localOp },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('agent-write' as const),
      path: anyFile,
      pad: fc.integer({ min: 0, max: 2 }),
    }),
  },
);

const commandArbs: fc.Arbitrary<Cmd>[] = [
  localOp.map((op) => new LocalCommand(op)),
  localOp.map((op) => new LocalCommand(op)),
  anyFile.map((path) => new RemoteWriteCommand(path)),
  anyFile.map((path) => new RemoteWriteCommand(path)),
  anyPath.map((path) => new RemoteDeleteCommand(path)),
  fc.constant(new CycleCommand([])),
  fc.constant(new CycleCommand([])),
  fc
    .array(fc.record({ at: fc.integer({ min: 1, max: 6 }), op: duringOp, inFlight: fc.boolean() }), {
      minLength: 1,
      maxLength: 2,
    })
    .map((during) => new CycleCommand(during)),
  fc
    .array(fc.record({ at: fc.integer({ min: 1, max: 6 }), op: duringOp, inFlight: fc.boolean() }), {
      minLength: 1,
      maxLength: 2,
    })
    .map((during) => new CycleCommand(during)),
  // The fast path, named what the person just touched or anything else (the watcher is a hint),
  // with the person and the agent writing at the moment its requests go out.
  ...[0, 1, 2].map(() =>
    fc
      .tuple(
        fc.uniqueArray(anyPath, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ at: fc.integer({ min: 1, max: 4 }), op: duringOp, inFlight: fc.boolean() }), {
          maxLength: 2,
        }),
      )
      .map(([named, during]) => new CycleCommand(during, named)),
  ),
  fc
    .array(fc.record({ at: fc.integer({ min: 1, max: 4 }), op: duringOp, inFlight: fc.boolean() }), {
      maxLength: 2,
    })
    .map((during) => new CycleCommand(during, 'remote')),
  fc.integer({ min: 0, max: 8 }).map((n) => new CrashCommand(n)),
  anyFile.map((path) => new CrashMidReplaceCommand(path)),
  fc.constant(new SecondProcessCommand()),
  fc
    .tuple(
      fc.constantFrom<FaultKind>('503-retry-after', '500', 'drop', 'truncate', 'empty-listing'),
      fc.constantFrom<FaultTarget>('list', 'bundle', 'download', 'upload', 'delete'),
      fc.constantFrom(1, 2, 12),
    )
    .map(([kind, target, times]) => new FaultCommand(kind, target, times)),
  fc.constant(new ClearFaultsCommand()),
  fc
    .tuple(fc.nat(5), fc.constantFrom<ConflictChoice>('mine', 'theirs', 'both'))
    .map(([pick, choice]) => new ResolveCommand(pick, choice)),
  fc.constant(new ConfirmDeletesCommand()),
];

/** Faults off, cycles until nothing is left to do; conflicts are inspected, then kept both ways. */
async function quiesce(m: Model, r: Real): Promise<void> {
  r.world.proxy.clear();
  for (let round = 0; round < 12; round += 1) {
    const status = await r.current.engine.syncNow();
    noteStatus(status);
    if (status.pendingDeletes) {
      await r.current.engine.confirmDeletes();
      continue;
    }
    if (status.state === 'error' && /came back empty/.test(status.message ?? '')) {
      // The agent emptied its workspace; as the message asks, the person empties it here too.
      await localDelete(m, r, 'work');
      continue;
    }
    if (status.conflicts.length > 0) {
      await assertNoVersionLost(m, r, 'quiescence, before resolving conflicts');
      for (const conflict of status.conflicts) await resolve(m, r, conflict.key, 'both');
      continue;
    }
    if (status.state === 'idle' && status.total === 0 && status.failures.length === 0) return;
  }
  const status = r.current.engine.current;
  throw new Error(
    `did not settle: ${status.state} ${status.message ?? ''} (${status.total} actions, ${status.conflicts.length} conflicts)`,
  );
}

it(
  '28. randomized model: after any interleaving of edits, crashes and faults, both sides agree and no version is lost',
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs, { maxCommands, size: 'max' }), async (commands) => {
        const model: Model = { versions: new Map(), written: 0 };
        const real = await newRun();
        try {
          await fc.asyncModelRun(() => ({ model, real }), commands);
          stats.operations += [...commands].length;
          await quiesce(model, real);
          await assertNoVersionLost(model, real, 'quiescence');
          expect(await workFiles(real, 'local')).toEqual(await workFiles(real, 'remote'));
          expect(real.current.engine.current.conflicts).toEqual([]);
          const leftovers = (await localFilesUnder(real, 'work')).filter((p) =>
            p.split('/').pop()!.startsWith(tempFilePrefix),
          );
          expect(leftovers).toEqual([]);
        } finally {
          await endRun(real);
        }
      }),
      {
        seed,
        numRuns,
        endOnFailure: process.env.SYNC_MODEL_SHRINK !== '1',
        // Replays one run of the seed (fast-check's path: run N of the seed is "N-1").
        ...(process.env.SYNC_MODEL_PATH ? { path: process.env.SYNC_MODEL_PATH } : {}),
      },
    );
    console.log(`sync model: ${numRuns} runs, seed ${seed}: ${JSON.stringify(stats)}`);
  },
  timeoutMs,
);
