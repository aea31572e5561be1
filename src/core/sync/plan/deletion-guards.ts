/**
 * The guards that stand between a plan and a deletion: an empty listing is never a reason to
 * delete, and a plan that would delete too much pauses for the person.
 */
import type { MassDeletePause, PlanInput, SkippedPath, SyncAction, SyncPlan } from './sync-plan-types';

/** The guard: pause when a side would lose more than 20 files, or more than half of a side (3 or more). */
export const massDelete = { maxFiles: 20, maxShare: 0.5, minForShare: 3 } as const;

export function checkMassDelete(
  actions: readonly SyncAction[],
  input: PlanInput,
): MassDeletePause | undefined {
  const localTotal = input.local.length;
  const remoteTotal = input.remote.length;
  const localDeletes = actions.filter((a) => a.type === 'delete-local').length;
  const remoteDeletes = actions.filter((a) => a.type === 'delete-remote').length;
  const tooMany = (deletes: number, total: number) =>
    deletes > massDelete.maxFiles ||
    (deletes >= massDelete.minForShare && deletes > massDelete.maxShare * total);
  // A side's total is counted before the deletions, so "60% deleted" reads as 60%.
  if (tooMany(remoteDeletes, remoteTotal))
    return { side: 'remote', deletes: remoteDeletes, total: remoteTotal };
  if (tooMany(localDeletes, localTotal)) return { side: 'local', deletes: localDeletes, total: localTotal };
  return undefined;
}

/**
 * A listed group (e.g. `work/`) that came back empty while the base holds paths under it: the
 * cycle aborts, or, when the person removed those files here too, only their bases are forgotten.
 */
export function checkEmptyListing(
  input: PlanInput,
  local: ReadonlyMap<string, unknown>,
  skipped: SkippedPath[],
): SyncPlan | undefined {
  for (const group of input.listedGroups ?? ['']) {
    const inGroup = (path: string) => path.startsWith(group);
    if (input.remote.some((e) => inGroup(e.path))) continue;
    const synced = [...input.base].filter(([, e]) => inGroup(e.path));
    if (synced.length === 0) continue;
    const where = group ? ` for ${group}` : '';
    // An empty listing is never a reason to delete, nor to trust it with uploads. Once the
    // person removed those files here too, only their bases are forgotten, so the next
    // listing is read afresh (if the files were still there after all, they come back).
    if (synced.every(([key]) => !local.has(key))) {
      return { actions: synced.map(([key]) => ({ type: 'forget-base' as const, key })), skipped };
    }
    return {
      actions: [],
      skipped,
      abort: `The agent's listing${where} came back empty although files were synced before, so nothing was changed. If the files really were removed there, delete them here too.`,
    };
  }
  return undefined;
}
