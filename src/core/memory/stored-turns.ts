/**
 * The stored turns read back (each with its reply's text and its attachments) and forgotten after a rewind;
 * turn-writer.ts writes them.
 */
import { attachmentsOf } from './attachment-rows';
import type { StoredTurn } from './history-merge';
import type { MemoryDatabase } from './memory-database';
import { replyMessage, withReplyText } from './reply-in-message';
import { parseTurnRow, recordedReply, type TurnRecord, type TurnRow } from './turn-record';

/** The stored turns of a conversation, in order; only those started from `since` (epoch ms) when given. */
export function storedTurns(db: MemoryDatabase, conversationId: string, since?: number): StoredTurn[] {
  const rows = db
    .prepare('SELECT * FROM turns WHERE conversation_id = ? AND started_at >= ? ORDER BY started_at')
    .all(conversationId, since ?? Number.MIN_SAFE_INTEGER) as TurnRow[];
  const attachments = attachmentsOf(db, conversationId);
  return rows.map((row) => {
    const record = readRecord(db, conversationId, row);
    return {
      userText: row.user_text,
      replyText: recordedReply(record.events),
      detail: {
        turnId: row.turn_id,
        startedAt: row.started_at,
        ...(record.state ? { state: record.state } : {}),
        events: record.events,
        ...(record.usage ? { usage: record.usage } : {}),
        ...(record.models ? { models: record.models } : {}),
        ...(record.title ? { title: record.title } : {}),
        attachments: attachments.get(row.turn_id) ?? [],
      },
    };
  });
}

/** A turn's fold as last written, to go on folding events that arrive after a restart. */
export function loadTurn(db: MemoryDatabase, conversationId: string, turnId: string): TurnRecord | null {
  const row = db
    .prepare('SELECT * FROM turns WHERE conversation_id = ? AND turn_id = ?')
    .get(conversationId, turnId) as TurnRow | undefined;
  return row ? readRecord(db, conversationId, row) : null;
}

/** A stored row's fold, its reply's text taken back from the message that holds it. */
function readRecord(db: MemoryDatabase, conversationId: string, row: TurnRow): TurnRecord {
  const record = parseTurnRow(row);
  if (!record.replyInMessage) return record;
  const text = replyMessage(db, conversationId, row.turn_id) ?? '';
  return { ...record, events: withReplyText(record.events, text), replyInMessage: false };
}

/** The latest `models` event stored for the conversation, so the picker is there before the next turn. */
export function latestModels(db: MemoryDatabase, conversationId: string): Record<string, unknown> | null {
  const row = db
    .prepare(
      `SELECT json_extract(record, '$.models') AS models FROM turns
       WHERE conversation_id = ? AND json_extract(record, '$.models') IS NOT NULL
       ORDER BY started_at DESC LIMIT 1`,
    )
    .get(conversationId) as { models: string } | undefined;
  return row ? (JSON.parse(row.models) as Record<string, unknown>) : null;
}

/** What a rewind cut: the start time it cut from and the stored turns it deleted. */
export interface RewindCut {
  startedAt: number;
  turnIds: string[];
}

/**
 * A rewind cut the conversation back to its first `position` messages (our service's extension; `at` is the
 * server's time of the first message cut): the turns from there on answered
 * messages that are now an earlier version, so their detail must not be laid beside the new ones. Returns
 * the start time it cut from and the turns it deleted, so the recorder forgets the same ones.
 */
export function forgetTurnsFrom(
  db: MemoryDatabase,
  conversationId: string,
  position: number,
  at: number,
): RewindCut {
  return db.transaction(() => {
    // The first turn the stored text names from that position on; else the server's time of that message.
    const named = db
      .prepare(
        `SELECT MIN(t.started_at) AS s FROM messages m JOIN turns t
         ON t.conversation_id = m.conversation_id AND t.turn_id = m.turn_id
         WHERE m.conversation_id = ? AND m.position >= ?`,
      )
      .get(conversationId, position) as { s: number | null };
    const startedAt = named.s ?? at;
    const turnIds = (
      db
        .prepare('SELECT turn_id FROM turns WHERE conversation_id = ? AND started_at >= ?')
        .all(conversationId, startedAt) as { turn_id: string }[]
    ).map((row) => row.turn_id);
    for (const turnId of turnIds) deleteTurn(db, conversationId, turnId);
    return { startedAt, turnIds };
  })();
}

/** One turn a rewind forgot, written after it by the writer thread (it had been handed over before). */
export function forgetTurn(db: MemoryDatabase, conversationId: string, turnId: string): void {
  db.transaction(() => deleteTurn(db, conversationId, turnId))();
}

/** A turn's row and its attachments' (inside the caller's transaction). */
function deleteTurn(db: MemoryDatabase, conversationId: string, turnId: string): void {
  db.prepare('DELETE FROM attachments WHERE conversation_id = ? AND turn_id = ?').run(conversationId, turnId);
  db.prepare('DELETE FROM turns WHERE conversation_id = ? AND turn_id = ?').run(conversationId, turnId);
}
