/**
 * The guards that stand between a plan and a deletion: an empty listing is never a reason to
 * delete, and a plan that would delete too much pauses for the person.
 */
import type { MassDeletePause, PlanInput, SkippedPath, SyncAction, SyncPlan } from './sync-plan-types';

/**
 * The guard: pause when a side would lose more than 20 files, or more than half of a side (3 or more),
 * counting the deletes carried out there in the last minute (a folder deleted file by file is one removal).
 */
export const massDelete = { maxFiles: 20, maxShare: 0.5, minForShare: 3 } as const;

export function checkMassDelete(
  actions: readonly SyncAction[],
  input: PlanInput,
): MassDeletePause | undefined {
  const deletes = {
    local: actions.filter((a) => a.type === 'delete-local').length,
    remote: actions.filter((a) => a.type === 'delete-remote').length,
  };
  const totals = { local: input.local.length, remote: input.remote.length };
  for (const side of ['remote', 'local'] as const) {
    const recent = input.recentDeletes?.[side] ?? 0;
    // A side's total is counted before the deletions (the recent ones too), so "60% deleted" reads as 60%.
    const all = deletes[side] + recent;
    const tooMany =
      all > massDelete.maxFiles ||
      (all >= massDelete.minForShare && all > massDelete.maxShare * (totals[side] + recent));
    if (deletes[side] > 0 && tooMany)
      return { side, deletes: deletes[side], total: totals[side], ...(recent > 0 ? { recent } : {}) };
  }
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
