/**
 * The fast path (issue 30): the paths the watcher named, planned against their stored bases alone
 * and carried out by the same executor as a full cycle (settle time, version history, checked
 * local replaces, conditional writes). Its cost follows the change, not the folder: no walk of the
 * folder, no listing of the agent's side.
 *
 * The agent's side is taken to hold what each base says it held after the last sync. Every write
 * and delete expects that version (If-Match, or a fresh read of that one entry right before), so
 * an agent change made since is a refused write, never an overwrite: the path "moved", and a full
 * cycle, which lists the agent's side, plans it again. Whatever the paths alone cannot decide is
 * left to a full cycle too: the marker or the ignore rules changed, the folder's root, a name that
 * has a twin differing only in case, a name the last full cycle left out, a conflict copy, more
 * than a few deletes (the mass-delete guard needs the whole folder's totals), a version that moved.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncStatus } from '../../../shared/bridge';
import { awaitDeletionsSettled, deleteSettleDefaultMs } from '../local/deletion-settle';
import { loadIgnoreRules, scanPaths } from '../local/local-scanner';
import type { BaseEntry, RemoteEntry, SkipReason, SyncAction } from '../plan/sync-plan-types';
import { massDelete, planSync } from '../plan/sync-planner';
import { ignoreFileName, isAlwaysIgnored, pathKey, rootMarkerName } from '../plan/sync-paths';
import { ensureRootMarker } from '../state/root-marker';
import { execute, screenAndSay, type CycleContext } from './sync-cycle';

/** 'done': the paths are settled (or reported); 'full': a full cycle must plan them. */
export type PathSyncOutcome = 'done' | 'full';

/** More named paths than this in one batch (a checkout, an unpacked archive): a full cycle is cheaper. */
export const fastPathLimit = 256;

/** Reasons a full cycle gave from the agent's side (its listing), which the fast path never sees. */
const leftForFull = new Set<SkipReason>([
  'name-clash',
  'invalid-name',
  'looks-like-copy',
  'upload-only',
  'unchecked',
]);

/** More deletes than this go to a full cycle, whose mass-delete guard sees the whole folder. */
const fastDeletesMax = 2;

/**
 * Syncs the named paths. `listed`: what a fresh listing of the agent's side holds at some of them
 * (by key; undefined: gone there), as the remote pass (remote-pass.ts) found them changed; every
 * other path is taken to hold its base there.
 */
export function syncPaths(
  ctx: CycleContext,
  named: readonly string[],
  listed?: ReadonlyMap<string, RemoteEntry | undefined>,
): Promise<PathSyncOutcome> {
  return syncNamed(ctx, named, listed, false);
}

