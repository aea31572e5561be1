/**
 * Carries out a sync plan with bounded concurrency. Each path's base is
 * committed only after its operation is confirmed; a failure leaves that
 * path's base untouched so the next cycle tries again.
 *
 * Invariants:
 * - a version is overwritten or deleted, on either side, only if it is still the version the
 *   plan saw (checked at the last moment: checked-replace.ts locally, a conditional write
 *   remotely), and only once it is kept in the version history;
 * - a path whose version moved under the plan is "moved": re-planned at once, never an error.
 */
import { link, lstat, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from './atomic-write';
import { replaceChecked } from './checked-replace';
import { hashBytes, hashFile } from './file-hash';
import { freeName } from './free-name';
import { RemoteError, type RemoteSide } from './remote-side';
import { withRetry, type RetryOptions, defaultRetry } from './retry';
import type { Fingerprint, LocalEntry, RemoteEntry, SyncAction } from './sync-planner';
import { conflictCopyName, pathKey } from './sync-paths';
import type { SyncStateStore } from './sync-state-store';
import type { VersionHistory } from './version-history';

export interface ExecutorDeps {
  root: string;
  remote: RemoteSide;
  store: SyncStateStore;
  history: VersionHistory;
  /** Moves a local file to the OS trash. */
  trash: (absolutePath: string) => Promise<void>;
  /** Records what the engine is about to write locally, so the watcher drops the echo. */
  expectWrite?: (path: string, fingerprint: Fingerprint) => void;
  now?: () => Date;
  concurrency?: number;
  retry?: RetryOptions;
  /** A changed file is uploaded only once its size and mtime held still this long. */
  settleMs?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ActionFailure {
  path: string;
  message: string;
}

export interface ExecutionResult {
  done: number;
  failures: ActionFailure[];
  conflicts: string[];
  /** Paths whose version moved during the cycle (an edit, a vanished file): re-plan them. */
  moved: string[];
}

/** A version moved between the plan and the operation: the path is re-planned, not failed. */
export class VersionMoved extends Error {}

/** Deletes go first so a file can become a folder (or back) within one cycle. */
const phaseOf = (action: SyncAction): number =>
  action.type === 'delete-remote' || action.type === 'delete-local' ? 0 : 1;

export async function executePlan(
  actions: readonly SyncAction[],
  deps: ExecutorDeps,
): Promise<ExecutionResult> {
  const limit = pLimit(deps.concurrency ?? 8);
  const result: ExecutionResult = { done: 0, failures: [], conflicts: [], moved: [] };
  const total = actions.length;
  deps.onProgress?.(0, total);
  for (const phase of [0, 1]) {
    const inPhase = actions.filter((action) => phaseOf(action) === phase);
    await Promise.all(
      inPhase.map((action) =>
        limit(async () => {
          try {
            const conflicted = await runAction(action, deps);
            if (conflicted) result.conflicts.push(action.type === 'forget-base' ? action.key : action.path);
          } catch (error) {
            const path = action.type === 'forget-base' ? action.key : action.path;
            if (isMoved(error)) result.moved.push(path);
            else result.failures.push({ path, message: (error as Error).message });
          }
          result.done += 1;
          deps.onProgress?.(result.done, total);
        }),
      ),
    );
  }
  await withRetry(() => deps.remote.flush(), deps.retry ?? defaultRetry).catch((error: Error) =>
    result.failures.push({ path: '', message: error.message }),
  );
  return result;
}

/** Runs one action; resolves true when it ended in a flagged conflict. */
async function runAction(action: SyncAction, deps: ExecutorDeps): Promise<boolean> {
  const retry = deps.retry ?? defaultRetry;
  const { store, remote, history } = deps;
  switch (action.type) {
    case 'upload': {
      const { bytes, mtimeMs, sha256 } = await readSettled(deps, action.local);
      const fingerprint = { size: bytes.length, sha256 };
      const remotePath = action.path.normalize('NFC');
      await keepRemoteVersion(deps, action.remote);
      const remoteNow = await withRetry(() => remote.write(remotePath, bytes, action.remote ?? null), retry);
      if (action.replacesRemotePath) await withRetry(() => remote.remove(action.replacesRemotePath!), retry);
      if (replacesSynced(deps, action.key))
        await history.keepBytes(action.local.path, bytes, 'local', fingerprint.sha256);
      store.commitBase(action.key, action.local.path, fingerprint, mtimeMs, remoteNow);
      return false;
    }
    case 'download': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      if (
        action.replacesLocalPath &&
        !(await matchesBase(deps, join(deps.root, action.replacesLocalPath), action.key))
      )
        throw new VersionMoved();
      return writeDownloaded(deps, action.key, action.remote, bytes, action.path, action.replacesLocalPath);
    }
    case 'delete-remote':
      await keepRemoteVersion(deps, action.remote);
      await withRetry(() => remote.remove(action.path, action.remote), retry);
      store.forgetBase(action.key);
      return false;
    case 'delete-local': {
      const outcome = await replaceChecked({
        root: deps.root,
        path: action.path,
        bytes: null,
        expect: async (current) => !current || (await matchesBase(deps, current, action.key)),
        keep: (absolute) => history.keepFile(action.path, absolute, 'local'),
        dispose: (aside) => trashFromItsPlace(deps, aside, action.path),
      });
      if (!outcome.replaced) throw new VersionMoved();
      store.forgetBase(action.key);
      return false;
    }
    case 'record-base':
      store.commitBase(action.key, action.path, action.entry, action.mtimeMs, action.remote);
      return false;
    case 'forget-base':
      store.forgetBase(action.key);
      return false;
    case 'compare': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      const local = await currentLocal(deps, action.local);
      if (local && hashBytes(bytes) === local.sha256 && bytes.length === local.size) {
        await history.keepBytes(action.local.path, bytes, 'remote');
        store.commitBase(action.key, action.local.path, local, local.mtimeMs);
        return false;
      }
      await keepRemoteBeside(deps, action.key, action.local.path, bytes, action.remote);
      return true;
    }
    case 'conflict': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      await keepRemoteBeside(deps, action.key, action.local?.path ?? action.path, bytes, action.remote);
      return true;
    }
  }
}

