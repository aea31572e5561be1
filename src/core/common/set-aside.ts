/**
 * A damaged file is set aside, not trusted and not deleted (issue 38): renamed beside itself under a dated
 * name (`transcripts.db` → `transcripts.damaged-2026-12-02T07-40-00Z.db`), with its companions (a SQLite
 * store's `-wal` and `-shm`, which a new store of the old name would otherwise read as its own).
 */
import { closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import {
  SQLITE_HEADER_BYTES,
  sqliteFileProblem,
  type SqliteFileReads,
} from '../../shared/storage/sqlite-check';

/** Renames `file` (and `file + suffix` for each companion that exists) aside; returns where it went. */
export function setAsideSync(file: string, companions: readonly string[] = [], now = new Date()): string {
  const ext = extname(file);
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const aside = join(dirname(file), `${basename(file, ext)}.damaged-${stamp}${ext}`);
  renameSync(file, aside);
  for (const suffix of companions) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  return aside;
}

/** What is wrong with a SQLite store file (shared/storage/sqlite-check.ts), or null; none there: null. */
export function sqliteFileProblemAt(file: string, quickCheck: SqliteFileReads['quickCheck']): string | null {
  if (!existsSync(file)) return null;
  return sqliteFileProblem({
    size: statSync(file).size,
    head: () => {
      const head = new Uint8Array(SQLITE_HEADER_BYTES);
      const fd = openSync(file, 'r');
      try {
        readSync(fd, head, 0, SQLITE_HEADER_BYTES, 0);
      } finally {
        closeSync(fd);
      }
      return head;
    },
    quickCheck,
  });
}
