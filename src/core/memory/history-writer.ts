import type { StoredMessage } from '../../shared/api';
import type { HistoryMessage } from './history-merge';
import type { MemoryDatabase } from './memory-database';
import type { MemoryWriter, SliceRow } from './memory-writer';

/**
 * A downloaded history written a slice at a time, one transaction each, by the writer thread
 * (memory-writer.ts), so none of it runs on the host's event loop: the search index costs about 0.6 ms of CPU per KB of text, so a conversation of 500,000
 * messages written in one transaction would hold the host for a minute. A message already stored as
 * it is (same role, text, time and turn) is left alone, so a long conversation that grew by one turn
 * costs that turn, not the whole history again.
 */

/**
 * Most text and messages in one slice: about 5 ms of CPU for a slice (16,000 characters), 14 ms at most
 * measured over 1,500,000 messages; with 32,000 a slice took up to 23 ms, too close to a 50 ms stall on a
 * shared CPU.
 */
export const SLICE_CHARS = 16_000;
export const SLICE_MESSAGES = 200;
/** Index merge steps after a slice at most: enough to keep up with what a slice adds. */
export const SLICE_MERGE_STEPS = 4;

/** [from, to) index ranges of `messages`, each within both limits (a longer message is a slice alone). */
export function historySlices(
  messages: readonly Pick<HistoryMessage, 'content'>[],
  maxChars = SLICE_CHARS,
  maxMessages = SLICE_MESSAGES,
): [number, number][] {
  const slices: [number, number][] = [];
  let from = 0;
  let chars = 0;
  messages.forEach((message, index) => {
    const full = index > from && (chars + message.content.length > maxChars || index - from >= maxMessages);
    if (full) {
      slices.push([from, index]);
      from = index;
      chars = 0;
    }
    chars += message.content.length;
  });
  if (from < messages.length) slices.push([from, messages.length]);
  return slices;
}

/** A row of the app's `messages` table. */
type StoredRow = StoredMessage & { position: number; turn_id: string | null };

/**
 * Writes one slice in one transaction (the writer thread, memory-writer-thread.ts): a message stored as
 * it is stays untouched, any other at its position is replaced.
 */
export function writeSlice(db: MemoryDatabase, conversationId: string, rows: readonly SliceRow[]): void {
  if (rows.length === 0) return;
  const first = rows[0]![0];
  const last = rows[rows.length - 1]![0];
  const read = db.prepare(
    `SELECT position, role, content, at, turn_id FROM messages
     WHERE conversation_id = ? AND position >= ? AND position <= ?`,
  );
  const remove = db.prepare('DELETE FROM messages WHERE conversation_id = ? AND position = ?');
  const insert = db.prepare(
    'INSERT INTO messages (conversation_id, position, role, content, at, turn_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    const stored = new Map(
      (read.all(conversationId, first, last) as StoredRow[]).map((r) => [r.position, r]),
    );
    for (const [position, role, content, at, turnId] of rows) {
      const old = stored.get(position);
      if (old?.role === role && old.content === content && old.at === at && old.turn_id === turnId) continue;
      if (old) remove.run(conversationId, position);
      insert.run(conversationId, position, role, content, at, turnId);
    }
  })();
}

/**
 * After the last slice: the messages past the history's `end` are deleted and, for a whole history
 * (`version` given, or null for one without), the conversation counts as stored for that server state.
 */
export function finishHistory(
  db: MemoryDatabase,
  conversationId: string,
  end: number,
  version: string | null | undefined,
): void {
  db.transaction(() => {
    db.prepare('DELETE FROM messages WHERE conversation_id = ? AND position >= ?').run(conversationId, end);
    if (version !== undefined) markFullHistory(db, conversationId, version);
  })();
}

/** The whole history of a conversation is stored, as the server had it at `version`. */
export function markFullHistory(db: MemoryDatabase, conversationId: string, version: string | null): void {
  db.prepare('UPDATE conversations SET history_synced_at = ?, history_version = ? WHERE id = ?').run(
    Date.now(),
    version,
    conversationId,
  );
}

/**
 * Hands `messages` at positions `skipped` onwards to the writer thread, slice by slice, each once the one
 * before is on disk; `turnIdOf` gives each one's turn. Resolves false when `signal` aborted it between
 * slices (what was written stays; the rest is left).
 */
export async function writeHistoryInSlices(
  writer: Pick<MemoryWriter, 'writeSlice'>,
  conversationId: string,
  messages: readonly HistoryMessage[],
  skipped: number,
  turnIdOf: (position: number, message: HistoryMessage) => string | null,
  signal?: AbortSignal,
): Promise<boolean> {
  for (const [from, to] of historySlices(messages)) {
    if (signal?.aborted) return false;
    const rows: SliceRow[] = [];
    for (let index = from; index < to; index++) {
      const message = messages[index]!;
      const position = skipped + index;
      rows.push([position, message.role, message.content, message.at, turnIdOf(position, message)]);
    }
    await writer.writeSlice(conversationId, rows);
  }
  return !signal?.aborted;
}
