/**
 * Settles a flagged conflict the way the person chose:
 *   mine   — the local file (or its deletion) goes to the remote;
 *   theirs — the remote version replaces the local file;
 *   both   — the local file is kept under a new `.mine-` name, the remote version takes the path.
 * Invariant: only the version the person chose to drop is dropped. A remote version they have
 * not seen (the agent changed the file again after the copy was made) is never decided about:
 * it is saved as a new copy (the older copies stay) and the conflict stays open.
 */
import { lstat, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncConflictChoice } from '../../../shared/bridge';
import { writeFileAtomic } from '../local/atomic-write';
import { hashBytes } from '../local/file-hash';
import { freeName } from '../local/free-name';
import { RemoteError, RemoteMoved, type Expected, type RemoteSide } from '../plan/remote-side';
import { defaultRetry, withRetry, type RetryOptions } from './retry';
import type { Fingerprint, RemoteEntry } from '../plan/sync-plan-types';
import { conflictCopyName, pathKey } from '../plan/sync-paths';
import type { ConflictRecord, SyncStateStore } from '../state/sync-state-store';
import type { VersionHistory } from '../history/version-history';

export type ConflictChoice = SyncConflictChoice;

export interface ResolveDeps {
  root: string;
  remote: RemoteSide;
  store: SyncStateStore;
  trash: (absolutePath: string) => Promise<void>;
  expectWrite?: (path: string, fingerprint: Fingerprint) => void;
  retry?: RetryOptions;
  now?: () => Date;
  /** Every version the resolution drops is kept here first. */
  history: VersionHistory;
}

export type ResolveOutcome = { resolved: true } | { resolved: false; message: string };

export async function settleConflict(
  deps: ResolveDeps,
  conflict: ConflictRecord,
  choice: ConflictChoice,
): Promise<ResolveOutcome> {
  const { root, store } = deps;
  const local = await readLocalFile(root, conflict.path);
  const copy = await readLocalFile(root, conflict.remoteCopyPath);
  const read = await readRemote(deps, conflict);
  const theirsNow = read && read.bytes;
  // The person must have seen the version they decide about: when the agent changed the file
  // again, its newest version becomes a new copy first; older copies stay. A deleted copy is no
  // change of the agent's (deleting it is how people keep their own version).
  if (theirsNow && changedSinceCopy(deps, conflict, theirsNow, copy?.bytes)) {
    const at = (deps.now ?? (() => new Date()))();
    const fresh = await freeName(root, (n) => conflictCopyName(conflict.path, at, n));
    store.recordCopy(fresh, conflict.key);
    await writeFileAtomic(root, fresh, theirsNow);
    await deps.history.keepBytes(conflict.path, theirsNow, 'remote');
    store.flagConflict({ ...conflict, remoteCopyPath: fresh, at: Date.now() }, hashBytes(theirsNow));
    return {
      resolved: false,
      message: `The agent changed ${conflict.path} again; its newest version is now in ${fresh}. Choose again.`,
    };
  }
  if (choice === 'mine') {
    // Written only over the version just read: the agent's write landing meanwhile is not dropped.
    const expected: Expected = read === undefined ? undefined : read && read.entry;
    try {
      await keepMine(deps, conflict, local, expected);
    } catch (error) {
      if (!(error instanceof RemoteMoved)) throw error;
      return {
        resolved: false,
        message: `The agent changed ${conflict.path} again while it was being settled. Choose again.`,
      };
    }
  } else {
    // Their version: the copy beside the file or, with the copy gone, the remote's deletion.
    const theirs = copy ? copy.bytes : theirsNow;
    if (theirs === undefined) {
      return {
        resolved: false,
        message: `The copy of the agent's ${conflict.path} is gone and this server cannot send it again.`,
      };
    }
    if (choice === 'both' && local)
      await rename(join(root, conflict.path), join(root, await keptName(deps, conflict.path)));
    await keepTheirs(deps, conflict, theirs, {
      localStillThere: choice === 'theirs' && local !== undefined,
      remoteGone: theirsNow === null,
    });
  }
  store.clearConflict(conflict.key);
  // The copy's contents are in the history (kept when the copy was made).
  await rm(join(root, conflict.remoteCopyPath), { force: true });
  store.forgetCopy(conflict.remoteCopyPath);
  return { resolved: true };
}

