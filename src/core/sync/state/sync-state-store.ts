/**
 * The durable sync state of one synced folder: each path's base, the flagged
 * conflicts, and settings such as pause. Lives in the app's data folder, never
 * in the synced folder. SQLite (libsql) in WAL mode. Base writes are gathered and written
 * together in one transaction (a few ms later, before any full read of the bases, and at close):
 * one transaction per path cost more than the upload's own bookkeeping on a first sync of
 * 2,000 files. A crash therefore leaves every path either at its old base or its new one; a
 * path whose new base was still gathered is re-planned like a crash right before its commit.
 */
import type Database from 'libsql';
import type { SyncConflict } from '../../../shared/bridge';
import type { SetAside } from '../../../shared/words/set-aside-words';
import type { BaseEntry, Fingerprint, RemoteFingerprint } from '../plan/sync-plan-types';
import { pathKey } from '../plan/sync-paths';
import { BaseChanges } from './base-changes';
import { baseColumns, baseOf, type BaseRow, type BaseTuple } from './base-rows';
import { openStateDatabase, takeSetAsideNote } from './state-database';

type SqliteDatabase = InstanceType<typeof Database>;
/** What this store asks of a prepared statement. */
interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** Gathered base writes go out this long after the first one, or at once past `batchMax`. */
const batchDelayMs = 20;
const batchMax = 500;

/** A flagged conflict, as the bridge shows it (the shared vocabulary). */
export type ConflictRecord = SyncConflict;

export class SyncStateStore {
  private readonly db: SqliteDatabase;

  private readonly path: string;

  /** Prepared once: preparing a statement per call cost as much as running it. */
  private readonly statements = new Map<string, Statement>();

  /** Base writes not yet in the database, by key: the new row, or null for a forget. */
  private pending = new Map<string, BaseRow | null>();

  private flushTimer: NodeJS.Timeout | undefined;

  /** After a full read found no base (a first sync), the keys written since: no lookup for others. */
  private writtenSinceEmpty: Set<string> | undefined;

  /** Every base change, counted as it is gathered (base-changes.ts). */
  readonly changes = new BaseChanges();

  constructor(file: string) {
    this.path = file;
    // A file that fails its check is set aside and a new one starts (state-database.ts).
    this.db = openStateDatabase(file);
    // NORMAL in WAL mode: a process crash loses nothing, and a power cut can only lose the last
    // commits, leaving those paths at their older base, which the planner settles like a crash
    // before the commit. FULL would fsync every path's commit (1 ms each, blocking the loop).
    this.db.pragma('synchronous = NORMAL');
  }

  /** The state found damaged and set aside (by this open or another process's), told once: read, then forgotten. */
  takeSetAside(): SetAside | undefined {
    return takeSetAsideNote(this.db);
  }

  /** The connection, shared with the folder's version history (one writer per process). */
  get database(): SqliteDatabase {
    return this.db;
  }

  /** The file this state lives in (the version history sits beside it). */
  get file(): string {
    return this.path;
  }

  /** Every path's base, by key: one query, its rows read as arrays (objects per row cost twice the time). */
  baseEntries(): Map<string, BaseEntry> {
    this.flush();
    const rows = this.statement(`SELECT key, ${baseColumns} FROM base`, 'arrays').all() as BaseTuple[];
    this.writtenSinceEmpty = rows.length === 0 ? new Set() : undefined;
    const bases = new Map<string, BaseEntry>();
    for (const [key, path, size, sha256, mtime_ms, remote_size, remote_sha256] of rows)
      bases.set(key, baseOf({ path, size, sha256, mtime_ms, remote_size, remote_sha256 }));
    return bases;
  }

  /** One path's base, without loading them all (the executor checks paths one by one). */
  /** Whether any path has a base: one row read, where `baseEntries()` reads them all. */
  hasBase(): boolean {
    if (this.pending.size > 0) this.flush();
    return this.statement('SELECT 1 FROM base LIMIT 1').get() !== undefined;
  }

  /** The keys of the bases right in folder `key`, not in its subfolders (read as keys alone). */
  childKeys(key: string): string[] {
    if (this.pending.size > 0) this.flush();
    const sql = `SELECT key FROM base WHERE key >= ? AND key < ? AND instr(substr(key, ?), '/') = 0`;
    const rows = this.statement(sql, 'arrays').all(`${key}/`, `${key}0`, key.length + 2) as [string][];
    return rows.map(([child]) => child);
  }

  /** The bases of `key` and of every path under it (a folder's), by key: the fast path's base. */
  basesAt(key: string): Map<string, BaseEntry> {
    if (this.pending.size > 0) this.flush();
    // Keys under `key/` sort between `key/` and `key0` ('0' follows '/'): one range of the primary key.
    const rows = this.statement(
      `SELECT key, ${baseColumns} FROM base WHERE key = ? OR (key >= ? AND key < ?)`,
    ).all(key, `${key}/`, `${key}0`) as (BaseRow & { key: string })[];
    return new Map(rows.map((row) => [row.key, baseOf(row)]));
  }

  baseEntry(key: string): BaseEntry | undefined {
    const gathered = this.pending.get(key);
    if (gathered !== undefined) return gathered === null ? undefined : baseOf(gathered);
    if (this.writtenSinceEmpty && !this.writtenSinceEmpty.has(key)) return undefined;
    const row = this.statement(`SELECT ${baseColumns} FROM base WHERE key = ?`).get(key) as
      BaseRow | undefined;
    return row && baseOf(row);
  }

