/**
 * The embedded store's check (issue 38): `service.db` is trusted only once its header, its size and SQLite's
 * quick_check hold. A store that fails is never reset or repaired here: the service refuses to start with
 * a line naming the file and the check, and `npm run service -- check` runs the same check alone.
 */
import Database from 'libsql';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { SQLITE_HEADER_BYTES, sqliteFileProblem } from '../../shared/storage/sqlite-check';

/** A start refused because the store failed its check; the message names the file and the check. */
export class DamagedStoreError extends Error {}

/** What is wrong with the store file, or null when it passes (or does not exist yet: a first start). */
export function storeFileProblem(file: string): string | null {
  if (!existsSync(file)) return null;
  return sqliteFileProblem({
    size: statSync(file).size,
    head: () => readHead(file),
    quickCheck: () => {
      const database = new Database(file);
      try {
        return database.pragma('quick_check') as unknown[];
      } finally {
        database.close();
      }
    },
  });
}

function readHead(file: string): Uint8Array {
  const head = new Uint8Array(SQLITE_HEADER_BYTES);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, SQLITE_HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  return head;
}

/** Throws DamagedStoreError when the store file fails its check. */
export function assertStoreSound(file: string): void {
  const problem = storeFileProblem(file);
  if (problem)
    throw new DamagedStoreError(
      `${file} failed its check: ${problem}. The service did not start and changed nothing in it; restore it from a backup, or move it away to start with an empty store.`,
    );
}
