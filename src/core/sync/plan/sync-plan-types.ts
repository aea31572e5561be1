/**
 * The vocabulary of a sync plan: what each side holds of a path, what the base recorded, and the
 * actions the planner hands the executor. Types only.
 */
import type { SyncSkipReason } from '../../../shared/bridge';

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
      /** The agent's file under another spelling of the name (a case-only rename), removed only at this version. */
      replacesRemote?: RemoteEntry;
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
  /** The deletes this plan holds back. */
  deletes: number;
  /** The files of that side now, before those deletes. */
  total: number;
  /** Deletes of that side carried out in the last minute, counted with these (recent-deletions.ts). */
  recent?: number;
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
  /** Deletes of each side carried out lately (recent-deletions.ts): the guard counts them with the plan's. */
  recentDeletes?: Readonly<Record<'local' | 'remote', number>>;
  /**
   * Path prefixes the remote lists separately (e.g. `work/`). If one comes back empty while the
   * base has paths under it, the cycle aborts: an empty listing may be a fault, never a reason to delete.
   */
  listedGroups?: readonly string[];
}