async function syncNamed(
  ctx: CycleContext,
  named: readonly string[],
  listed: ReadonlyMap<string, RemoteEntry | undefined> | undefined,
  deletionsSettled: boolean,
): Promise<PathSyncOutcome> {
  const { store, remote, root, agentId } = ctx.options;
  const before = ctx.status();
  if (before.unreachable) return 'done'; // the next look that reaches the server runs a full cycle
  // A cycle that failed as a whole (a listing refused, the marker gone) is tried again whole.
  if (before.state === 'error' && before.failures.length === 0) return 'full';
  const paths = outermost(named.filter((path) => !isAlwaysIgnored(path) || isNews(path)));
  if (paths.length === 0) return 'done';
  if (paths.length > fastPathLimit || paths.some((path) => path === '' || isNews(path))) return 'full';
  const marker = await ensureRootMarker(root, agentId, false, store.file);
  if (!marker.ok) return 'full'; // the full cycle stops the sync and says why
  const rules = await loadIgnoreRules(root);
  const wanted = paths.filter((path) => !rules.ignores(path));
  const keys = wanted.map(pathKey);
  // A name the last full cycle left out (a name clash, a refused name): only a full cycle sees why.
  const leftOut = new Set(
    ctx
      .status()
      .skipped.filter((skip) => leftForFull.has(skip.reason))
      .map((skip) => pathKey(skip.path)),
  );
  if (keys.some((key) => leftOut.has(key))) return 'full';
  if (await anyCaseTwin(root, wanted)) return 'full';
  // A conflict copy the person deleted (or edited) is settled by the full cycle, which says so.
  const copies = store.copies();
  if (keys.some((key) => copies.has(key))) return 'full';

  const base = new Map<string, BaseEntry>();
  for (const key of keys) for (const [k, entry] of store.basesAt(key)) base.set(k, entry);
  // A base recorded under another spelling (a case-only rename) is the full cycle's to sort out.
  for (const [i, path] of wanted.entries()) {
    const known = base.get(keys[i]!);
    if (known && known.path.normalize('NFC') !== path.normalize('NFC')) return 'full';
  }
  const local = await scanPaths(root, wanted, base, {
    rules,
    copies,
    accepts: (path) => remote.accepts(path),
    // A new file is hashed only where the agent's side has one too (to compare); else its upload hashes it.
    listedRemotely: new Set([...(listed ?? [])].filter(([, entry]) => entry).map(([key]) => key)),
  });
  const remoteNow = [...base].flatMap(([key, entry]) => {
    if (!listed?.has(key)) return [remoteAsBased(entry, remote.canRead(entry.path))];
    return listed.get(key) ? [listed.get(key)!] : [];
  });
  for (const [key, entry] of listed ?? []) if (entry && !base.has(key)) remoteNow.push(entry);
  const conflicts = store.conflicts();
  const plan = planSync({
    base,
    local: local.entries,
    remote: remoteNow,
    conflicts: new Set(conflicts.map((c) => c.key)),
    canDownload: (path) => remote.canRead(path),
    confirmedDeletes: true, // counted below, against the fast path's own limit
    listedGroups: [], // nothing was listed: no group can have come back empty
  });
  // The planner's guard counts this batch only; a batch deleting more than a few is the full cycle's.
  const deletes = plan.actions.filter(isDelete);
  if (deletes.length > fastDeletesMax) return 'full';
  // Deletes coming one after another (a script removing a folder file by file): the full cycle's guard
  // counts them with the side's totals once a few have gone within the window.
  const recent = ctx.deletions.counts();
  if (deletes.length > 0 && deletes.length + recent.local + recent.remote >= massDelete.minForShare)
    return 'full';
  // A removal still under way (deletion-settle.ts): once it held still, the paths are looked at again.
  const deletedHere = deletes.flatMap((action) => (action.type === 'delete-remote' ? [action.path] : []));
  if (
    !deletionsSettled &&
    (await awaitDeletionsSettled(root, deletedHere, ctx.options.deleteSettleMs ?? deleteSettleDefaultMs))
  )
    return syncNamed(ctx, named, listed, true);
  // The watcher reports a removal file by file, and a busy machine splits it across batches: the
  // disk already holds all of it, and the full cycle's guard counts it whole.
  if (deletes.length > 0 && (await moreGoneThanNamed(root, store, deletes))) return 'full';
  // While a mass deletion waits for the person, a late watcher event of one of its files must not carry
  // that delete out behind the pause: the full cycle holds it with the rest.
  if (before.pendingDeletes && plan.actions.some(isDelete)) return 'full';
  if (plan.actions.length === 0 && plan.skipped.length === 0 && !reportsAny(ctx.status(), wanted))
    return 'done';

  // Paused while this pass looked: the full cycle, which holds the pause, is the one to run.
  if (ctx.paused()) return 'full';
  const unchecked = screenAndSay(ctx, plan.actions);
  ctx.update({ state: 'syncing', done: 0, total: unchecked.actions.length });
  const result = await execute(ctx, unchecked.actions);
  // A failure (the server gone, a refused file) is the full cycle's to report: it lists first, so
  // a server out of reach is said once as such, and what it retries it reports as a cycle does.
  if (result.failures.length > 0 || result.moved.length > 0) return 'full';
  // What this batch says replaces what the last cycle said of the same paths; the rest stands.
  const mine = (path: string) => {
    const key = pathKey(path);
    return keys.some((k) => key === k || key.startsWith(`${k}/`));
  };
  const status = ctx.status();
  const failures = status.failures.filter((f) => !mine(f.path));
  const failed = failures.length > 0;
  ctx.update({
    state: status.pendingDeletes ? 'paused' : failed ? 'error' : 'idle',
    lastSyncAt: Date.now(),
    conflicts: store.conflicts(),
    skipped: [...status.skipped.filter((s) => !mine(s.path)), ...plan.skipped, ...unchecked.held],
    failures,
    message: failed
      ? failures.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('\n')
      : status.pendingDeletes
        ? status.message
        : undefined,
  });
  return 'done';
}

