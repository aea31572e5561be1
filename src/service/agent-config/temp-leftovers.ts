/**
 * What a killed service left in the folders it writes (issue 38): a temp file (write-atomically.ts) or a
 * skill's staging folder, each named exactly `tempName()`, anywhere under the agents' folders (workspace,
 * skills, bundle, machine config) and the file library. They are never listed, but they took space and
 * showed to anyone looking at the disk: the service removes them at start, before it answers. A skill swap
 * the kill cut between its renames gets its old skill back, as the skills' next look would do. A name that
 * merely looks like one (upper case, an extension, another length) is someone's file and stays.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isTempName } from '../workspace/workspace-paths';
import { isCutSwapName, recoverCutSwaps } from './skills-store';

export interface LeftoverOptions {
  /**
   * Leave alone what was written less than this long ago: with several processes on one data folder (a
   * cluster) another one may be writing it right now. 0 (one process): everything left is a leftover.
   */
  minAgeMs?: number;
  now?: number;
}

/** Removes the leftovers under `dataDir`'s agents and library folders; resolves to how many went. */
export async function clearTempLeftovers(dataDir: string, options: LeftoverOptions = {}): Promise<number> {
  const cutoff = (options.now ?? Date.now()) - (options.minAgeMs ?? 0);
  let removed = 0;
  const sweep = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    let cutSwap = false;
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      // Links are never followed: the agent writes its own workspace, and may point one anywhere.
      if (entry.isSymbolicLink()) continue;
      if (isTempName(entry.name) && (entry.isFile() || entry.isDirectory())) {
        if (options.minAgeMs && ((await lstat(full).catch(() => undefined))?.mtimeMs ?? 0) > cutoff) continue;
        await rm(full, { recursive: true, force: true });
        removed += 1;
      } else if (entry.isDirectory()) {
        if (isCutSwapName(entry.name)) cutSwap = true;
        else await sweep(full);
      }
    }
    // Another process of a cluster may be between its own two renames: its swap is left to the skills' look.
    if (cutSwap && !options.minAgeMs) await recoverCutSwaps(dir);
  };
  await sweep(path.join(dataDir, 'agents'));
  await sweep(path.join(dataDir, 'library'));
  return removed;
}
