import type { RecordedEvent } from '../../shared/bridge/memory';
import type { HistoryMessage } from './history-merge';
import type { MemoryDatabase } from './memory-database';

/**
 * A finished reply's text is stored once, in its message (`messages.content`, which search indexes
 * in place); the turn's record keeps its chunk runs as lengths only, marked `replyIn: 'message'`.
 * Reading the turn puts the text back. Before a server download replaces that message, the text
 * either stays with the turn (the server's message says the same: it takes the turn's id) or goes
 * back into the record, so nothing streamed is ever lost.
 */
export const REPLY_IN_MESSAGE = 'message';

/** The events with each chunk run's text replaced by its length. */
export function withoutReplyText(events: readonly RecordedEvent[]): RecordedEvent[] {
  return events.map((e) =>
    e.event === 'chunk' ? { event: 'chunk', data: { length: String(e.data['text'] ?? '').length } } : e,
  );
}

/** The events with each chunk run's text cut back out of `text` by its length. */
export function withReplyText(events: readonly RecordedEvent[], text: string): RecordedEvent[] {
  let at = 0;
  return events.map((e) => {
    if (e.event !== 'chunk') return e;
    const length = Number(e.data['length'] ?? 0);
    const run = text.slice(at, at + length);
    at += length;
    return { event: 'chunk', data: { text: run } };
  });
}

/** The text of the message that holds a finished turn's reply, or null when it has none. */
export function replyMessage(db: MemoryDatabase, conversationId: string, turnId: string): string | null {
  const row = db
    .prepare(
      `SELECT content FROM messages WHERE conversation_id = ? AND turn_id = ? AND role = 'assistant'
       ORDER BY position DESC LIMIT 1`,
    )
    .get(conversationId, turnId) as { content: string } | undefined;
  return row?.content ?? null;
}

/**
 * Called before the messages of a conversation from `skipped` on are replaced by `incoming` (the
 * server's). Returns the turn ids the new messages keep, by position: where the server says the same
 * as the stored reply. Every other reply held by a message about to go is written back into its record.
 */
export function keepReplies(
  db: MemoryDatabase,
  conversationId: string,
  skipped: number,
  incoming: readonly HistoryMessage[],
): Map<number, string> {
  const holders = db
    .prepare(
      `SELECT m.position, m.turn_id, m.content, t.record FROM messages m
       JOIN turns t ON t.conversation_id = m.conversation_id AND t.turn_id = m.turn_id
       WHERE m.conversation_id = ? AND m.position >= ? AND m.role = 'assistant'
         AND json_extract(t.record, '$.replyIn') = ?`,
    )
    .all(conversationId, skipped, REPLY_IN_MESSAGE) as {
    position: number;
    turn_id: string;
    content: string;
    record: string;
  }[];
  const kept = new Map<number, string>();
  for (const holder of holders) {
    const next = incoming[holder.position - skipped];
    if (next?.role === 'assistant' && next.content === holder.content && !next.turnId) {
      kept.set(holder.position, holder.turn_id);
      continue;
    }
    const record = JSON.parse(holder.record) as { events?: RecordedEvent[]; replyIn?: string };
    const restored = { ...record, events: withReplyText(record.events ?? [], holder.content) };
    delete restored.replyIn;
    db.prepare('UPDATE turns SET record = ? WHERE conversation_id = ? AND turn_id = ?').run(
      JSON.stringify(restored),
      conversationId,
      holder.turn_id,
    );
  }
  return kept;
}