/** The marker and the ignore rules are never synced, but a change to either changes everything. */
function isNews(path: string): boolean {
  return path === rootMarkerName || path === ignoreFileName;
}

type DeleteAction = Extract<SyncAction, { type: 'delete-remote' | 'delete-local' }>;
const isDelete = (action: SyncAction): action is DeleteAction =>
  action.type === 'delete-remote' || action.type === 'delete-local';

/**
 * Whether more is gone from the folders of these deletes than one batch may delete: a folder removed
 * whole, or more of a folder's synced files missing on disk than the watcher has named so far.
 */
async function moreGoneThanNamed(
  root: string,
  store: CycleContext['options']['store'],
  deletes: readonly DeleteAction[],
): Promise<boolean> {
  for (const dir of new Set(deletes.map((action) => folderOf(action.path)))) {
    if (dir === '') continue; // the root's own files are the marker's company: none go by the dozen
    const names = await readdir(join(root, dir)).catch(() => undefined);
    if (!names) return true;
    const present = new Set(names.map((name) => pathKey(name)));
    const dirKey = pathKey(dir);
    // Files right in the folder are enough: a removed subfolder's files find their own folder gone.
    let gone = 0;
    for (const key of store.childKeys(dirKey)) {
      if (!present.has(key.slice(dirKey.length + 1)) && ++gone > fastDeletesMax) return true;
    }
  }
  return false;
}

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/**
 * What the agent's side held of a path after its last sync, in its own form where it has one.
 * Where the server cannot send the file back, its hash is not claimed: such a server shows no
 * change that kept the size, and the write is said (or held) as unchecked, as in a full cycle.
 */
function remoteAsBased(base: BaseEntry, readable: boolean): RemoteEntry {
  const held = base.remote ?? base;
  return {
    path: base.path.normalize('NFC'),
    size: held.size,
    ...(held.sha256 !== undefined && readable ? { sha256: held.sha256 } : {}),
  };
}

/** The named paths without those under another named path (a folder is walked whole). */
function outermost(paths: readonly string[]): string[] {
  const unique = new Set(paths);
  const under = (path: string) => {
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1))
      if (unique.has(path.slice(0, at))) return true;
    return false;
  };
  return [...unique].filter((path) => !under(path));
}

/** Whether the status reports any of these paths (skipped or failed), so settling them must clear it. */
function reportsAny(status: SyncStatus, paths: readonly string[]): boolean {
  const keys = new Set(paths.map(pathKey));
  return [...status.skipped, ...status.failures].some((item) => keys.has(pathKey(item.path)));
}

/**
 * Whether a named path's folder holds another name that is the same path here (case-folded NFC):
 * a name clash, which only a full cycle sorts out. One listing per folder named.
 */
async function anyCaseTwin(root: string, paths: readonly string[]): Promise<boolean> {
  const folders = new Map<string, Promise<string[]>>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    if (!folders.has(dir))
      folders.set(
        dir,
        readdir(join(root, dir)).catch(() => []),
      );
    const key = pathKey(path);
    const names = await folders.get(dir)!;
    const same = names.filter((name) => pathKey(dir ? `${dir}/${name}` : name) === key);
    if (same.length > 1) return true;
  }
  return false;
}
