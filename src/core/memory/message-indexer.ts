import { mergeIndex, mergeIndexInSteps } from './index-merge';
import { newestShard, shardTable } from './index-shards';
import type { MemoryDatabase } from './memory-database';

/** The longest indexed part, in characters; migration 005's triggers index a message up to this long as it is written. */
export const PART_CHARS = 16_384;

interface PendingMessage {
  id: number;
  content: string;
  /** Where the next part starts, in characters (code points, as SQLite's substr counts: spans use them). */
  from: number;
  /** The same place as an index into `content` (UTF-16 units). */
  at: number;
}

/**
 * Indexes long messages (over PART_CHARS) for search in parts, one part per transaction, yielding to
 * the event loop between parts: a 1 MB reply costs the host many small steps instead of one long block.
 * A part is a span of the message's own text (message_spans), never a copy of it; the message is read
 * once when its indexing starts. Progress is on disk in `index_queue` (a small row: advancing it never
 * rewrites the message), so a quit mid-way resumes at the next start.
 */
export class MessageIndexer {
  private active = false;
  private done: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly db: MemoryDatabase) {
    mergeIndexInSteps(db);
  }

  /** Starts indexing what is pending, unless it already runs (then it sees new messages too). */
  start(): Promise<void> {
    if (!this.active && !this.stopped) {
      this.active = true;
      this.done = this.run();
    }
    return this.done;
  }

  /** Stops after the current part (the store is closing); the rest waits for the next start. */
  stop(): void {
    this.stopped = true;
  }

  private async run(): Promise<void> {
    try {
      // Never inside the caller's write: the first part waits for the next turn of the event loop too.
      await new Promise<void>((resolve) => setImmediate(resolve));
      let message = this.stopped ? undefined : this.next();
      while (!this.stopped) {
        while (message && !this.stopped) {
          if (!this.indexPart(message) || message.at >= message.content.length) message = undefined;
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (this.stopped) return;
          message ??= this.next();
        }
        // Caught up: merge what the writes added to the index, a bounded step at a time; a message
        // queued meanwhile is indexed next.
        await mergeIndex(this.db, Infinity, () => this.stopped);
        message = this.stopped ? undefined : this.next();
        if (!message) return;
      }
    } finally {
      this.active = false;
    }
  }

  private next(): PendingMessage | undefined {
    const row = this.db
      .prepare(
        `SELECT q.message_id AS id, q.next_from AS next_from, m.content AS content FROM index_queue q
         JOIN messages m ON m.id = q.message_id ORDER BY q.message_id LIMIT 1`,
      )
      .get() as { id: number; next_from: number; content: string } | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      content: row.content,
      from: row.next_from,
      at: unitIndex(row.content, row.next_from),
    };
  }

  /**
   * Indexes the next part of `message` and moves its place on; false when the message changed or left
   * meanwhile (then the queue is read again).
   */
  private indexPart(message: PendingMessage): boolean {
    const window = message.content.slice(message.at, message.at + 2 * PART_CHARS);
    const windowChars = unitIndex(window, PART_CHARS);
    const last = message.at + windowChars >= message.content.length;
    const text = window.slice(0, partEnd(window.slice(0, windowChars), last));
    const length = codePoints(text);
    const done = this.db.transaction(() => {
      const moved = last
        ? this.db
            .prepare('DELETE FROM index_queue WHERE message_id = ? AND next_from = ?')
            .run(message.id, message.from)
        : this.db
            .prepare('UPDATE index_queue SET next_from = ? WHERE message_id = ? AND next_from = ?')
            .run(message.from + length, message.id, message.from);
      if (moved.changes === 0) return false;
      const shard = newestShard(this.db);
      const span = this.db
        .prepare('INSERT INTO message_spans (message_id, start, length, shard) VALUES (?, ?, ?, ?)')
        .run(message.id, message.from, length, shard);
      const table = shardTable(shard);
      this.db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`).run(span.lastInsertRowid, text);
      return true;
    })() as boolean;
    if (done) {
      message.from += length;
      message.at += text.length;
    }
    return done;
  }
}

/**
 * How much of `window` (the next PART_CHARS characters of a message) the part takes: all of it when
 * it is the message's last, else up to a space or newline in its second half, so no word is cut in two.
 */
export function partEnd(window: string, last: boolean): number {
  if (last) return window.length;
  const cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
  return cut > window.length / 2 ? cut + 1 : window.length;
}

/** Where `text`'s first `chars` characters (code points) end, as an index into the string. */
function unitIndex(text: string, chars: number): number {
  let at = 0;
  for (let n = 0; n < chars && at < text.length; n++) {
    const code = text.charCodeAt(at);
    at += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  }
  return at;
}

/** Characters as SQLite counts them: a surrogate pair is one. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) pairs += 1;
  }
  return text.length - pairs;
}
