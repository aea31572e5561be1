/**
 * "I did not mean to delete those": when a sync holds many deletions of the agent's files because
 * they are gone from the folder, the person can have them back instead of confirming. Each path
 * of the base that is missing here is forgotten, so the next cycle sees it only on the agent's side
 * and downloads it. Nothing is deleted on either side.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncStateStore } from './sync-state-store';

/** Forgets the base of every path missing from the folder; returns how many. */
export async function forgetLocallyMissing(root: string, store: SyncStateStore): Promise<number> {
  let forgotten = 0;
  for (const [key, entry] of store.baseEntries()) {
    const there = await lstat(join(root, ...entry.path.split('/'))).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
    );
    if (there) continue;
    store.forgetBase(key);
    forgotten += 1;
  }
  store.flush();
  return forgotten;
}
