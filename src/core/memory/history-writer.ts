import type { StoredMessage } from '../../shared/api';
import type { HistoryMessage } from './history-merge';
import { mergeIndex } from './index-merge';
import type { MemoryDatabase } from './memory-database';

/**
 * A downloaded history written a slice at a time, one transaction each, with the event loop free in
 * between: the search index costs about 0.6 ms of CPU per KB of text, so a conversation of 500,000
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
const SLICE_MERGE_STEPS = 4;

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
 * Writes `messages` at positions `skipped` onwards, slice by slice; `turnIdOf` gives each one's turn.
 * Resolves false when `signal` aborted it between slices (what was written stays; the rest is left).
 */
export async function writeHistoryInSlices(
  db: MemoryDatabase,
  conversationId: string,
  messages: readonly HistoryMessage[],
  skipped: number,
  turnIdOf: (position: number, message: HistoryMessage) => string | null,
  signal?: AbortSignal,
): Promise<boolean> {
  const read = db.prepare(
    `SELECT position, role, content, at, turn_id FROM messages
     WHERE conversation_id = ? AND position >= ? AND position < ?`,
  );
  const remove = db.prepare('DELETE FROM messages WHERE conversation_id = ? AND position = ?');
  const insert = db.prepare(
    'INSERT INTO messages (conversation_id, position, role, content, at, turn_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [from, to] of historySlices(messages)) {
    if (signal?.aborted) return false;
    db.transaction(() => {
      const rows = read.all(conversationId, skipped + from, skipped + to) as StoredRow[];
      const stored = new Map(rows.map((row) => [row.position, row]));
      for (let index = from; index < to; index++) {
        const message = messages[index]!;
        const position = skipped + index;
        const turnId = turnIdOf(position, message);
        const old = stored.get(position);
        const same =
          old?.role === message.role &&
          old.content === message.content &&
          old.at === message.at &&
          old.turn_id === turnId;
        if (same) continue;
        if (old) remove.run(conversationId, position);
        insert.run(conversationId, position, message.role, message.content, message.at, turnId);
      }
    })();
    await new Promise<void>((resolve) => setImmediate(resolve));
    // What the slice added to the search index is merged in steps of its own (index-merge.ts).
    await mergeIndex(db, SLICE_MERGE_STEPS, () => signal?.aborted === true);
  }
  return !signal?.aborted;
}
