/**
 * The agent's side moved (the poll saw its listing change, a turn ended, a tool named a path):
 * list it, and plan only the paths whose listing differs from their base, each against its local
 * file alone (path-sync.ts). The folder's own changes reach the engine through the watcher, so
 * nothing walks the folder: the cost is one listing, not the folder. Our own uploads change the
 * listing too; they match their new bases and cost nothing more.
 * After the poll's look, the listing it got is planned from (one listing per change, not two).
 * Paths whose bases changed after the look began (a save synced meanwhile) are left out: that
 * listing may predate them. The look's version is known now, so a later move of theirs shows.
 * What the listing alone cannot decide goes to a full cycle: a failed listing, a group that came
 * back empty while the base holds files in it, a name spelled differently than its base, or more
 * changed paths than one batch takes.
 */
import { loadIgnoreRules } from '../local/local-scanner';
import { classifyRemote } from '../plan/change-classification';
import { screenRemotePaths } from '../plan/remote-screen';
import { pathKey } from '../plan/sync-paths';
import type { RemoteEntry } from '../plan/sync-plan-types';
import { fastPathLimit, syncPaths, type PathSyncOutcome } from './path-sync';
import { listRemote, type CycleContext } from './sync-cycle';

/** The poll's looks, for the pass that follows one: the bases' change count when a look that saw a change began. */
export class LookMarks {
  private mark: number | undefined;

  constructor(private readonly sides: Pick<CycleContext['options'], 'store' | 'remote'>) {}

  /** Whether the remote moved (`RemoteSide.hasChanged`); one that did is marked. */
  async look(): Promise<boolean> {
    const mark = this.sides.store.changes.count;
    const changed = await this.sides.remote.hasChanged!();
    this.mark = changed ? mark : undefined;
    return changed;
  }

  /** The mark of the look the next pass may plan from, taken once. */
  take(): number | undefined {
    const mark = this.mark;
    this.mark = undefined;
    return mark;
  }

  /** News came after the last look (a turn's hint): the next pass lists afresh. */
  forget(): void {
    this.mark = undefined;
  }
}

/** The pass's listing: the look's, with the paths settled since that look began, else a fresh one. */
async function passListing(
  ctx: CycleContext,
  lookedSince: number | undefined,
): Promise<{ ok: true; listing: RemoteEntry[]; settledMeanwhile: ReadonlySet<string> } | { ok: false }> {
  const { store, remote } = ctx.options;
  const settledMeanwhile = lookedSince === undefined ? undefined : store.changes.since(lookedSince);
  if (settledMeanwhile && remote.listLooked) {
    const looked = await listRemote(ctx, () => remote.listLooked!());
    if (looked.ok && looked.listing) return { ok: true, listing: looked.listing, settledMeanwhile };
  }
  const listed = await listRemote(ctx);
  return listed.ok ? { ...listed, settledMeanwhile: new Set() } : listed;
}

export async function syncRemoteChanges(ctx: CycleContext, lookedSince?: number): Promise<PathSyncOutcome> {
  const { store, remote, root } = ctx.options;
  const before = ctx.status();
  if (before.unreachable || (before.state === 'error' && before.failures.length === 0)) return 'full';
  const listed = await passListing(ctx, lookedSince);
  if (!listed.ok) return 'full'; // the full cycle lists again, and says why it could not
  const { settledMeanwhile } = listed;
  const { accepted, refused } = screenRemotePaths(
    listed.listing,
    await loadIgnoreRules(root),
    store.copies(),
  );
  const base = store.baseEntries();
  for (const group of remote.listedGroups) {
    const empty = !accepted.some((entry) => entry.path.startsWith(group));
    if (empty && [...base.values()].some((entry) => entry.path.startsWith(group))) return 'full';
  }
  // Names the agent's side holds in a form refused here stay as the last full cycle reported them.
  const refusedKeys = new Set(refused.map((skip) => pathKey(skip.path)));
  const changed = new Map<string, RemoteEntry | undefined>();
  for (const entry of accepted) {
    const key = pathKey(entry.path);
    const known = base.get(key);
    if (refusedKeys.has(key) || settledMeanwhile.has(key)) continue;
    if (known && known.path.normalize('NFC') !== entry.path.normalize('NFC')) return 'full';
    if (!known || classifyRemote(known, entry) !== 'unchanged') changed.set(key, entry);
  }
  const listedKeys = new Set(accepted.map((entry) => pathKey(entry.path)));
  for (const key of base.keys())
    if (!listedKeys.has(key) && !refusedKeys.has(key) && !settledMeanwhile.has(key))
      changed.set(key, undefined);
  if (changed.size === 0) {
    ctx.update({ lastSyncAt: Date.now() });
    return 'done';
  }
  if (changed.size > fastPathLimit) return 'full';
  const paths = [...changed].map(([key, entry]) => base.get(key)?.path ?? entry!.path);
  return syncPaths(ctx, paths, changed);
}
