import type { StoredMessage } from '../../shared/api';
import type { HistoryMessage } from './history-merge';
import { mergeIndex } from './index-merge';
import type { MemoryDatabase } from './memory-database';
import { keepReplies } from './reply-in-message';

/** A downloaded history as the host hands it to the writer thread (in parts: memory-writer.ts). */
export interface HistoryWrite {
  agentId: string;
  conversationId: string;
  /** The server's messages from position `skipped` on. */
  messages: readonly HistoryMessage[];
  skipped: number;
  /** The server state a whole history (`skipped` 0) is stored for. */
  version?: string | undefined;
  /**
   * When its download began (this computer's clock). A message the app recorded live after that (a turn
   * that ended while the history was on its way) is newer than the history: it neither replaces nor removes
   * it, and the next download holds it.
   */
  fetchedAt?: number | undefined;
}

/** One message of a history slice as it is stored: its position, role, text, time and turn. */
type SliceRow = [position: number, role: string, content: string, at: number, turnId: string | null];

/**
 * A downloaded history, handed to the writer thread (memory-writer.ts), written there a slice at a
 * time, one transaction each: none of it runs on the host's event loop (the search index costs about
 * 0.6 ms of CPU per KB of text, so a conversation of 500,000 messages in one transaction would hold a
 * thread for a minute), and the host's own small writes wait at most one slice for the file. A message
 * already stored as it is (same role, text, time and turn) is left alone, so a long conversation that grew
 * by one turn costs that turn, not the whole history again.
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
function writeSlice(
  db: MemoryDatabase,
  conversationId: string,
  rows: readonly SliceRow[],
  fetchedAt: number,
): void {
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
      if (old && recordedSince(old, fetchedAt)) continue;
      if (old) remove.run(conversationId, position);
      insert.run(conversationId, position, role, content, at, turnId);
    }
  })();
}

/**
 * After the last slice: the messages past the history's `end` are deleted and, for a whole history
 * (`version` given, or null for one without), the conversation counts as stored for that server state.
 */
function finishHistory(
  db: MemoryDatabase,
  conversationId: string,
  end: number,
  version: string | null | undefined,
  fetchedAt: number,
): void {
  db.transaction(() => {
    db.prepare(
      `DELETE FROM messages WHERE conversation_id = ? AND position >= ?
       AND NOT (turn_id IS NOT NULL AND at > ?)`,
    ).run(conversationId, end, fetchedAt);
    if (version !== undefined) markFullHistory(db, conversationId, version);
  })();
}

/** A message of a live turn the app recorded after the history's download began (HistoryWrite.fetchedAt). */
function recordedSince(row: StoredRow, fetchedAt: number): boolean {
  return row.turn_id !== null && row.at > fetchedAt;
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
 * Writes a downloaded history (the writer thread, memory-writer-thread.ts, once it has all of it):
 * the conversation's row, the turns whose reply a replaced message held (reply-in-message.ts), then the
 * messages at positions `skipped` onwards slice by slice, each slice one transaction with a few index merge
 * steps after it and the thread's event loop free between them, then the end. Stops between slices once
 * `stopped` says so (what was written stays, the history does not count as stored); false then.
 */
export async function writeHistory(
  db: MemoryDatabase,
  history: HistoryWrite,
  stopped: () => boolean,
): Promise<boolean> {
  const { agentId, conversationId, messages, skipped } = history;
  // Without a time, as before: the history replaces whatever the store holds.
  const fetchedAt = history.fetchedAt ?? Number.MAX_SAFE_INTEGER;
  db.prepare(
    `INSERT INTO conversations (id, agent_id) VALUES (?, ?)
     ON CONFLICT (id) DO UPDATE SET agent_id = excluded.agent_id WHERE agent_id IS NOT excluded.agent_id`,
  ).run(conversationId, agentId);
  const kept = keepReplies(db, conversationId, skipped, messages);
  for (const [from, to] of historySlices(messages)) {
    if (stopped()) return false;
    const rows: SliceRow[] = [];
    for (let index = from; index < to; index++) {
      const message = messages[index]!;
      const position = skipped + index;
      const turnId = message.turnId ?? kept.get(position) ?? null;
      rows.push([position, message.role, message.content, message.at, turnId]);
    }
    writeSlice(db, conversationId, rows, fetchedAt);
    // What the slice added to the search index is merged in bounded steps (index-merge.ts).
    await mergeIndex(db, SLICE_MERGE_STEPS, stopped);
  }
  if (stopped()) return false;
  finishHistory(
    db,
    conversationId,
    skipped + messages.length,
    skipped === 0 ? (history.version ?? null) : undefined,
    fetchedAt,
  );
  return true;
}
