/**
 * A damaged file is set aside, not trusted and not deleted (issue 38): renamed beside itself under a dated
 * name (`transcripts.db` → `transcripts.damaged-2026-12-02T07-40-00Z.db`), with its companions (a SQLite
 * store's `-wal` and `-shm`, which a new store of the old name would otherwise read as its own).
 */
import { existsSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

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
