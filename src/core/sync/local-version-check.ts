/**
 * The local side's last-moment checks: a file to upload is read only once it settled and only if
 * it is still the planned version; a file about to be replaced must still hold its base.
 */
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { hashBytes, hashFile } from './file-hash';
import type { LocalEntry } from './sync-plan-types';
import type { SyncStateStore } from './sync-state-store';
import { VersionMoved } from './version-moved';

/**
 * Reads a file to upload once it has settled (its mtime at least `settleMs` old), and only if it
 * is still the version the plan saw; a file that moved or vanished is re-planned. The scan's
 * `lstat` is the "before" of the read and one `stat` after both the read and the settle time the
 * "after": any write between them moves the mtime, and the bytes are checked against the scan's
 * hash where it took one.
 */
export async function readSettled(
  root: string,
  local: LocalEntry,
  settleMs: number,
): Promise<{ bytes: Buffer; mtimeMs: number; sha256: string }> {
  const absolute = join(root, local.path);
  // The read runs while the settle time runs out, so only the "after" stat is left between the
  // end of the settle and the upload; a write during either moves the mtime and is caught below.
  const reading = readFile(absolute).catch(() => undefined);
  // Capped, so a file dated in the future waits one settle time, not until its date.
  const wait = Math.min(settleMs, settleMs - (Date.now() - local.mtimeMs));
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const bytes = await reading;
  const after = await stat(absolute).catch(() => undefined);
  if (!bytes || !after?.isFile()) throw new VersionMoved();
  // Still being written, or written since the plan: the next plan takes the newer version.
  if (after.size !== local.size || after.mtimeMs !== local.mtimeMs || bytes.length !== local.size)
    throw new VersionMoved();
  const sha256 = hashBytes(bytes);
  if (local.sha256 !== undefined && sha256 !== local.sha256) throw new VersionMoved();
  return { bytes, mtimeMs: after.mtimeMs, sha256 };
}

/** Whether the file at `absolute` still holds its base (the version the other side also has). */
export async function matchesBase(store: SyncStateStore, absolute: string, key: string): Promise<boolean> {
  const info = await lstat(absolute).catch(() => undefined);
  if (!info) return true;
  if (!info.isFile()) return false;
  const base = store.baseEntry(key);
  if (!base) return false; // appeared locally during the sync: compared next cycle
  if (info.size !== base.size) return false;
  if (info.mtimeMs === base.mtimeMs) return true;
  return (await hashFile(absolute)).sha256 === base.sha256;
}

/** Re-reads the local file so a compare uses what is on disk now. */
export async function currentLocal(root: string, local: LocalEntry) {
  const info = await stat(join(root, local.path)).catch(() => undefined);
  if (!info) return undefined;
  const hashed = await hashFile(join(root, local.path));
  return { size: hashed.size, sha256: hashed.sha256, mtimeMs: info.mtimeMs };
}