async function writeDownloaded(
  deps: ExecutorDeps,
  key: string,
  remote: RemoteEntry,
  bytes: Uint8Array,
  path: string,
  replacesLocalPath: string | undefined,
): Promise<false> {
  const fingerprint = { size: bytes.length, sha256: hashBytes(bytes) };
  deps.expectWrite?.(path, fingerprint);
  const outcome = await replaceChecked({
    root: deps.root,
    path,
    bytes,
    expectedSize: remote.size,
    // Nothing there, or the version the base holds: anything else is the person's newer edit.
    expect: async (current) => !current || (await matchesBase(deps, current, key)),
    keep: (absolute) => deps.history.keepFile(path, absolute, 'local'),
  });
  if (!outcome.replaced) throw new VersionMoved();
  if (replacesLocalPath && pathKey(replacesLocalPath) === key && replacesLocalPath !== path) {
    // A case-only rename: on a case-insensitive disk the write above already replaced it.
    const old = await lstat(join(deps.root, replacesLocalPath)).catch(() => undefined);
    const fresh = await lstat(join(deps.root, path));
    if (old && old.ino !== fresh.ino) await rm(join(deps.root, replacesLocalPath));
  }
  if (replacesSynced(deps, key)) await deps.history.keepBytes(path, bytes, 'remote', fingerprint.sha256);
  deps.store.commitBase(key, path, fingerprint, outcome.mtimeMs);
  return false;
}

/** The remote version is saved beside the local file, local-only and recorded as the engine's copy; the path is flagged. */
async function keepRemoteBeside(
  deps: ExecutorDeps,
  key: string,
  path: string,
  bytes: Uint8Array,
  remote: RemoteEntry,
) {
  const at = (deps.now ?? (() => new Date()))();
  const copy = await freeName(deps.root, (n) => conflictCopyName(path, at, n));
  deps.store.recordCopy(copy, key); // before it exists, so no scan ever takes it for the person's file
  await writeFileAtomic(deps.root, copy, bytes, remote.size);
  await deps.history.keepBytes(path, bytes, 'remote');
  deps.store.flagConflict({ key, path, remoteCopyPath: copy, at: Date.now() });
}

