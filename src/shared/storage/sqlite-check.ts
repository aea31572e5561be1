/**
 * The check a SQLite store passes before it is trusted (issue 38): the header's magic words, a valid page
 * size, a file that is whole pages and holds every page its header counts unless its write-ahead log holds
 * them (a truncated file fails here), then SQLite's own `PRAGMA quick_check`; both stores run it
 * (service/db/store-check.ts, the app's transcripts in core/memory/memory-database.ts). Each problem is a phrase that names the check, for "… failed its check: <phrase>".
 */

const MAGIC = 'SQLite format 3\0';
const SQLITE_HEADER_BYTES = 100;
/** A write-ahead log's own header; a log no longer than it holds no frame. */
const WAL_HEADER_BYTES = 32;

/**
 * What is wrong with a store's header and size, or null when they hold (an empty file is a new store).
 * `walFrames`: a write-ahead log with frames lies beside it, so the header's page count is not checked:
 * a checkpoint cut short (a kill, a close while another connection still had it open) leaves a first page
 * that counts pages the log holds and the file does not have yet, and SQLite's next open finishes it.
 */
function sqliteHeaderProblem(head: Uint8Array, fileSize: number, walFrames: boolean): string | null {
  if (fileSize === 0) return null;
  if (fileSize < SQLITE_HEADER_BYTES)
    return `the file is cut short (${fileSize} bytes, less than SQLite's ${SQLITE_HEADER_BYTES}-byte header)`;
  const magic = String.fromCharCode(...head.subarray(0, MAGIC.length));
  if (magic !== MAGIC) return 'the header is not SQLite\'s (it does not start with "SQLite format 3")';
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return `the header names no valid page size (${raw})`;
  if (fileSize % pageSize !== 0)
    return `the file is cut short (${fileSize} bytes is not a whole number of ${pageSize}-byte pages)`;
  // The header's page count holds only while its "valid for" number matches the change counter.
  const pages = view.getUint32(28);
  if (!walFrames && view.getUint32(92) === view.getUint32(24) && pages * pageSize > fileSize)
    return `the file is cut short (its header counts ${pages} pages, the file holds ${fileSize / pageSize})`;
  return null;
}

/**
 * How the check reaches a store file: node:fs's calls and libsql's Database, handed in by the Node caller
 * (shared/ imports no Node module); above `quickCheckMaxBytes` only the header and size are checked.
 */
export interface SqliteFileAccess {
  fs: {
    existsSync(path: string): boolean;
    statSync(path: string): { size: number };
    openSync(path: string, flags: 'r'): number;
    readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
    closeSync(fd: number): void;
  };
  open(file: string): { pragma(source: string): unknown; close(): unknown };
  quickCheckMaxBytes?: number;
  /** How long the check waits for another connection's lock (default 5 s). */
  busyWaitMs?: number;
}

/** What is wrong with the store file, or null when it passes (or is empty or not there yet: a new store). */
export function sqliteFileProblem(file: string, access: SqliteFileAccess): string | null {
  const { fs } = access;
  if (!fs.existsSync(file)) return null;
  const size = fs.statSync(file).size;
  if (size === 0) return null;
  const head = new Uint8Array(SQLITE_HEADER_BYTES);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, SQLITE_HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const wal = `${file}-wal`;
  const header = sqliteHeaderProblem(
    head,
    size,
    fs.existsSync(wal) && fs.statSync(wal).size > WAL_HEADER_BYTES,
  );
  if (header || size > (access.quickCheckMaxBytes ?? Infinity)) return header;
  try {
    const db = access.open(file);
    try {
      // Another connection may hold it a moment (a closing writer's last checkpoint): wait, as SQLite would.
      db.pragma(`busy_timeout = ${access.busyWaitMs ?? BUSY_WAIT_MS}`);
      return quickCheckProblem(db.pragma('quick_check') as readonly unknown[]);
    } finally {
      db.close();
    }
  } catch (error) {
    // A file still locked by another connection is in use, not damaged: the store's own open decides.
    if (isBusy(error)) return null;
    return `SQLite could not read it (${(error as Error).message})`;
  }
}

const BUSY_WAIT_MS = 5000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  return error instanceof Error && /database is (locked|busy)/i.test(error.message);
}

/** What `PRAGMA quick_check` found, or null when it answered "ok". */
function quickCheckProblem(rows: readonly unknown[]): string | null {
  const lines = rows.map((row) =>
    row && typeof row === 'object' ? String(Object.values(row)[0]) : String(row),
  );
  if (lines.length === 1 && lines[0] === 'ok') return null;
  return `SQLite's quick_check found: ${lines.slice(0, 3).join('; ') || 'nothing it could read'}`;
}
