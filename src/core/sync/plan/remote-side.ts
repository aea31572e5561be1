/**
 * What the sync engine needs of the remote side, in the local folder's layout
 * (`instructions.md`, `mcp.json`, `skills/<slug>/...`, `work/...`, `knowledge/...`).
 * Adapters map these onto the API: see box-remote.ts and bundle-remote.ts.
 */
import type { RemoteEntry, RemoteFingerprint } from './sync-plan-types';

/**
 * The version a write expects to replace: the entry the plan saw, `null` for "no file there",
 * or undefined for an unconditional write (the person chose, e.g. resolving a conflict).
 */
export type Expected = RemoteEntry | null | undefined;

export interface RemoteSide {
  /** Lists every synced remote path. Rejects on any failure: an error is never an empty listing. */
  list(): Promise<RemoteEntry[]>;
  /** Whether the bytes of `path` can be read back (false on a server without the byte route). */
  canRead(path: string): boolean;
  /** Whether `path` has a place on this remote (`instructions.md`, `mcp.json`, `skills/<slug>/…`, …). */
  accepts(path: string): boolean;
  read(path: string): Promise<Uint8Array>;
  /**
   * Writes `path` only if the remote still holds `expected` (a conditional write where the server
   * offers one, else a fresh read right before); rejects with `RemoteMoved` otherwise. Resolves to
   * what the remote holds afterwards when that may differ from `bytes` (a server's own form).
   */
  write(path: string, bytes: Uint8Array, expected?: Expected): Promise<RemoteFingerprint | undefined>;
  /** Removes `path` only if the remote still holds `expected`; rejects with `RemoteMoved` otherwise. */
  remove(path: string, expected?: Expected): Promise<void>;
  /** Sends writes that the API takes in groups (a whole skill, a whole bundle). */
  flush(): Promise<void>;
  /** The server's base URL, whose reach the engine watches (api/server-reach.ts). */
  readonly serverUrl?: string;
  /** A cheap look (a conditional listing) whether the remote moved since the last `list()`. */
  hasChanged?(): Promise<boolean>;
  /**
   * What the last look saw when it found the remote moved, as `list()` would give it, without
   * listing again; undefined when it kept nothing (then `list()`). Taken once.
   */
  listLooked?(): Promise<RemoteEntry[] | undefined>;
  /** Path prefixes listed by separate requests; an empty one with a non-empty base aborts the cycle. */
  readonly listedGroups: readonly string[];
  /** A plain sentence when the server limits what sync can do (e.g. upload-only `work/`). */
  readonly limitation?: string;
}

/** A remote failure as a value: status when the server answered, and how long it asked us to wait. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** The server refused the content itself (a 400): retrying unchanged will not help. */
    readonly permanent = false,
    /** No connection to this server (its origin) could be made: nothing answered at all. */
    readonly unreachable?: string,
  ) {
    super(message);
  }

  /** 5xx, 429 and network failures are worth another try; a 4xx is not. */
  get retryable(): boolean {
    if (this.permanent) return false;
    return this.status === undefined || this.status === 429 || this.status >= 500;
  }
}

/** The remote file is no longer the version the plan saw: the path is re-planned (a conflict, never an overwrite). */
export class RemoteMoved extends RemoteError {
  constructor(path: string) {
    super(`${path} changed on the agent's side during the sync; it is compared again.`, 412, undefined, true);
  }
}

/** Whether `current` (undefined: no file) is still the version a write expects. */
export function stillExpected(current: RemoteFingerprint | undefined, expected: Expected): boolean {
  if (expected === undefined) return true;
  if (expected === null) return current === undefined;
  if (!current || current.size !== expected.size) return false;
  return current.sha256 === undefined || expected.sha256 === undefined || current.sha256 === expected.sha256;
}

/** The folder layout each kind of agent takes; anything else is "not synced" (outside the layout). */
const skillFile = /^skills\/[a-z0-9][a-z0-9-]{0,63}\/[^/]/;

/**
 * A file in a skill folder whose name the API refuses as a slug (`skills/My Skill/SKILL.md`): a
 * name the other side cannot take, rather than a place outside the layout.
 */
export function inBadSkillFolder(path: string): boolean {
  return /^skills\/[^/]+\/[^/]/.test(path) && !skillFile.test(path);
}

export function inLayout(path: string, storage: 'box' | 'bundle'): boolean {
  if (path === 'instructions.md' || path === 'mcp.json') return true;
  if (skillFile.test(path)) return true;
  return path.startsWith(storage === 'box' ? 'work/' : 'knowledge/');
}