/**
 * Whether a transfer replaces a version synced before. Only those are recorded as they are
 * committed (the next edit will replace them, and finds them kept). A first transfer (a first
 * sync of 2,000 files) records nothing: the version stays on both sides, and whatever replaces
 * it later keeps it first (the local file from its moved-aside copy, the remote one read back).
 */
function replacesSynced(deps: ExecutorDeps, key: string): boolean {
  return deps.store.baseEntry(key) !== undefined;
}

/**
 * Before the remote version is replaced or deleted, it is kept in the history. Usually it is
 * already there (every synced version is); otherwise it is read first, where the server can send it.
 */
async function keepRemoteVersion(deps: ExecutorDeps, entry: RemoteEntry | undefined): Promise<void> {
  if (!entry || (entry.sha256 && deps.history.holds(entry.sha256))) return;
  if (!deps.remote.canRead(entry.path)) return;
  const bytes = await withRetry(() => deps.remote.read(entry.path), deps.retry ?? defaultRetry).catch(
    (error: unknown) => {
      if (error instanceof RemoteError && error.status === 404) return undefined; // gone already
      throw error;
    },
  );
  if (bytes) await deps.history.keepBytes(entry.path, bytes, 'remote');
}

/**
 * Reads a file to upload once it has settled (size and mtime still for `settleMs`), and only if
 * it is still the version the plan saw; a file that moved or vanished is re-planned.
 */
async function readSettled(
  deps: ExecutorDeps,
  local: LocalEntry,
): Promise<{ bytes: Buffer; mtimeMs: number; sha256: string }> {
  const absolute = join(deps.root, local.path);
  const settleMs = deps.settleMs ?? 0;
  for (let tries = 0; ; tries += 1) {
    const before = await stat(absolute).catch(() => undefined);
    if (!before?.isFile()) throw new VersionMoved();
    const age = Date.now() - before.mtimeMs;
    if (age < settleMs) {
      if (tries >= 20) throw new VersionMoved(); // still being written: the next cycle looks again
      await new Promise((resolve) => setTimeout(resolve, settleMs - age));
      continue;
    }
    const bytes = await readFile(absolute).catch(() => undefined);
    const after = await stat(absolute).catch(() => undefined);
    if (!bytes || !after || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      if (tries >= 20) throw new VersionMoved();
      continue;
    }
    // The planner decided on the version it saw (its size and mtime, hashed by the scan): a file
    // that moved since is re-planned, never sent as the planned version.
    if (before.size !== local.size || before.mtimeMs !== local.mtimeMs) throw new VersionMoved();
    return { bytes, mtimeMs: before.mtimeMs, sha256: local.sha256 ?? hashBytes(bytes) };
  }
}

/**
 * The checked file goes back to its own path and to the trash from there, so the trash can put
 * it back where it was. If the person saved a new file at the path meanwhile, theirs stays (the
 * old version is in the history already) and the next cycle uploads it.
 */
async function trashFromItsPlace(deps: ExecutorDeps, aside: string, path: string): Promise<void> {
  const target = join(deps.root, path);
  try {
    await link(aside, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    return deps.trash(aside); // no hard links here: the trash takes it from beside
  }
  await deps.trash(target);
}

/** Whether the file at `absolute` still holds its base (the version the other side also has). */
async function matchesBase(deps: ExecutorDeps, absolute: string, key: string): Promise<boolean> {
  const info = await lstat(absolute).catch(() => undefined);
  if (!info) return true;
  if (!info.isFile()) return false;
  const base = deps.store.baseEntry(key);
  if (!base) return false; // appeared locally during the sync: compared next cycle
  if (info.size !== base.size) return false;
  if (info.mtimeMs === base.mtimeMs) return true;
  return (await hashFile(absolute)).sha256 === base.sha256;
}

/** Re-reads the local file so a compare uses what is on disk now. */
async function currentLocal(deps: ExecutorDeps, local: LocalEntry) {
  const info = await stat(join(deps.root, local.path)).catch(() => undefined);
  if (!info) return undefined;
  const hashed = await hashFile(join(deps.root, local.path));
  return { size: hashed.size, sha256: hashed.sha256, mtimeMs: info.mtimeMs };
}

function isMoved(error: unknown): boolean {
  if (error instanceof VersionMoved) return true;
  if (error instanceof RemoteError && error.status === 412) return true;
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
