/**
 * What the sync engine needs of the remote side, in the local folder's layout
 * (`instructions.md`, `mcp.json`, `skills/<slug>/...`, `work/...`, `knowledge/...`).
 * Adapters map these onto the API: see box-remote.ts and bundle-remote.ts.
 */
import type { RemoteEntry } from './sync-planner';

export interface RemoteSide {
  /** Lists every synced remote path. Rejects on any failure: an error is never an empty listing. */
  list(): Promise<RemoteEntry[]>;
  /** Whether the bytes of `path` can be read back (false on a server without the byte route). */
  canRead(path: string): boolean;
  read(path: string): Promise<Uint8Array>;
  write(path: string, bytes: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  /** Sends writes that the API takes in groups (a whole skill, a whole bundle). */
  flush(): Promise<void>;
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
  ) {
    super(message);
  }

  /** 5xx, 429 and network failures are worth another try; a 4xx is not. */
  get retryable(): boolean {
    if (this.permanent) return false;
    return this.status === undefined || this.status === 429 || this.status >= 500;
  }
}
