/** A path's base as the `base` table holds it (sync-state-schema.ts), and as the engine reads it. */
import type { BaseEntry } from '../plan/sync-plan-types';

export const baseColumns = 'path, size, sha256, mtime_ms, remote_size, remote_sha256';

export interface BaseRow {
  path: string;
  size: number;
  sha256: string;
  mtime_ms: number | null;
  remote_size: number | null;
  remote_sha256: string | null;
}

/** A base row as an array: key, then `baseColumns` in order. */
export type BaseTuple = [string, string, number, string, number | null, number | null, string | null];

export function baseOf(row: BaseRow): BaseEntry {
  return {
    path: row.path,
    size: row.size,
    sha256: row.sha256,
    ...(row.mtime_ms === null ? {} : { mtimeMs: row.mtime_ms }),
    ...(row.remote_size === null
      ? {}
      : {
          remote: { size: row.remote_size, ...(row.remote_sha256 ? { sha256: row.remote_sha256 } : {}) },
        }),
  };
}
