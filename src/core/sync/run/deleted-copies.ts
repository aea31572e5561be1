/**
 * A conflict whose copy the person deleted is settled as "keep mine", as Dropbox and Syncthing
 * users expect: their file goes to the agent (or their deletion, if they deleted both), the
 * agent's version stays in the version history (kept when the copy was made). Only when the agent
 * has not changed the file since the copy: otherwise its newest version becomes a new copy.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { settleConflict, type ResolveDeps } from './conflict-resolution';
import type { SyncStateStore } from '../state/sync-state-store';

/** What happened to each conflict whose copy was gone, in plain words for the person. */
export async function settleDeletedCopies(deps: ResolveDeps, store: SyncStateStore): Promise<string[]> {
  const said: string[] = [];
  for (const conflict of store.conflicts()) {
    const copy = await lstat(join(deps.root, conflict.remoteCopyPath)).catch(() => undefined);
    if (copy) continue;
    const outcome = await settleConflict(deps, conflict, 'mine');
    said.push(
      outcome.resolved
        ? `Resolved ${conflict.path}: kept mine, because the agent's copy (${conflict.remoteCopyPath}) was deleted. The agent's version is in the version history.`
        : outcome.message,
    );
  }
  return said;
}