async function keepMine(
  deps: ResolveDeps,
  conflict: ConflictRecord,
  local: LocalFile | undefined,
  /** The agent's version the person saw (null: none; undefined: this server cannot show it). */
  expected: Expected,
): Promise<void> {
  const { remote, store } = deps;
  const retry = deps.retry ?? defaultRetry;
  if (local) {
    await deps.history.keepBytes(conflict.path, local.bytes, 'local');
    const remoteNow = await withRetry(() => remote.write(conflict.path, local.bytes, expected), retry);
    await withRetry(() => remote.flush(), retry);
    store.commitBase(conflict.key, conflict.path, fingerprintOf(local.bytes), local.mtimeMs, remoteNow);
  } else {
    // The person deleted their file while the conflict was open: keeping "mine" is that deletion.
    if (expected !== null) await withRetry(() => remote.remove(conflict.path, expected), retry);
    await withRetry(() => remote.flush(), retry);
    store.forgetBase(conflict.key);
  }
}

async function keepTheirs(
  deps: ResolveDeps,
  conflict: ConflictRecord,
  theirs: Uint8Array | null,
  where: { localStillThere: boolean; remoteGone: boolean },
): Promise<void> {
  const { root, store } = deps;
  // The person's version leaves the folder: it is kept first.
  if (where.localStillThere) await deps.history.keepFile(conflict.path, join(root, conflict.path), 'local');
  if (theirs === null) {
    // The agent deleted the file: keeping theirs is that deletion (to the trash, like any local delete).
    if (where.localStillThere) await deps.trash(join(root, conflict.path));
    store.forgetBase(conflict.key);
    return;
  }
  const fingerprint = fingerprintOf(theirs);
  deps.expectWrite?.(conflict.path, fingerprint);
  const written = await writeFileAtomic(root, conflict.path, theirs);
  // The agent deleted the version the person chose since: with no base, it is uploaded again
  // as a new file rather than deleted here as "unchanged".
  if (where.remoteGone) store.forgetBase(conflict.key);
  else store.commitBase(conflict.key, conflict.path, fingerprint, written.mtimeMs);
}

interface LocalFile {
  bytes: Uint8Array;
  mtimeMs: number;
}

/** The file's bytes and its mtime taken before the read, or undefined when it is not a file. */
async function readLocalFile(root: string, path: string): Promise<LocalFile | undefined> {
  const info = await lstat(join(root, path)).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const bytes = await readFile(join(root, path)).catch(() => undefined);
  return bytes ? { bytes, mtimeMs: info.mtimeMs } : undefined;
}

/**
 * The remote bytes now and the listed entry they were checked against (a short download is
 * retried, never taken for a new version); null when the remote file is gone; undefined when
 * this server cannot send them.
 */
async function readRemote(
  deps: ResolveDeps,
  conflict: ConflictRecord,
): Promise<{ bytes: Uint8Array; entry: RemoteEntry } | null | undefined> {
  const { remote } = deps;
  if (!remote.canRead(conflict.path)) return undefined;
  return withRetry(async () => {
    const entry = (await remote.list()).find((e) => pathKey(e.path) === conflict.key);
    if (!entry) return confirmGone(remote, conflict.path);
    const bytes = await remote.read(entry.path);
    if (bytes.length !== entry.size)
      throw new RemoteError(`${conflict.path} arrived shorter than listed; it will be read again.`);
    return { bytes, entry };
  }, deps.retry ?? defaultRetry);
}

/** A listing without the file is only believed once reading the file itself says it is gone. */
async function confirmGone(remote: RemoteSide, path: string): Promise<null> {
  try {
    await remote.read(path);
  } catch (error) {
    if (error instanceof RemoteError && error.status === 404) return null;
    throw error;
  }
  throw new RemoteError(`The agent's listing left out ${path}, which is still there; it will be read again.`);
}

/** `notes.md` → `notes.mine-20261121-071500.md`, never the name of an existing file. */
function keptName(deps: ResolveDeps, path: string): Promise<string> {
  const at = (deps.now ?? (() => new Date()))();
  return freeName(deps.root, (n) => conflictCopyName(path, at, n, 'mine'));
}

function fingerprintOf(bytes: Uint8Array): Fingerprint {
  return { size: bytes.length, sha256: hashBytes(bytes) };
}

/**
 * Whether the agent's version now differs from the one its copy was made of: the version recorded
 * with the conflict, or (state from before that was recorded) the copy's bytes, or, the copy gone,
 * whether the history holds it (every copy's version was kept there when it was made).
 */
function changedSinceCopy(
  deps: ResolveDeps,
  conflict: ConflictRecord,
  theirsNow: Uint8Array,
  copy: Uint8Array | undefined,
): boolean {
  const now = hashBytes(theirsNow);
  const flaggedOn = deps.store.conflictTheirs(conflict.key) ?? (copy ? hashBytes(copy) : undefined);
  return flaggedOn ? flaggedOn !== now : !deps.history.holds(now);
}
