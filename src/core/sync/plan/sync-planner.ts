/**
 * The three-way sync planner: (base, local scan, remote listing) → actions.
 * Pure: no I/O, no clock. The executor carries the actions out and commits each
 * path's base only after its action is confirmed.
 *
 * Invariant: no action overwrites or deletes a version that exists nowhere else.
 */
import { classify, classifyRemote } from './change-classification';
import { checkEmptyListing, checkMassDelete } from './deletion-guards';
import type {
  BaseEntry,
  LocalEntry,
  PlanInput,
  RemoteEntry,
  SkippedPath,
  SyncAction,
  SyncPlan,
} from './sync-plan-types';
import { pathKey } from './sync-paths';

export type * from './sync-plan-types';
export { massDelete } from './deletion-guards';

export function planSync(input: PlanInput): SyncPlan {
  const skipped: SkippedPath[] = [];
  const local = indexByKey(input.local, skipped);
  const remote = indexByKey(input.remote, skipped);

  const emptied = checkEmptyListing(input, local.entries, skipped);
  if (emptied) return emptied;

  const keys = new Set<string>([...input.base.keys(), ...local.entries.keys(), ...remote.entries.keys()]);
  for (const key of local.clashes) keys.delete(key);
  for (const key of remote.clashes) keys.delete(key);

  const actions: SyncAction[] = [];
  for (const key of [...keys].sort()) {
    const base = input.base.get(key);
    const l = local.entries.get(key);
    const r = remote.entries.get(key);
    if (l?.skip) {
      skipped.push({ path: l.path, reason: l.skip });
      continue; // never uploaded, never treated as deleted
    }
    if (input.conflicts?.has(key)) continue;
    const canDownload = r ? (input.canDownload?.(r.path) ?? true) : true;
    const action = decide(key, base, l, r, canDownload, skipped);
    if (action) actions.push(...action);
  }
  keepBothWhereFolderStands(actions, local.entries);

  const pause = input.confirmedDeletes ? undefined : checkMassDelete(actions, input);
  if (!pause) return { actions, skipped };
  // The guard holds only what it guards: the deletes wait, every other change goes on.
  const isDelete = (a: SyncAction) => a.type === 'delete-local' || a.type === 'delete-remote';
  return { actions: actions.filter((a) => !isDelete(a)), skipped, pause, held: actions.filter(isDelete) };
}

function decide(
  key: string,
  base: BaseEntry | undefined,
  l: LocalEntry | undefined,
  r: RemoteEntry | undefined,
  canDownload: boolean,
  skipped: SkippedPath[],
): SyncAction[] | undefined {
  const localChange = classify(base, l);
  const remoteChange = classifyRemote(base, r);

  if (localChange === 'absent' && remoteChange === 'absent') return undefined;
  if (localChange === 'deleted' && remoteChange === 'deleted') return [{ type: 'forget-base', key }];
  if (localChange === 'deleted' && r === undefined) return [{ type: 'forget-base', key }];

  // Only the remote moved.
  if (
    localChange === 'unchanged' ||
    localChange === 'absent' ||
    (localChange === 'deleted' && remoteChange === 'modified')
  ) {
    if (remoteChange === 'unchanged') return renamedCase(key, base!, l, r!);
    if (remoteChange === 'deleted') return [{ type: 'delete-local', key, path: l!.path }];
    if (!r) return undefined;
    if (!canDownload) {
      skipped.push({ path: r.path, reason: 'upload-only' });
      return undefined;
    }
    // A local name spelled differently (NFD) but the same is updated in place, not twinned.
    const path = l && samePath(l.path, r.path) ? l.path : r.path;
    return [{ type: 'download', key, path, remote: r, replacesLocalPath: differentPath(l?.path, r.path) }];
  }

  // Only the local side moved (new, modified, or deleted against an unchanged remote).
  if (remoteChange === 'unchanged' || remoteChange === 'absent' || (remoteChange === 'deleted' && l)) {
    if (localChange === 'deleted') return [{ type: 'delete-remote', key, path: r!.path, remote: r! }];
    return [
      {
        type: 'upload',
        key,
        path: l!.path,
        local: l!,
        ...(r && samePath(r.path, l!.path) ? { remote: r } : {}),
        ...(r && differentPath(r.path, l!.path) ? { replacesRemote: r } : {}),
      },
    ];
  }

  // Both sides moved.
  if (!l || !r) return undefined;
  if (l.sha256 && r.sha256) {
    if (l.sha256 === r.sha256 && l.size === r.size) {
      return [
        {
          type: 'record-base',
          key,
          path: l.path,
          entry: { size: l.size, sha256: l.sha256 },
          mtimeMs: l.mtimeMs,
          remote: { size: r.size, sha256: r.sha256 },
        },
      ];
    }
    if (!canDownload) {
      skipped.push({ path: r.path, reason: 'upload-only' });
      return undefined;
    }
    return [{ type: 'conflict', key, path: l.path, local: l, remote: r }];
  }
  if (!canDownload) {
    skipped.push({ path: r.path, reason: 'upload-only' });
    return undefined;
  }
  return [{ type: 'compare', key, path: l.path, local: l, remote: r }];
}

