/**
 * The settle time of a deletion. A removal in progress (`rm -r`, an archive tool, a build cleaning
 * up) reaches a sync in pieces when the machine is busy: a cycle that ran between them would carry
 * out the first part before the mass-delete guard could count the whole. Every unlink moves the
 * mtime of the folder it left, so a deletion waits until that folder (or, once it is gone, the
 * nearest folder still there) has held still; the scan after the wait sees the whole removal.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How long a folder holds still before the deletions made in it are carried out. */
export const deleteSettleDefaultMs = 500;

/** A folder written to without pause holds deletions back this long at most, not for ever. */
export const deletionWaitMaxMs = 3000;

/**
 * Waits until the folders the deleted `paths` (relative, '/'-separated) left have been still for
 * `settleMs`. Resolves true when it waited, so the caller looks at the folder again.
 */
export async function awaitDeletionsSettled(
  root: string,
  paths: readonly string[],
  settleMs: number,
  now: () => number = Date.now,
): Promise<boolean> {
  if (paths.length === 0 || settleMs <= 0) return false;
  const started = now();
  let waited = false;
  for (;;) {
    const newest = await newestFolderChange(root, paths);
    // Capped at one settle time, so a folder dated in the future waits once, not until its date.
    const wait = Math.min(settleMs, settleMs - (now() - newest), deletionWaitMaxMs - (now() - started));
    if (wait <= 0) return waited;
    await new Promise((resolve) => setTimeout(resolve, wait));
    waited = true;
  }
}

/** The newest mtime among the nearest existing folders of `paths`. */
async function newestFolderChange(root: string, paths: readonly string[]): Promise<number> {
  const seen = new Map<string, Promise<number>>();
  const changed = (dir: string): Promise<number> => {
    let known = seen.get(dir);
    if (!known) {
      known = stat(join(root, dir)).then(
        (info) => (info.isDirectory() ? info.mtimeMs : changed(parentOf(dir))),
        () => (dir === '' ? 0 : changed(parentOf(dir))),
      );
      seen.set(dir, known);
    }
    return known;
  };
  const times = await Promise.all([...new Set(paths.map(parentOf))].map(changed));
  return times.reduce((newest, time) => Math.max(newest, time), 0);
}

const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
