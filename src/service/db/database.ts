import Database from 'libsql';
import { join } from 'node:path';
import { makePrivateFilesSync } from '../security/private-files';
import { migrations as allMigrations, type Migration } from './migrations';

export type ServiceDatabase = InstanceType<typeof Database>;

/** Opens (creating if needed) the service database in `dataDir`, in WAL mode, and applies pending migrations. */
export function openDatabase(
  dataDir: string,
  migrations: readonly Migration[] = allMigrations,
): ServiceDatabase {
  const file = join(dataDir, 'service.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // Password hashes and conversations: the person only, whatever the process umask.
  makePrivateFilesSync([file, `${file}-wal`, `${file}-shm`]);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  applyMigrations(db, migrations);
  return db;
}

/** Applies, in order and each in its own transaction, the steps not yet recorded in `schema_migrations`. */
export function applyMigrations(db: ServiceDatabase, migrations: readonly Migration[]): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const done = new Set(
    (db.prepare('SELECT id FROM schema_migrations').all() as { id: string }[]).map((row) => row.id),
  );
  const applied: string[] = [];
  for (const step of migrations) {
    if (done.has(step.id)) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(step.id, Date.now());
    })();
    applied.push(step.id);
  }
  return applied;
}
