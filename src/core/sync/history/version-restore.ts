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