  /**
   * Called only after the operation on this path is confirmed on both sides. `remote` is what
   * the remote holds when it differs from the local bytes (a server's own form of the file).
   */
  commitBase(
    key: string,
    path: string,
    entry: Fingerprint,
    mtimeMs?: number,
    remote?: RemoteFingerprint,
  ): void {
    const sameRemote = !remote || (remote.size === entry.size && remote.sha256 === entry.sha256);
    this.gather(key, {
      path,
      size: entry.size,
      sha256: entry.sha256,
      mtime_ms: mtimeMs ?? null,
      remote_size: sameRemote ? null : remote.size,
      remote_sha256: sameRemote ? null : (remote.sha256 ?? null),
    });
  }

  forgetBase(key: string): void {
    this.gather(key, null);
  }

  /** Writes the gathered base changes now, in one transaction. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.size === 0) return;
    const rows = this.pending;
    this.pending = new Map();
    try {
      this.write(rows);
    } catch (error) {
      // Not written (e.g. another process held the file past the busy timeout): keep them for the
      // next flush, under any newer change of the same path.
      this.pending = new Map([...rows, ...this.pending]);
      throw error;
    }
  }

  private write(rows: ReadonlyMap<string, BaseRow | null>): void {
    for (const [key, row] of rows) {
      if (row === null) this.writtenSinceEmpty?.delete(key);
      else this.writtenSinceEmpty?.add(key);
    }
    const put = this.statement(
      'INSERT OR REPLACE INTO base (key, path, size, sha256, mtime_ms, remote_size, remote_sha256) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const drop = this.statement('DELETE FROM base WHERE key = ?');
    this.db.exec('BEGIN');
    try {
      for (const [key, row] of rows) {
        if (row === null) drop.run(key);
        else put.run(key, row.path, row.size, row.sha256, row.mtime_ms, row.remote_size, row.remote_sha256);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private gather(key: string, row: BaseRow | null): void {
    this.changes.note(key);
    this.pending.set(key, row);
    if (this.pending.size >= batchMax) this.flush();
    else if (!this.flushTimer) {
      // A failed timed flush is retried by the next write, read or close, which report it.
      this.flushTimer = setTimeout(() => {
        try {
          this.flush();
        } catch {
          this.flushTimer = undefined;
        }
      }, batchDelayMs);
      this.flushTimer.unref();
    }
  }

  /** A prepared statement, kept; `rows: 'arrays'` reads each row as an array in the order of its columns. */
  private statement(sql: string, rows: 'objects' | 'arrays' = 'objects'): Statement {
    const key = `${rows}:${sql}`;
    let prepared = this.statements.get(key);
    if (!prepared) {
      prepared = rows === 'arrays' ? this.db.prepare(sql).raw(true) : this.db.prepare(sql);
      this.statements.set(key, prepared);
    }
    return prepared;
  }

  conflicts(): ConflictRecord[] {
    const rows = this.statement(
      'SELECT key, path, remote_copy_path, at FROM conflicts ORDER BY at',
    ).all() as {
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

  /**
   * Flags the conflict and records its copy as the engine's own (local-only, never synced).
   * `theirsSha256` is the agent's version the copy holds: what the person saw when they chose.
   */
  flagConflict(record: ConflictRecord, theirsSha256?: string): void {
    this.statement(
      'INSERT OR REPLACE INTO conflicts (key, path, remote_copy_path, at, theirs_sha256) VALUES (?, ?, ?, ?, ?)',
    ).run(record.key, record.path, record.remoteCopyPath, record.at, theirsSha256 ?? null);
    this.recordCopy(record.remoteCopyPath, record.key);
  }

  /** The sha256 of the agent's version a conflict was flagged on (unknown for older state). */
  conflictTheirs(key: string): string | undefined {
    const row = this.statement('SELECT theirs_sha256 FROM conflicts WHERE key = ?').get(key) as
      { theirs_sha256: string | null } | undefined;
    return row?.theirs_sha256 ?? undefined;
  }

  /** A local-only copy the engine made (a conflict's remote version). */
  recordCopy(path: string, ofKey: string): void {
    this.statement('INSERT OR REPLACE INTO copies (path, of_key) VALUES (?, ?)').run(path, ofKey);
  }

  forgetCopy(path: string): void {
    this.statement('DELETE FROM copies WHERE path = ?').run(path);
  }

  /** Keys (case-folded NFC) of the copies the engine made: they stay local and are never synced. */
  copies(): Set<string> {
    const rows = this.statement('SELECT path FROM copies').all() as { path: string }[];
    return new Set(rows.map((row) => pathKey(row.path)));
  }

  clearConflict(key: string): void {
    this.statement('DELETE FROM conflicts WHERE key = ?').run(key);
  }

  setting(name: string): string | undefined {
    const row = this.statement('SELECT value FROM settings WHERE name = ?').get(name) as
      { value: string } | undefined;
    return row?.value;
  }

  setSetting(name: string, value: string | undefined): void {
    if (value === undefined) this.statement('DELETE FROM settings WHERE name = ?').run(name);
    else this.statement('INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)').run(name, value);
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}
