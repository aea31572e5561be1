/**
 * The local side's last-moment checks: a file to upload is read only once it settled and only if
 * it is still the planned version; a file about to be replaced must still hold its base.
 */
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { hashBytes, hashFile } from './file-hash';
import type { LocalEntry } from '../plan/sync-plan-types';
import type { SyncStateStore } from '../state/sync-state-store';
import { VersionMoved } from '../plan/version-moved';

/**
 * Reads a file to upload once it has settled (its mtime at least `settleMs` old), and only if it
 * is still the version the plan saw; a file that moved or vanished is re-planned. The scan's
 * `lstat` is the "before" of the read, and an `fstat` of the open file after both the read and
 * the settle time the "after": any write to it between them moves its mtime. A file renamed over
 * the path meanwhile is a newer version the next scan sees; the bytes read are still the planned
 * one, checked against the scan's hash where it took one. Open, read, fstat, close: the same
 * four calls a plain `readFile` makes.
 */
export async function readSettled(
  root: string,
  local: LocalEntry,
  settleMs: number,
): Promise<{ bytes: Buffer; mtimeMs: number; sha256: string }> {
  const handle = await open(join(root, local.path), 'r').catch(() => undefined);
  if (!handle) throw new VersionMoved();
  try {
    // Read while the settle time runs out, so only the fstat is left between its end and the upload.
    const bytes = await readUpTo(handle, local.size).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EISDIR') throw new VersionMoved(); // became a folder since the scan
      throw error;
    });
    // Capped, so a file dated in the future waits one settle time, not until its date.
    const wait = Math.min(settleMs, settleMs - (Date.now() - local.mtimeMs));
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const after = await handle.stat();
    // Still being written, or written since the plan: the next plan takes the newer version.
    if (after.size !== local.size || after.mtimeMs !== local.mtimeMs || bytes.length !== local.size)
      throw new VersionMoved();
    const sha256 = hashBytes(bytes);
    if (local.sha256 !== undefined && sha256 !== local.sha256) throw new VersionMoved();
    return { bytes, mtimeMs: after.mtimeMs, sha256 };
  } finally {
    await handle.close();
  }
}

/** The file's first `size` bytes, or more if it grew (one read, unless the system splits it). */
async function readUpTo(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
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
