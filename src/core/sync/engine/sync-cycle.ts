/**
 * One sync cycle of a folder: check the root marker, list the remote, scan the folder, plan, run
 * the plan, and report. The engine runs these one at a time.
 */
import type { SyncStatus } from '../../../shared/bridge';
import type { ResolveDeps } from '../run/conflict-resolution';
import { settleDeletedCopies } from '../run/deleted-copies';
import { awaitDeletionsSettled, deleteSettleDefaultMs } from '../local/deletion-settle';
import { loadIgnoreRules, scanLocal } from '../local/local-scanner';
import { screenRemotePaths } from '../plan/remote-screen';
import { RemoteError, type RemoteSide } from '../plan/remote-side';
import { defaultRetry, withRetry, type RetryOptions } from '../run/retry';
import { ensureRootMarker } from '../state/root-marker';
import { executePlan, type ExecutionResult } from '../run/sync-executor';
import type {
  Fingerprint,
  LocalEntry,
  RemoteEntry,
  SkippedPath,
  SyncAction,
  SyncPlan,
} from '../plan/sync-plan-types';
import { planSync } from '../plan/sync-planner';
import { pathKey } from '../plan/sync-paths';
import type { RecentDeletions } from './recent-deletions';
import { sayDiskFull } from './disk-full-pause';
import { withNotice } from './sync-notices';
import { massDeleteWords } from '../../../shared/words/mass-delete-words';
import { serverUnreachableWords } from '../../../shared/words/unreachable-words';
import { screenUnchecked, uncheckedNoticeId, uncheckedWords } from '../plan/unchecked-overwrites';
import type { SyncStateStore } from '../state/sync-state-store';
import type { VersionHistory } from '../history/version-history';

/** What a cycle needs of the engine's options. */
export interface CycleOptions {
  root: string;
  agentId: string;
  remote: RemoteSide;
  store: SyncStateStore;
  trash: (absolutePath: string) => Promise<void>;
  /** A changed local file is uploaded only once its size and mtime held still this long. */
  settleMs?: number;
  /** A file deleted here is deleted on the agent's side once the folder it left held still this long (`deleteSettleDefaultMs`). */
  deleteSettleMs?: number;
  /**
   * Hold writes over agent-side files whose changes this server cannot show (no checksum, no byte
   * route), listed as not synced, instead of saying once that they go unchecked.
   */
  holdUnchecked?: boolean;
  concurrency?: number;
  retry?: RetryOptions;
  now?: () => Date;
}

export interface CycleContext {
  options: CycleOptions;
  history: VersionHistory;
  status: () => SyncStatus;
  update: (change: Partial<SyncStatus>) => void;
  /** Records what the engine is about to write locally, so the watcher drops the echo. */
  expectWrite: (path: string, fingerprint: Fingerprint) => void;
  /** Whether the person confirmed the pending mass deletion. */
  deletesConfirmed: () => boolean;
  /** The plan ran: a confirmation applies to one cycle only. */
  consumeConfirmation: () => void;
  /** The deletes carried out lately, which the mass-delete guard counts with a plan's. */
  deletions: RecentDeletions;
  /** The person's pause holds. */
  paused: () => boolean;
}

