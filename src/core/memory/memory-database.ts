import Database from 'libsql';
import * as fs from 'node:fs';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqliteFileProblem } from '../../shared/storage/sqlite-check';
import { keepTransactionErrors } from '../../shared/storage/sqlite-transaction';
import type { SetAside } from '../../shared/words/set-aside-words';
import { setAsideSync } from '../common/set-aside';
import { memoryMigrations, type MemoryMigration } from './memory-migrations';

export type MemoryDatabase = InstanceType<typeof Database>;

/** SQLite's companions of a WAL database; they hold the same text, so they get the same mode. */
const COMPANIONS = ['', '-wal', '-shm'];

/**
 * Opens (creating if needed) the transcript database at `file`: WAL, mode 0600 for the file and its
 * companions (only this user may read what was said), pending migrations applied.
 */
export function openMemoryDatabase(
  file: string,
  migrations: readonly MemoryMigration[] = memoryMigrations,
  onSetAside?: (aside: SetAsideStore) => void,
): MemoryDatabase {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // A store that fails its check is moved aside whole and a new one starts: the conversations come
  // back from the server (the history indexer downloads what is missing), what was only here stays in the file.
  const problem = memoryFileProblem(file);
  if (problem) onSetAside?.({ problem, movedTo: setAsideSync(file, COMPANIONS.slice(1)) });
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database's mode.
  closeSync(openSync(file, 'a', 0o600));
  const db = keepTransactionErrors(new Database(file));
  // First: a writer thread of this store still closing may hold the file a moment.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  applyMemoryMigrations(db, migrations);
  restrictModes(file);
  return db;
}

/** A transcript store that failed its check at open, and the dated name it was moved to. */
export type SetAsideStore = SetAside;

/** Above this size only the header and size are checked: quick_check reads every page, seconds at each start. */
const QUICK_CHECK_MAX_BYTES = 256 * 1024 * 1024;

function memoryFileProblem(file: string): string | null {
  return sqliteFileProblem(file, {
    fs,
    open: (path) => new Database(path),
    quickCheckMaxBytes: QUICK_CHECK_MAX_BYTES,
  });
}

/** Applies, each in its own transaction, the steps not yet in `memory_migrations`; returns their ids. */
export function applyMemoryMigrations(db: MemoryDatabase, migrations: readonly MemoryMigration[]): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS memory_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const rows = db.prepare('SELECT id FROM memory_migrations').all() as { id: string }[];
  const done = new Set(rows.map((row) => row.id));
  const applied: string[] = [];
  for (const step of migrations) {
    if (done.has(step.id)) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.prepare('INSERT INTO memory_migrations (id, applied_at) VALUES (?, ?)').run(step.id, Date.now());
    })();
    applied.push(step.id);
  }
  return applied;
}

export function restrictModes(file: string): void {
  if (process.platform === 'win32') return;
  for (const suffix of COMPANIONS) {
    if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
  }
}

/** Deletes the database file and its companions (the caller has closed it). */
export function removeMemoryDatabase(file: string): void {
  for (const suffix of COMPANIONS) rmSync(file + suffix, { force: true });
}
