/**
 * Opens a folder's state database (bases, conflicts, settings and the version history's index, one
 * file): a file that fails the SQLite check at open (cut short, random bytes, a wrong header; the
 * check the memory store and the service run) is never trusted (issue 38). It is set aside under a
 * dated name, untouched, with its `-wal` and `-shm`, and a new one starts empty, so the next sync is a
 * first sync: a full comparison that deletes nothing on either side. The new file keeps a note of it
 * until a sync says so (`takeSetAsideNote`), whichever process found it (the CLI's history, the app).
 */
import Database from 'libsql';
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { sqliteFileProblem } from '../../../shared/storage/sqlite-check';
import { keepTransactionErrors } from '../../../shared/storage/sqlite-transaction';
import type { SetAside } from '../../../shared/words/set-aside-words';
import { setAsideSync } from '../../common/set-aside';
import { createSchema } from './sync-state-schema';

type SqliteDatabase = InstanceType<typeof Database>;

/** Above this size only the header and size are checked: quick_check reads every page at each open. */
const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;
const NOTE = 'set_aside';

/** The folder's state database at `file`, checked first, its tables made (WAL, busy timeout). */
export function openStateDatabase(file: string): SqliteDatabase {
  fs.mkdirSync(dirname(file), { recursive: true });
  const problem = sqliteFileProblem(file, {
    fs,
    open: (path) => new Database(path),
    quickCheckMaxBytes: QUICK_CHECK_MAX_BYTES,
  });
  const movedTo = problem ? setAsideSync(file, ['-wal', '-shm']) : undefined;
  const db = keepTransactionErrors(new Database(file));
  // The app and the CLI may both have this folder's state open: wait for the other's write.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  createSchema(db);
  if (problem && movedTo) {
    const note: SetAside = { problem, movedTo };
    db.prepare('INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)').run(NOTE, JSON.stringify(note));
  }
  return db;
}

/** The state found damaged and set aside at some open, once: the note is removed as it is read. */
export function takeSetAsideNote(db: SqliteDatabase): SetAside | undefined {
  return parseNote(
    db.prepare('DELETE FROM settings WHERE name = ? RETURNING value').get(NOTE) as
      { value: string } | undefined,
  );
}

/** The same note, left for the next sync to tell (a command that only reads the state, such as the history). */
export function peekSetAsideNote(db: SqliteDatabase): SetAside | undefined {
  return parseNote(
    db.prepare('SELECT value FROM settings WHERE name = ?').get(NOTE) as { value: string } | undefined,
  );
}

function parseNote(row: { value: string } | undefined): SetAside | undefined {
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as SetAside;
  } catch {
    return undefined;
  }
}