/** Both sides hold the base content; only the letter case of the name may differ. */
function renamedCase(
  key: string,
  base: BaseEntry,
  l: LocalEntry | undefined,
  r: RemoteEntry,
): SyncAction[] | undefined {
  if (!l) return undefined;
  if (!samePath(l.path, base.path) && !samePath(l.path, r.path)) {
    return [{ type: 'upload', key, path: l.path, local: l, replacesRemote: r }];
  }
  if (!samePath(r.path, base.path) && !samePath(r.path, l.path)) {
    return [{ type: 'download', key, path: r.path, remote: r, replacesLocalPath: l.path }];
  }
  return undefined;
}

interface KeyIndex<T> {
  entries: Map<string, T>;
  clashes: Set<string>;
}

/** Indexes entries by key; two paths with one key are a name clash, skipped on both sides. */
function indexByKey<T extends { path: string }>(entries: readonly T[], skipped: SkippedPath[]): KeyIndex<T> {
  const index: KeyIndex<T> = { entries: new Map(), clashes: new Set() };
  for (const entry of entries) {
    const key = pathKey(entry.path);
    const other = index.entries.get(key);
    if (other && other.path !== entry.path) {
      index.clashes.add(key);
      skipped.push({ path: entry.path, reason: 'name-clash' });
      if (!skipped.some((s) => s.path === other.path))
        skipped.push({ path: other.path, reason: 'name-clash' });
    }
    index.entries.set(key, entry);
  }
  return index;
}

/**
 * A local folder that stays (it holds files not being deleted) where a remote file would be
 * downloaded: keep both, the remote version beside it as a conflict copy.
 */
function keepBothWhereFolderStands(actions: SyncAction[], local: ReadonlyMap<string, LocalEntry>): void {
  const leaving = new Set(actions.filter((a) => a.type === 'delete-local').map((a) => a.key));
  const folders = parentKeys([...local.keys()].filter((key) => !leaving.has(key)));
  actions.forEach((action, index) => {
    if (action.type === 'download' && folders.has(action.key)) {
      actions[index] = {
        type: 'conflict',
        key: action.key,
        path: action.path,
        local: undefined,
        remote: action.remote,
      };
    }
  });
}

function parentKeys(keys: Iterable<string>): Set<string> {
  const parents = new Set<string>();
  for (const key of keys) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i += 1) parents.add(parts.slice(0, i).join('/'));
  }
  return parents;
}

/** Same name letter for letter; NFD and NFC spellings of one name count as the same. */
function samePath(a: string, b: string): boolean {
  return a.normalize('NFC') === b.normalize('NFC');
}

function differentPath(existing: string | undefined, wanted: string): string | undefined {
  return existing !== undefined && !samePath(existing, wanted) ? existing : undefined;
}
