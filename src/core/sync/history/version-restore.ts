import { join } from 'node:path';
import { writeFileAtomic } from '../local/atomic-write';
import { hashFile } from '../local/file-hash';
import type { VersionHistory, VersionRecord } from './version-history';

/**
 * Puts a kept version back at its path in the folder; the sync then sends it on like any edit.
 * The version it replaces is kept first, so a restore never loses anything either.
 */
export async function restoreKeptVersion(
  root: string,
  history: VersionHistory,
  version: VersionRecord,
): Promise<void> {
  const absolute = join(root, version.path);
  if (await hashFile(absolute).catch(() => undefined))
    await history.keepFile(version.path, absolute, 'local');
  await writeFileAtomic(root, version.path, await history.bytesOf(version));
}

/**
 * The version `restore` puts back: number `id` when given, else the newest one that differs from
 * the file now (undefined when there is none).
 */
export async function versionToRestore(
  root: string,
  history: VersionHistory,
  path: string,
  id?: number,
): Promise<VersionRecord | undefined> {
  const versions = history.list(path);
  if (id !== undefined) return versions.find((v) => v.id === id);
  const now = await hashFile(join(root, path)).catch(() => undefined);
  return versions.find((v) => v.sha256 !== now?.sha256);
}
