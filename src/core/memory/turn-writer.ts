import type { AttachmentMeta } from '../../shared/bridge/memory';
import { writeAttachments } from './attachment-rows';
import type { MemoryDatabase } from './memory-database';
import { REPLY_IN_MESSAGE, withoutReplyText } from './reply-in-message';
import { recordedReply, type TurnRecord } from './turn-record';

/** One turn's state to write: its fold so far, the question, and whether the reply is final. */
export interface TurnWrite {
  agentId: string;
  conversationId: string;
  record: TurnRecord;
  userText?: string;
  attachments?: AttachmentMeta[];
}

/** Writes a batch of turns in one transaction (the host's recorder, or the writer thread for a long reply). */
export function writeTurns(db: MemoryDatabase, batch: readonly TurnWrite[]): void {
  db.transaction(() => {
    for (const write of batch) writeTurn(db, write);
  })();
}

/**
 * Writes one turn (inside the caller's transaction). A finished reply joins the conversation's text
 * as its message, and its record then keeps the chunk runs' lengths, not a second copy of the text.
 */
export function writeTurn(db: MemoryDatabase, write: TurnWrite): void {
  const { agentId, conversationId, record, userText, attachments } = write;
  const { events, usage, models, title } = record;
  db.prepare(`INSERT INTO conversations (id, agent_id) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`).run(
    conversationId,
    agentId,
  );
  if (title) db.prepare('UPDATE conversations SET title = ? WHERE id = ?').run(title, conversationId);
  if (attachments?.length) writeAttachments(db, conversationId, record.turnId, attachments);
  if (userText !== undefined)
    appendMessage(db, conversationId, record.turnId, 'user', userText, record.startedAt);
  const inMessage =
    !!record.state &&
    appendMessage(db, conversationId, record.turnId, 'assistant', recordedReply(events), Date.now());
  const stored = inMessage
    ? { events: withoutReplyText(events), usage, models, title, replyIn: REPLY_IN_MESSAGE }
    : { events, usage, models, title };
  db.prepare(
    `INSERT INTO turns (conversation_id, turn_id, started_at, user_text, state, last_event, record)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (conversation_id, turn_id) DO UPDATE SET
       user_text = COALESCE(excluded.user_text, turns.user_text),
       state = excluded.state, last_event = excluded.last_event, record = excluded.record
     -- A fold never replaces one that holds more of the turn (the writer thread's write of it landing late).
     WHERE excluded.last_event >= turns.last_event`,
  ).run(
    conversationId,
    record.turnId,
    record.startedAt,
    userText ?? null,
    record.state ?? null,
    record.lastEvent,
    JSON.stringify(stored),
  );
}

/**
 * A live turn's message joins the stored text once; the next server download replaces it. Returns
 * whether a message of this turn now holds exactly `content`.
 */
function appendMessage(
  db: MemoryDatabase,
  conversationId: string,
  turnId: string,
  role: string,
  content: string,
  at: number,
): boolean {
  // Known when one of the last two messages says it: written before, or already downloaded from the server.
  // Their sizes are compared first: handing SQLite a 1 MB reply costs ~10 ms a time, so only on a match.
  const bytes = Buffer.byteLength(content);
  const sameSize = db
    .prepare(
      `SELECT id, turn_id FROM (SELECT id, role, content, turn_id FROM messages WHERE conversation_id = ?
       ORDER BY position DESC LIMIT 2) WHERE role = ? AND octet_length(content) = ?`,
    )
    .all(conversationId, role, bytes) as { id: number; turn_id: string | null }[];
  const same = db.prepare('SELECT 1 FROM messages WHERE id = ? AND content = ?');
  const known = sameSize.find((row) => same.get(row.id, content) !== undefined);
  if (known) {
    if (known.turn_id === null)
      db.prepare('UPDATE messages SET turn_id = ? WHERE id = ?').run(turnId, known.id);
    return known.turn_id === null || known.turn_id === turnId;
  }
  db.prepare(
    `INSERT INTO messages (conversation_id, position, role, content, at, turn_id)
     SELECT ?, COALESCE(MAX(position), -1) + 1, ?, ?, ?, ? FROM messages WHERE conversation_id = ?`,
  ).run(conversationId, role, content, at, turnId, conversationId);
  return true;
}
