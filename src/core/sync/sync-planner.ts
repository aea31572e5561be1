/**
 * The three-way sync planner: (base, local scan, remote listing) → actions.
 * Pure: no I/O, no clock. The executor carries the actions out and commits each
 * path's base only after its action is confirmed.
 *
 * Invariant: no action overwrites or deletes a version that exists nowhere else.
 */
import type { SyncSkipReason } from '../../shared/bridge';
import { pathKey } from './sync-paths';

export interface Fingerprint {
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** What a remote listing tells of a file: its size, and its hash where the server gives one. */
export interface RemoteFingerprint {
  size: number;
  sha256?: string;
}

/** A path as of its last successful sync: the local bytes, and the remote's when they differ. */
export interface BaseEntry extends Fingerprint {
  path: string;
  /** Local mtime at that sync, so an unchanged file need not be hashed again. */
  mtimeMs?: number;
  /**
   * What the remote held after that sync, when it is not the local bytes (a server that stores
   * a file in its own form, as ours does mcp.json): that form is neither a change nor a conflict.
   */
  remote?: RemoteFingerprint;
}

/** Why a file is left out of sync: the shared vocabulary the bridge shows. */
export type SkipReason = SyncSkipReason;

export interface LocalEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** Known when the scanner hashed the file (it does so only when size or mtime moved). */
  sha256?: string;
  /** Set by the scanner for entries that must not be synced, with the reason. */
  skip?: SkipReason;
}

export interface RemoteEntry {
  path: string;
  size: number;
  /** Present when the server's listing carries a hash; otherwise only the size is compared. */
  sha256?: string;
  /** The version the server names (our service's ETag), for a conditional write. */
  etag?: string;
}

export type SyncAction =
  /** `remote` is the entry the plan saw on the remote side (none: the path must still be free there). */
  | {
      type: 'upload';
      key: string;
      path: string;
      local: LocalEntry;
      remote?: RemoteEntry;
      replacesRemotePath?: string;
    }
  | { type: 'download'; key: string; path: string; remote: RemoteEntry; replacesLocalPath?: string }
  | { type: 'delete-remote'; key: string; path: string; remote: RemoteEntry }
  | { type: 'delete-local'; key: string; path: string }
  | {
      type: 'record-base';
      key: string;
      path: string;
      entry: Fingerprint;
      mtimeMs?: number;
      remote?: RemoteFingerprint;
    }
  | { type: 'forget-base'; key: string }
  /** Both sides changed and their hashes are not both known: fetch, hash, then record or conflict. */
  | { type: 'compare'; key: string; path: string; local: LocalEntry; remote: RemoteEntry }
  /** Both sides changed differently: keep the local file, save the remote beside it, flag the path. */
  | { type: 'conflict'; key: string; path: string; local: LocalEntry | undefined; remote: RemoteEntry };

export interface SkippedPath {
  path: string;
  reason: SkipReason;
}

export interface MassDeletePause {
  side: 'local' | 'remote';
  deletes: number;
  total: number;
}

export interface SyncPlan {
  actions: SyncAction[];
  skipped: SkippedPath[];
  /** Set when the plan would delete too much: its deletes wait in `held` until the person confirms. */
  pause?: MassDeletePause;
  /** The deletes held back by a mass-delete pause; every other action of the plan still runs. */
  held?: SyncAction[];
  /** Set when the cycle must not run at all. */
  abort?: string;
}

export interface PlanInput {
  base: ReadonlyMap<string, BaseEntry>;
  local: readonly LocalEntry[];
  remote: readonly RemoteEntry[];
  /** Keys flagged as unresolved conflicts: the person's later edits stay local until resolved. */
  conflicts?: ReadonlySet<string>;
  /** Whether the remote bytes of a path can be read (false for `work/` on an upload-only server). */
  canDownload?: (path: string) => boolean;
  /** The person confirmed the pending mass deletion for this cycle. */
  confirmedDeletes?: boolean;
  /**
   * Path prefixes the remote lists separately (e.g. `work/`). If one comes back empty while the
   * base has paths under it, the cycle aborts: an empty listing may be a fault, never a reason to delete.
   */
  listedGroups?: readonly string[];
}

type Change = 'absent' | 'unchanged' | 'new' | 'modified' | 'deleted';

/** The guard: pause when a side would lose more than 20 files, or more than half of a side (3 or more). */
export const massDelete = { maxFiles: 20, maxShare: 0.5, minForShare: 3 } as const;

export function planSync(input: PlanInput): SyncPlan {
  const skipped: SkippedPath[] = [];
  const local = indexByKey(input.local, skipped);
  const remote = indexByKey(input.remote, skipped);

  for (const group of input.listedGroups ?? ['']) {
    const inGroup = (path: string) => path.startsWith(group);
    if (input.remote.some((e) => inGroup(e.path))) continue;
    const synced = [...input.base].filter(([, e]) => inGroup(e.path));
    if (synced.length === 0) continue;
    const where = group ? ` for ${group}` : '';
    // An empty listing is never a reason to delete, nor to trust it with uploads. Once the
    // person removed those files here too, only their bases are forgotten, so the next
    // listing is read afresh (if the files were still there after all, they come back).
    if (synced.every(([key]) => !local.entries.has(key))) {
      return { actions: synced.map(([key]) => ({ type: 'forget-base' as const, key })), skipped };
    }
    return {
      actions: [],
      skipped,
      abort: `The agent's listing${where} came back empty although files were synced before, so nothing was changed. If the files really were removed there, delete them here too.`,
    };
  }

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
        replacesRemotePath: differentPath(r?.path, l!.path),
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
    return [{ type: 'upload', key, path: l.path, local: l, replacesRemotePath: r.path }];
  }
  if (!samePath(r.path, base.path) && !samePath(r.path, l.path)) {
    return [{ type: 'download', key, path: r.path, remote: r, replacesLocalPath: l.path }];
  }
  return undefined;
}

/** The remote side is compared with what the remote held after the last sync (its own form). */
function classifyRemote(base: BaseEntry | undefined, entry: RemoteEntry | undefined): Change {
  if (!base?.remote) return classify(base, entry);
  if (!entry) return 'deleted';
  if (entry.size !== base.remote.size) return 'modified';
  if (entry.sha256 !== undefined && base.remote.sha256 !== undefined)
    return entry.sha256 === base.remote.sha256 ? 'unchanged' : 'modified';
  return 'unchanged';
}

function classify(base: BaseEntry | undefined, entry: LocalEntry | RemoteEntry | undefined): Change {
  if (!base) return entry ? 'new' : 'absent';
  if (!entry) return 'deleted';
  if (entry.size !== base.size) return 'modified';
  if (entry.sha256 !== undefined) return entry.sha256 === base.sha256 ? 'unchanged' : 'modified';
  if ('mtimeMs' in entry) return entry.mtimeMs === base.mtimeMs ? 'unchanged' : 'modified';
  return 'unchanged'; // a remote listing without hashes: same size counts as unchanged
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

function checkMassDelete(actions: readonly SyncAction[], input: PlanInput): MassDeletePause | undefined {
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