/** Runs one cycle; resolves true when some path moved under it and should be planned again. */
export async function runCycle(ctx: CycleContext): Promise<boolean> {
  const { store, remote, root, agentId } = ctx.options;
  const marker = await ensureRootMarker(root, agentId, !store.hasBase(), store.file);
  if (!marker.ok) {
    ctx.update({ state: 'error', message: marker.message });
    return false;
  }
  // A conflict copy the person deleted settles its conflict as "keep mine" (a failure to reach
  // the agent leaves it for the next cycle, which says why), before the conflicts are shown again.
  const settled = await settleDeletedCopies(resolveDepsOf(ctx), store).catch(() => []);
  let notices = ctx.status().notices;
  for (const text of settled) notices = withNotice({ ...ctx.status(), notices }, text);
  ctx.update({ state: 'scanning', message: undefined, failures: [], conflicts: store.conflicts(), notices });
  // Ignored means outside the sync on both sides: the agent's own .git/ is as safe as the person's.
  const rules = await loadIgnoreRules(root);
  const copies = store.copies();
  // The listing, the bases and the scan run at once: the server lists while the state is read and the folder walked.
  const listed = listRemote(ctx).then((result) =>
    result.ok ? { ok: true as const, ...screenRemotePaths(result.listing, rules, copies) } : result,
  );
  // The base as settling left it: an edit made while "mine" was uploading is a change of one side
  // only, not a conflict with the version just sent.
  const base = store.baseEntries();
  const scan = () =>
    scanLocal(root, base, {
      rules,
      copies,
      accepts: (path) => remote.accepts(path),
      listedRemotely: listed.then((result) =>
        result.ok ? new Set(result.accepted.map((entry) => pathKey(entry.path))) : new Set<string>(),
      ),
    });
  let local = await scan();
  const screened = await listed;
  if (!screened.ok) {
    const since = ctx.status().unreachable?.since ?? Date.now();
    ctx.update({
      state: 'error',
      message: screened.message,
      unreachable: screened.unreachable ? { server: screened.unreachable, since } : undefined,
    });
    return false;
  }
  const wasUnreachable = ctx.status().unreachable;
  if (wasUnreachable)
    ctx.update({
      unreachable: undefined,
      notices: withNotice(
        ctx.status(),
        `Reached ${wasUnreachable.server} again; your changes are being sent.`,
      ),
    });
  const { accepted: listing, refused } = screened;
  const conflicts = store.conflicts();
  const confirmed = ctx.deletesConfirmed();
  const planFor = (entries: LocalEntry[]) => {
    leaveRefusedKeysAlone(entries, refused);
    return planSync({
      base,
      local: entries,
      remote: listing,
      conflicts: new Set(conflicts.map((c) => c.key)),
      canDownload: (path) => remote.canRead(path),
      confirmedDeletes: confirmed,
      recentDeletes: ctx.deletions.counts(),
      listedGroups: remote.listedGroups,
    });
  };
  let plan = planFor(local.entries);
  // A removal still under way is waited for, then looked at whole, so the guard counts all of it.
  if (
    await awaitDeletionsSettled(
      root,
      localDeletions(plan),
      ctx.options.deleteSettleMs ?? deleteSettleDefaultMs,
    )
  ) {
    local = await scan();
    plan = planFor(local.entries);
  }
  for (const skip of refused)
    if (!plan.skipped.some((s) => s.path === skip.path && s.reason === skip.reason)) plan.skipped.push(skip);
  if (plan.abort) {
    ctx.update({ state: 'error', message: plan.abort, skipped: plan.skipped });
    return false;
  }
  // Pause pressed while the cycle looked, before it moved a file: it moves none (its scan may hold an
  // edit made after the click, which must wait for Resume).
  if (ctx.paused()) return false;
  ctx.consumeConfirmation();
  const unchecked = screenAndSay(ctx, plan.actions);
  plan.skipped.push(...unchecked.held);
  ctx.update({ state: 'syncing', done: 0, total: unchecked.actions.length, pendingDeletes: undefined });
  const result = await execute(ctx, unchecked.actions);
  // Confirmed deletes are settled, not counted toward the next pause; a pause keeps its count until answered.
  if (confirmed) ctx.deletions.clear();
  ctx.deletions.hold(plan.pause !== undefined);
  if (await sayDiskFull(ctx, result.failures, plan.skipped)) return result.moved.length > 0;
  if (plan.pause) {
    // The guard holds the deletes only; everything else of this cycle went ahead.
    ctx.update({
      state: 'paused',
      pendingDeletes: plan.pause,
      conflicts: store.conflicts(),
      skipped: plan.skipped,
      failures: result.failures,
      message: `${massDeleteWords(plan.pause)} Confirm to go ahead; every other change was synced.`,
    });
    return result.moved.length > 0;
  }
  const failed = result.failures.length > 0;
  ctx.update({
    state: failed ? 'error' : 'idle',
    lastSyncAt: failed ? ctx.status().lastSyncAt : Date.now(),
    conflicts: store.conflicts(),
    skipped: plan.skipped,
    failures: result.failures,
    message: failed
      ? result.failures.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('\n')
      : undefined,
  });
  return result.moved.length > 0;
}

