/**
 * "I did not mean to delete those": when a sync holds many deletions of the agent's files because
 * they are gone from the folder, the person can have them back instead of confirming. Each path
 * of the base that is missing here is forgotten, so the next cycle sees it only on the agent's side
 * and downloads it. Nothing is deleted on either side.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncStateStore } from '../state/sync-state-store';

/**
 * Forgets the base of every path missing from the folder; returns how many. All are forgotten at
 * once, after every path was looked at: a cycle reading the base between two forgets would see a
 * few paths forgotten and the rest still deleted locally, too few to be held, and delete those on
 * the agent's side.
 */
export async function forgetLocallyMissing(root: string, store: SyncStateStore): Promise<number> {
  const missing: string[] = [];
  for (const [key, entry] of store.baseEntries()) {
    const there = await lstat(join(root, ...entry.path.split('/'))).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
    );
    if (!there) missing.push(key);
  }
  for (const key of missing) store.forgetBase(key);
  store.flush();
  return missing.length;
}
