/**
 * The embedded store's check (issue 38): `service.db` is trusted only once its header, its size and SQLite's
 * quick_check hold. A store that fails is never reset or repaired here: the service refuses to start with
 * a line naming the file and the check, and `npm run service -- check` runs the same check alone.
 */
import Database from 'libsql';
import * as fs from 'node:fs';
import { sqliteFileProblem } from '../../shared/storage/sqlite-check';

/** A start refused because the store failed its check; the message names the file and the check. */
export class DamagedStoreError extends Error {}

/** What is wrong with the store file, or null when it passes (or does not exist yet: a first start). */
export function storeFileProblem(file: string): string | null {
  return sqliteFileProblem(file, { fs, open: (path) => new Database(path) });
}

/** Throws DamagedStoreError when the store file fails its check. */
export function assertStoreSound(file: string): void {
  const problem = storeFileProblem(file);
  if (problem)
    throw new DamagedStoreError(
      `${file} failed its check: ${problem}. The service did not start and changed nothing in it; restore it from a backup, or move it away to start with an empty store.`,
    );
}
