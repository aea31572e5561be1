/**
 * The net under every sync rule: before the sync overwrites or deletes a version on either
 * side, that version is kept here. Per synced folder, beside its state in the app's data
 * folder (never in the synced folder): content-addressed objects (`objects/ab/<sha256>`, one
 * copy per distinct content) and an index of which path held which content, when, from which
 * side. Versions older than 30 days go, and the oldest go first while over the size cap.
 */
import type Database from 'libsql';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hashBytes, hashFile } from '../local/file-hash';
import { pathKey } from '../plan/sync-paths';
import { openStateDatabase, peekSetAsideNote } from '../state/state-database';
import type { SetAside } from '../../../shared/words/set-aside-words';

/** Who held the version: the person's folder or the agent's side. */
export type VersionSource = 'local' | 'remote';

export interface VersionRecord {
  id: number;
  path: string;
  sha256: string;
  size: number;
  at: number;
  source: VersionSource;
}

export const historyDefaults = { maxAgeMs: 30 * 24 * 60 * 60 * 1000, capBytes: 1024 * 1024 * 1024 } as const;

const schema = `
CREATE TABLE IF NOT EXISTS versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  at INTEGER NOT NULL,
  source TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS versions_key ON versions (key, id);
CREATE INDEX IF NOT EXISTS versions_sha ON versions (sha256);
CREATE TABLE IF NOT EXISTS history_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);`;

type Row = Omit<VersionRecord, 'source'> & { source: string };

export class VersionHistory {
  private readonly db: InstanceType<typeof Database>;
  private readonly ownsDb: boolean;
  private readonly now: () => number;
  readonly dir: string;

  /**
   * `stateFile` is the folder's state database; the history lives beside it. Within one process
   * pass the state store's own connection (`db`): two connections of one process writing the same
   * file would wait on each other's locks.
   */
  constructor(stateFile: string, options: { db?: InstanceType<typeof Database>; now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
    this.dir = `${stateFile.replace(/\.db$/, '')}-history`;
    this.ownsDb = options.db === undefined;
    // Opened alone, the state file is checked as the state store checks it (set aside when damaged).
    this.db = options.db ?? openStateDatabase(stateFile);
    this.db.exec(schema);
  }

  /** The folder's state found damaged and set aside, not yet told by a sync: the versions it listed are not. */
  setAsideNote(): SetAside | undefined {
    return peekSetAsideNote(this.db);
  }

  /** The size cap in bytes the person set, or the default (1 GB). */
  get capBytes(): number {
    const row = this.db.prepare("SELECT value FROM history_settings WHERE name = 'cap'").get() as
      { value: string } | undefined;
    const value = Number(row?.value);
    return Number.isFinite(value) && value > 0 ? value : historyDefaults.capBytes;
  }

  setCapBytes(bytes: number): void {
    if (!Number.isFinite(bytes) || bytes <= 0)
      throw new Error('The history size cap must be a positive size.');
    this.db
      .prepare("INSERT OR REPLACE INTO history_settings (name, value) VALUES ('cap', ?)")
      .run(String(Math.round(bytes)));
    this.prune();
  }

  /**
   * Keeps `bytes` as a version of `path` (`knownSha256` saves hashing them again). A path's newest
   * version is not recorded twice.
   */
  async keepBytes(
    path: string,
    bytes: Uint8Array,
    source: VersionSource,
    knownSha256?: string,
  ): Promise<void> {
    const sha256 = knownSha256 ?? hashBytes(bytes);
    if (this.isNewest(path, sha256)) return;
    const object = this.objectPath(sha256);
    if (!(await exists(object))) await writeObject(object, (temp) => writeFile(temp, bytes));
    this.record(path, sha256, bytes.length, source);
  }

  /** Keeps the file at `absolute` as a version of `path` (copied: the file itself may go on changing). */
  async keepFile(path: string, absolute: string, source: VersionSource): Promise<void> {
    const { sha256, size } = await hashFile(absolute);
    if (this.isNewest(path, sha256)) return;
    const object = this.objectPath(sha256);
    if (!(await exists(object))) {
      await writeObject(object, async (temp) => {
        await copyFile(absolute, temp);
        // The file may have moved under the copy: only bytes matching their name are kept.
        if ((await hashFile(temp)).sha256 !== sha256) throw new Error(`${path} changed while it was kept.`);
      });
    }
    this.record(path, sha256, size, source);
  }

  /** Whether these contents are kept already (under any path). */
  holds(sha256: string): boolean {
    return this.db.prepare('SELECT 1 FROM versions WHERE sha256 = ? LIMIT 1').get(sha256) !== undefined;
  }

  /** Versions of one path (matched like the sync matches names), or of every path; newest first. */
  list(path?: string): VersionRecord[] {
    const rows = (
      path === undefined
        ? this.db.prepare('SELECT id, path, sha256, size, at, source FROM versions ORDER BY id DESC').all()
        : this.db
            .prepare('SELECT id, path, sha256, size, at, source FROM versions WHERE key = ? ORDER BY id DESC')
            .all(pathKey(path))
    ) as Row[];
    return rows.map((row) => ({ ...row, source: row.source === 'remote' ? 'remote' : 'local' }));
  }

  version(id: number): VersionRecord | undefined {
    return this.list().find((v) => v.id === id);
  }

  async bytesOf(version: VersionRecord): Promise<Uint8Array> {
    return readFile(this.objectPath(version.sha256));
  }

  /** Drops versions older than 30 days, then the oldest while the kept contents exceed the cap. */
  prune(): void {
    const gone = new Set<string>();
    const old = this.db
      .prepare('DELETE FROM versions WHERE at < ? RETURNING sha256')
      .all(this.now() - historyDefaults.maxAgeMs) as { sha256: string }[];
    for (const row of old) gone.add(row.sha256);
    const cap = this.capBytes;
    const total = () =>
      (
        this.db
          .prepare(
            'SELECT COALESCE(SUM(size), 0) AS n FROM (SELECT sha256, MAX(size) AS size FROM versions GROUP BY sha256)',
          )
          .get() as { n: number }
      ).n;
    while (total() > cap) {
      const oldest = this.db.prepare('SELECT id, sha256 FROM versions ORDER BY id LIMIT 1').get() as
        { id: number; sha256: string } | undefined;
      if (!oldest) break;
      this.db.prepare('DELETE FROM versions WHERE id = ?').run(oldest.id);
      gone.add(oldest.sha256);
    }
    for (const sha256 of gone) {
      if (!this.holds(sha256)) void rm(this.objectPath(sha256), { force: true });
    }
  }

  close(): void {
    if (this.ownsDb) this.db.close();
  }

  private isNewest(path: string, sha256: string): boolean {
    const row = this.db
      .prepare('SELECT sha256 FROM versions WHERE key = ? ORDER BY id DESC LIMIT 1')
      .get(pathKey(path)) as { sha256: string } | undefined;
    return row?.sha256 === sha256;
  }

  private record(path: string, sha256: string, size: number, source: VersionSource): void {
    this.db
      .prepare('INSERT INTO versions (key, path, sha256, size, at, source) VALUES (?, ?, ?, ?, ?, ?)')
      .run(pathKey(path), path, sha256, size, this.now(), source);
  }

  private objectPath(sha256: string): string {
    return join(this.dir, 'objects', sha256.slice(0, 2), sha256);
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Writes an object through a temp name, so a crash never leaves a partial object under its hash. */
async function writeObject(object: string, fill: (temp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(object), { recursive: true });
  const temp = `${object}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fill(temp);
    await rename(temp, object);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
