import Database from 'libsql';
import {
  copyFileSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sqliteFileProblem } from '../../../src/shared/storage/sqlite-check';

// A store caught in the middle of a checkpoint (its process killed, or closed while another connection
// still had it) is not damaged: its first page already counts pages that only its write-ahead log holds,
// and SQLite's next open finishes the checkpoint. Real SQLite files made by libsql; the cut checkpoint is
// made as SQLite's own writes it: the log's newest first page copied over the file's first page.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-check-wal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const access = { fs, open: (path: string) => new Database(path) };
const ROWS = 400;

/** Copies of a store's file and log taken while its connection holds 400 rows in the log alone. */
function cutCheckpoint(): { file: string; pageSize: number } {
  const live = join(dir, 'live.db');
  const db = new Database(live);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (body TEXT)');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < ROWS; i += 1) insert.run('x'.repeat(1000));
  const file = join(dir, 'cut.db');
  copyFileSync(live, file);
  copyFileSync(`${live}-wal`, `${file}-wal`);
  db.close();

  const pageSize = readFileSync(file).readUInt16BE(16);
  const log = readFileSync(`${file}-wal`);
  let firstPage: Buffer | null = null;
  for (let at = 32; at + 24 + pageSize <= log.length; at += 24 + pageSize)
    if (log.readUInt32BE(at) === 1) firstPage = log.subarray(at + 24, at + 24 + pageSize);
  expect(firstPage).not.toBeNull();
  const fd = openSync(file, 'r+');
  writeSync(fd, firstPage!, 0, pageSize, 0);
  closeSync(fd);
  return { file, pageSize };
}

it('a checkpoint cut short, its log beside it, passes the check, and SQLite reads every row', () => {
  const { file, pageSize } = cutCheckpoint();
  const counted = readFileSync(file).readUInt32BE(28);
  expect(counted * pageSize).toBeGreaterThan(statSync(file).size); // the state the old check refused
  expect(sqliteFileProblem(file, access)).toBeNull();
  const db = new Database(file);
  expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(ROWS);
  db.close();
});

it('the same file without its log is cut short, and says so', () => {
  const { file } = cutCheckpoint();
  rmSync(`${file}-wal`);
  expect(sqliteFileProblem(file, access)).toMatch(/^the file is cut short \(its header counts \d+ pages/);
});

it('a store another connection holds locked is in use, not damaged', () => {
  const file = join(dir, 'held.db');
  const holder = new Database(file);
  holder.exec('CREATE TABLE t (body TEXT)');
  holder.exec('BEGIN EXCLUSIVE');
  holder.exec("INSERT INTO t (body) VALUES ('held')");
  try {
    expect(sqliteFileProblem(file, { ...access, busyWaitMs: 100 })).toBeNull();
  } finally {
    holder.exec('COMMIT');
    holder.close();
  }
});
