/**
 * Runs one action of a sync plan. Each path's base is committed only after its operation is
 * confirmed; a version is replaced or deleted, on either side, only once it is kept in the
 * version history and only if it is still the version the plan saw.
 */
import { link, lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../local/atomic-write';
import { replaceChecked } from '../local/checked-replace';
import { hashBytes } from '../local/file-hash';
import { freeName } from '../local/free-name';
import { currentLocal, matchesBase, readSettled } from '../local/local-version-check';
import { RemoteError, type RemoteSide } from '../plan/remote-side';
import { withRetry, type RetryOptions, defaultRetry } from './retry';
import type { Fingerprint, RemoteEntry, SyncAction } from '../plan/sync-plan-types';
import { conflictCopyName, pathKey } from '../plan/sync-paths';
import type { SyncStateStore } from '../state/sync-state-store';
import type { VersionHistory } from '../history/version-history';
import { VersionMoved } from '../plan/version-moved';

/** What an action needs: both sides, the state, the history. */
export interface ActionDeps {
  root: string;
  remote: RemoteSide;
  store: SyncStateStore;
  history: VersionHistory;
  /** Moves a local file to the OS trash. */
  trash: (absolutePath: string) => Promise<void>;
  /** Records what the engine is about to write locally, so the watcher drops the echo. */
  expectWrite?: (path: string, fingerprint: Fingerprint) => void;
  now?: () => Date;
  retry?: RetryOptions;
  /** A changed file is uploaded only once its size and mtime held still this long. */
  settleMs?: number;
}

/** Runs one action; resolves true when it ended in a flagged conflict. */
export async function runAction(action: SyncAction, deps: ActionDeps): Promise<boolean> {
  const retry = deps.retry ?? defaultRetry;
  const { store, remote, history } = deps;
  switch (action.type) {
    case 'upload': {
      const { bytes, mtimeMs, sha256 } = await readSettled(deps.root, action.local, deps.settleMs ?? 0);
      const fingerprint = { size: bytes.length, sha256 };
      const remotePath = action.path.normalize('NFC');
      await keepRemoteVersion(deps, action.remote);
      const remoteNow = await withRetry(() => remote.write(remotePath, bytes, action.remote ?? null), retry);
      const replaced = action.replacesRemote;
      if (replaced) {
        // Only the version the plan saw: the agent's write under the old spelling meanwhile stays.
        await keepRemoteVersion(deps, replaced);
        await withRetry(() => remote.remove(replaced.path, replaced), retry);
      }
      if (replacesSynced(deps, action.key))
        await history.keepBytes(action.local.path, bytes, 'local', fingerprint.sha256);
      store.commitBase(action.key, action.local.path, fingerprint, mtimeMs, remoteNow);
      return false;
    }
    case 'download': {
      const bytes = await withRetry(() => remote.read(action.remote.path), retry);
      if (
        action.replacesLocalPath &&
        !(await matchesBase(deps.store, join(deps.root, action.replacesLocalPath), action.key))
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
        expect: async (current) => !current || (await matchesBase(deps.store, current, action.key)),
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
      const local = await currentLocal(deps.root, action.local);
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
  deps: ActionDeps,
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
    expect: async (current) => !current || (await matchesBase(deps.store, current, key)),
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
  deps: ActionDeps,
  key: string,
  path: string,
  bytes: Uint8Array,
  remote: RemoteEntry,
) {
  const at = (deps.now ?? (() => new Date()))();
  const copy = await freeName(deps.root, (n) => conflictCopyName(path, at, n));
  deps.store.recordCopy(copy, key); // before it exists, so no scan ever takes it for the person's file
  await writeFileAtomic(deps.root, copy, bytes, remote.size);
  const sha256 = hashBytes(bytes);
  await deps.history.keepBytes(path, bytes, 'remote', sha256);
  deps.store.flagConflict({ key, path, remoteCopyPath: copy, at: Date.now() }, sha256);
}

/**
 * Whether a transfer replaces a version synced before. Only those are recorded as they are
 * committed (the next edit will replace them, and finds them kept). A first transfer (a first
 * sync of 2,000 files) records nothing: the version stays on both sides, and whatever replaces
 * it later keeps it first (the local file from its moved-aside copy, the remote one read back).
 */
function replacesSynced(deps: ActionDeps, key: string): boolean {
  return deps.store.baseEntry(key) !== undefined;
}

/**
 * Before the remote version is replaced or deleted, it is kept in the history. Usually it is
 * already there (every synced version is); otherwise it is read first, where the server can send it.
 */
async function keepRemoteVersion(deps: ActionDeps, entry: RemoteEntry | undefined): Promise<void> {
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
 * The checked file goes back to its own path and to the trash from there, so the trash can put
 * it back where it was. If the person saved a new file at the path meanwhile, theirs stays (the
 * old version is in the history already) and the next cycle uploads it.
 */
async function trashFromItsPlace(deps: ActionDeps, aside: string, path: string): Promise<void> {
  const target = join(deps.root, path);
  try {
    await link(aside, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    return deps.trash(aside); // no hard links here: the trash takes it from beside
  }
  await deps.trash(target);
}
