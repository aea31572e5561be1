/** The sync state's tables, and the columns added since (older state files get them on open). */
import type Database from 'libsql';

const schema = `
CREATE TABLE IF NOT EXISTS base (
  key TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  mtime_ms REAL,
  remote_size INTEGER,
  remote_sha256 TEXT
);
CREATE TABLE IF NOT EXISTS conflicts (
  key TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  remote_copy_path TEXT NOT NULL,
  at INTEGER NOT NULL,
  theirs_sha256 TEXT
);
CREATE TABLE IF NOT EXISTS copies (
  path TEXT PRIMARY KEY,
  of_key TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

/** Columns added after the first release of each table. */
const added = [
  // the base holds each side's fingerprint
  'base ADD COLUMN remote_size INTEGER',
  'base ADD COLUMN remote_sha256 TEXT',
  // a conflict holds the agent's version it was flagged on
  'conflicts ADD COLUMN theirs_sha256 TEXT',
];

export function createSchema(db: InstanceType<typeof Database>): void {
  db.exec(schema);
  for (const column of added) {
    try {
      db.exec(`ALTER TABLE ${column}`);
    } catch {
      // already there
    }
  }
}
