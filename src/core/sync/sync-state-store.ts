/**
 * The durable sync state of one synced folder: each path's base, the flagged
 * conflicts, and settings such as pause. Lives in the app's data folder, never
 * in the synced folder. SQLite (libsql) in WAL mode: a base row is written in
 * one statement, so a crash leaves every path either at its old base or its new one.
 */
import Database from 'libsql';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BaseEntry, Fingerprint } from './sync-planner';

type SqliteDatabase = InstanceType<typeof Database>;

export interface ConflictRecord {
  key: string;
  path: string;
  /** Local-only copy of the remote version, relative to the root. */
  remoteCopyPath: string;
  at: number;
}

const schema = `
CREATE TABLE IF NOT EXISTS base (
  key TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  mtime_ms REAL
);
CREATE TABLE IF NOT EXISTS conflicts (
  key TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  remote_copy_path TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

export class SyncStateStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a process crash loses nothing, and a power cut can only lose the last
    // commits, leaving those paths at their older base, which the planner settles like a crash
    // before the commit. FULL would fsync every path's commit (1 ms each, blocking the loop).
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(schema);
  }

  baseEntries(): Map<string, BaseEntry> {
    const rows = this.db.prepare('SELECT key, path, size, sha256, mtime_ms FROM base').all() as {
      key: string;
      path: string;
      size: number;
      sha256: string;
      mtime_ms: number | null;
    }[];
    return new Map(
      rows.map((row) => [
        row.key,
        {
          path: row.path,
          size: row.size,
          sha256: row.sha256,
          ...(row.mtime_ms === null ? {} : { mtimeMs: row.mtime_ms }),
        },
      ]),
    );
  }

  /** One path's base, without loading them all (the executor checks paths one by one). */
  baseEntry(key: string): BaseEntry | undefined {
    const row = this.db.prepare('SELECT path, size, sha256, mtime_ms FROM base WHERE key = ?').get(key) as
      { path: string; size: number; sha256: string; mtime_ms: number | null } | undefined;
    if (!row) return undefined;
    return {
      path: row.path,
      size: row.size,
      sha256: row.sha256,
      ...(row.mtime_ms === null ? {} : { mtimeMs: row.mtime_ms }),
    };
  }

  /** Called only after the operation on this path is confirmed on both sides. */
  commitBase(key: string, path: string, entry: Fingerprint, mtimeMs?: number): void {
    this.db
      .prepare('INSERT OR REPLACE INTO base (key, path, size, sha256, mtime_ms) VALUES (?, ?, ?, ?, ?)')
      .run(key, path, entry.size, entry.sha256, mtimeMs ?? null);
  }

  forgetBase(key: string): void {
    this.db.prepare('DELETE FROM base WHERE key = ?').run(key);
  }

  conflicts(): ConflictRecord[] {
    const rows = this.db
      .prepare('SELECT key, path, remote_copy_path, at FROM conflicts ORDER BY at')
      .all() as {
      key: string;
      path: string;
      remote_copy_path: string;
      at: number;
    }[];
    return rows.map((row) => ({
      key: row.key,
      path: row.path,
      remoteCopyPath: row.remote_copy_path,
      at: row.at,
    }));
  }

  flagConflict(record: ConflictRecord): void {
    this.db
      .prepare('INSERT OR REPLACE INTO conflicts (key, path, remote_copy_path, at) VALUES (?, ?, ?, ?)')
      .run(record.key, record.path, record.remoteCopyPath, record.at);
  }

  clearConflict(key: string): void {
    this.db.prepare('DELETE FROM conflicts WHERE key = ?').run(key);
  }

  setting(name: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as
      { value: string } | undefined;
    return row?.value;
  }

  setSetting(name: string, value: string | undefined): void {
    if (value === undefined) this.db.prepare('DELETE FROM settings WHERE name = ?').run(name);
    else this.db.prepare('INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)').run(name, value);
  }

  close(): void {
    this.db.close();
  }
}