/**
 * The plan's writes over agent files this server cannot show changes of: said once before they
 * go, or held (`holdUnchecked`) and returned to be listed as not synced.
 */
export function screenAndSay(ctx: CycleContext, actions: SyncAction[]): ReturnType<typeof screenUnchecked> {
  const unchecked = screenUnchecked(actions, ctx.options.remote, ctx.options.holdUnchecked ?? false);
  if (unchecked.first && !ctx.status().notices?.some((n) => n.id === uncheckedNoticeId))
    ctx.update({ notices: withNotice(ctx.status(), uncheckedWords(unchecked.first), uncheckedNoticeId) });
  return unchecked;
}

/** Carries out planned actions with the folder's options, reporting progress, then prunes the history. */
export async function execute(ctx: CycleContext, actions: readonly SyncAction[]): Promise<ExecutionResult> {
  const { root, remote, store } = ctx.options;
  const result = await executePlan(actions, {
    root,
    remote,
    store,
    history: ctx.history,
    settleMs: ctx.options.settleMs ?? 100,
    trash: ctx.options.trash,
    expectWrite: ctx.expectWrite,
    now: ctx.options.now,
    concurrency: ctx.options.concurrency,
    retry: ctx.options.retry,
    onProgress: (done, total) => ctx.update({ done, total }),
  });
  ctx.history.prune();
  const failed = new Set(result.failures.map((failure) => failure.path));
  const done = (type: SyncAction['type']) =>
    actions.flatMap((a) => (a.type === type && 'path' in a && !failed.has(a.path) ? [a.path] : []));
  ctx.deletions.restored('remote', done('upload'));
  ctx.deletions.restored('local', done('download'));
  ctx.deletions.record('local', done('delete-local'));
  ctx.deletions.record('remote', done('delete-remote'));
  return result;
}

/** What settling a conflict needs, from the cycle's own options. */
export function resolveDepsOf(ctx: Pick<CycleContext, 'options' | 'history' | 'expectWrite'>): ResolveDeps {
  const { root, remote, store, trash, retry, now } = ctx.options;
  return { root, remote, store, trash, retry, now, history: ctx.history, expectWrite: ctx.expectWrite };
}

/**
 * A local file whose name the agent's side holds in a form refused here (two remote names that are
 * one name here, a copy-like name) is left alone too: uploading it would write over one of the
 * agent's files, and its absence from the screened listing is no deletion.
 */
/** The paths the person deleted here, which the plan deletes on the agent's side (or holds). */
function localDeletions(plan: SyncPlan): string[] {
  return [...plan.actions, ...(plan.held ?? [])].flatMap((action) =>
    action.type === 'delete-remote' ? [action.path] : [],
  );
}

function leaveRefusedKeysAlone(local: LocalEntry[], refused: SkippedPath[]): void {
  const reasons = new Map(refused.map((skip) => [pathKey(skip.path), skip.reason]));
  for (const entry of local) {
    const reason = reasons.get(pathKey(entry.path));
    if (reason && !entry.skip) entry.skip = reason;
  }
}

/** The remote listing, retried like any transport fault; a failure is a message, the base untouched. */
export async function listRemote<T extends RemoteEntry[] | undefined = RemoteEntry[]>(
  ctx: CycleContext,
  list: () => Promise<T> = () => ctx.options.remote.list() as Promise<T>,
): Promise<{ ok: true; listing: T } | { ok: false; message: string; unreachable?: string }> {
  const { remote } = ctx.options;
  try {
    const listing = await withRetry(list, ctx.options.retry ?? defaultRetry);
    // The remote may learn its limits while listing (e.g. a server without the byte route).
    if (remote.limitation !== ctx.status().limitation) ctx.update({ limitation: remote.limitation });
    return { ok: true, listing };
  } catch (error) {
    const unreachable = error instanceof RemoteError ? error.unreachable : undefined;
    if (unreachable)
      return {
        ok: false,
        unreachable,
        message: serverUnreachableWords(unreachable),
      };
    return { ok: false, message: `Could not list the agent's files: ${(error as Error).message}` };
  }
}
