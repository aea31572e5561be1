/**
 * Conflict resolutions asked for by a process that does not hold the folder (`agentdesk sync
 * resolve` while the app or another terminal syncs it). Only the holder may touch the folder and
 * the agent, so the request goes into the folder's shared state; the holder settles it and writes
 * the outcome back, which the asking process waits for.
 */
import type Database from 'libsql';
import type { SyncConflictChoice as ConflictChoice } from '../../../shared/bridge';

type SqliteDatabase = InstanceType<typeof Database>;

const schema = `
CREATE TABLE IF NOT EXISTS resolve_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL,
  choice TEXT NOT NULL,
  at INTEGER NOT NULL,
  answered_at INTEGER,
  resolved INTEGER,
  message TEXT
);`;

export interface ResolveRequest {
  id: number;
  key: string;
  choice: ConflictChoice;
}

export interface ResolveAnswer {
  resolved: boolean;
  message?: string;
}

/** Requests older than this are dropped when the next one is filed (the asker gave up long ago). */
const requestLifeMs = 10 * 60 * 1000;

export class ResolveRequests {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(schema);
  }

  /** Files a request; its id is what `answerOf` is asked with. */
  ask(key: string, choice: ConflictChoice, now = Date.now()): number {
    this.db.prepare('DELETE FROM resolve_requests WHERE at < ?').run(now - requestLifeMs);
    const result = this.db
      .prepare('INSERT INTO resolve_requests (key, choice, at) VALUES (?, ?, ?)')
      .run(key, choice, now);
    return Number(result.lastInsertRowid);
  }

  /** Requests not answered yet, oldest first. */
  pending(): ResolveRequest[] {
    return this.db
      .prepare('SELECT id, key, choice FROM resolve_requests WHERE answered_at IS NULL ORDER BY id')
      .all() as ResolveRequest[];
  }

  answer(id: number, answer: ResolveAnswer, now = Date.now()): void {
    this.db
      .prepare('UPDATE resolve_requests SET answered_at = ?, resolved = ?, message = ? WHERE id = ?')
      .run(now, answer.resolved ? 1 : 0, answer.message ?? null, id);
  }

  /** The asker gave up waiting: the holder will not act on it any more (unless it already began). */
  withdraw(id: number, now = Date.now()): void {
    this.db
      .prepare(
        "UPDATE resolve_requests SET answered_at = ?, resolved = 0, message = 'withdrawn' WHERE id = ? AND answered_at IS NULL",
      )
      .run(now, id);
  }

  /** The holder's answer, once there is one. */
  answerOf(id: number): ResolveAnswer | undefined {
    const row = this.db
      .prepare('SELECT answered_at, resolved, message FROM resolve_requests WHERE id = ?')
      .get(id) as { answered_at: number | null; resolved: number; message: string | null } | undefined;
    if (!row?.answered_at) return undefined;
    return { resolved: row.resolved === 1, ...(row.message ? { message: row.message } : {}) };
  }
}
