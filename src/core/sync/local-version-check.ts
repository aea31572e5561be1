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
 * Reads a file to upload once it has settled (size and mtime still for `settleMs`), and only if
 * it is still the version the plan saw; a file that moved or vanished is re-planned.
 */
export async function readSettled(
  root: string,
  local: LocalEntry,
  settleMs: number,
): Promise<{ bytes: Buffer; mtimeMs: number; sha256: string }> {
  const absolute = join(root, local.path);
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
