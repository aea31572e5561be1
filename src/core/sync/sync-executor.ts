/**
 * Carries out a sync plan with bounded concurrency. Each path's base is
 * committed only after its operation is confirmed; a failure leaves that
 * path's base untouched so the next cycle tries again.
 *
 * Invariant: a local file is overwritten or trashed only if it still holds the
 * contents the plan saw; otherwise the path waits for the next cycle.
 */
import { lstat, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { resolveInsideRoot, writeFileAtomic } from './atomic-write';
import { hashBytes, hashFile } from './file-hash';
import { freeName } from './free-name';
import type { RemoteSide } from './remote-side';
import { withRetry, type RetryOptions, defaultRetry } from './retry';
import type { Fingerprint, LocalEntry, RemoteEntry, SyncAction } from './sync-planner';
import { conflictCopyName, pathKey } from './sync-paths';
import type { SyncStateStore } from './sync-state-store';

export interface ExecutorDeps {
  root: string;
  remote: RemoteSide;
  store: SyncStateStore;
  /** Moves a local file to the OS trash. */
  trash: (absolutePath: string) => Promise<void>;
  /** Records what the engine is about to write locally, so the watcher drops the echo. */
  expectWrite?: (path: string, fingerprint: Fingerprint) => void;
  now?: () => Date;
  concurrency?: number;
  retry?: RetryOptions;
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
}

/** Deletes go first so a file can become a folder (or back) within one cycle. */
const phaseOf = (action: SyncAction): number =>
  action.type === 'delete-remote' || action.type === 'delete-local' ? 0 : 1;

export async function executePlan(
  actions: readonly SyncAction[],
  deps: ExecutorDeps,
): Promise<ExecutionResult> {
  const limit = pLimit(deps.concurrency ?? 8);
  const result: ExecutionResult = { done: 0, failures: [], conflicts: [] };
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
            result.failures.push({ path, message: (error as Error).message });
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
  const { store, remote } = deps;
  switch (action.type) {
    case 'upload': {
      // mtime is taken before the read: an edit during the upload then shows as a change next cycle.
      const info = await stat(join(deps.root, action.local.path));
      const bytes = await readFile(join(deps.root, action.local.path));
      const fingerprint = { size: bytes.length, sha256: hashBytes(bytes) };
      const remotePath = action.path.normalize('NFC');
      await withRetry(() => remote.write(remotePath, bytes), retry);
      if (action.replacesRemotePath) await withRetry(() => remote.remove(action.replacesRemotePath!), retry);
      store.commitBase(action.key, action.local.path, fingerprint, info.mtimeMs);
      return false;
    }
    case 'download': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      const target = action.replacesLocalPath ?? action.path;
      await assertLocalUntouched(deps, target, action.key);
      return writeDownloaded(deps, action.key, action.remote, bytes, action.path, action.replacesLocalPath);
    }
    case 'delete-remote':
      await withRetry(() => remote.remove(action.path), retry);
      store.forgetBase(action.key);
      return false;
    case 'delete-local': {
      await assertLocalUntouched(deps, action.path, action.key);
      await deps.trash(await resolveInsideRoot(deps.root, action.path));
      store.forgetBase(action.key);
      return false;
    }
    case 'record-base':
      store.commitBase(action.key, action.path, action.entry, action.mtimeMs);
      return false;
    case 'forget-base':
      store.forgetBase(action.key);
      return false;
    case 'compare': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      const local = await currentLocal(deps, action.local);
      if (local && hashBytes(bytes) === local.sha256 && bytes.length === local.size) {
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
  const written = await writeFileAtomic(deps.root, path, bytes, remote.size);
  if (replacesLocalPath && pathKey(replacesLocalPath) === key && replacesLocalPath !== path) {
    // A case-only rename: on a case-insensitive disk the write above already replaced it.
    const old = await lstat(join(deps.root, replacesLocalPath)).catch(() => undefined);
    const fresh = await lstat(join(deps.root, path));
    if (old && old.ino !== fresh.ino) await rm(join(deps.root, replacesLocalPath));
  }
  deps.store.commitBase(key, path, fingerprint, written.mtimeMs);
  return false;
}

/** The remote version is saved beside the local file, local-only; the path is flagged. */
async function keepRemoteBeside(
  deps: ExecutorDeps,
  key: string,
  path: string,
  bytes: Uint8Array,
  remote: RemoteEntry,
) {
  const at = (deps.now ?? (() => new Date()))();
  const copy = await freeName(deps.root, (n) => conflictCopyName(path, at, n));
  await writeFileAtomic(deps.root, copy, bytes, remote.size);
  deps.store.flagConflict({ key, path, remoteCopyPath: copy, at: Date.now() });
}

/** Refuses to overwrite or trash a local file that changed since the base: that version exists nowhere else. */
async function assertLocalUntouched(deps: ExecutorDeps, path: string, key: string): Promise<void> {
  const info = await lstat(join(deps.root, path)).catch(() => undefined);
  // Nothing there, or a folder (an emptied one is replaced; a full one makes the write fail safely).
  if (!info || info.isDirectory()) return;
  const base = deps.store.baseEntry(key);
  if (!base) throw new Error(`${path} appeared locally during the sync; it will be compared next cycle.`);
  if (info.size === base.size && info.mtimeMs === base.mtimeMs) return;
  const hashed = await hashFile(join(deps.root, path));
  if (hashed.sha256 !== base.sha256)
    throw new Error(`${path} changed locally during the sync; it will be synced next cycle.`);
}

/** Re-reads the local file so a compare uses what is on disk now. */
async function currentLocal(deps: ExecutorDeps, local: LocalEntry) {
  const info = await stat(join(deps.root, local.path)).catch(() => undefined);
  if (!info) return undefined;
  const hashed = await hashFile(join(deps.root, local.path));
  return { size: hashed.size, sha256: hashed.sha256, mtimeMs: info.mtimeMs };
}
