import type { MemoryDatabase } from './memory-database';

/** The longest indexed part, in characters; migration 005's triggers index a message up to this long as it is written. */
export const PART_CHARS = 16_384;

interface PendingMessage {
  id: number;
  /** Where the next part starts, in characters (code points, as SQLite's substr counts). */
  index_from: number;
  length: number;
}

/**
 * Indexes long messages (over PART_CHARS) for search in parts, one part per transaction, yielding to
 * the event loop between parts: a 1 MB reply costs the host many ~5 ms steps instead of one long block.
 * A part is a span of the message's own text (message_spans), never a copy of it, and each step reads
 * only its window of the text. Progress is on disk (`messages.index_from`), so a quit mid-way resumes
 * at the next start.
 */
export class MessageIndexer {
  private active = false;
  private done: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly db: MemoryDatabase) {}

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
      while (message && !this.stopped) {
        const end = this.indexPart(message);
        if (end !== null && end < message.length) message.index_from = end;
        else message = undefined;
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.stopped) return;
        message ??= this.next();
      }
    } finally {
      this.active = false;
    }
  }

  private next(): PendingMessage | undefined {
    return this.db
      .prepare(
        `SELECT id, index_from, length(content) AS length FROM messages
         WHERE index_from IS NOT NULL ORDER BY id LIMIT 1`,
      )
      .get() as PendingMessage | undefined;
  }

  /**
   * Indexes the next part of `message` and returns where it ended, or null when the message changed
   * meanwhile (then it is read again).
   */
  private indexPart(message: PendingMessage): number | null {
    return this.db.transaction(() => {
      const window = this.db
        .prepare('SELECT substr(content, ? + 1, ?) AS text FROM messages WHERE id = ? AND index_from = ?')
        .get(message.index_from, PART_CHARS, message.id, message.index_from) as { text: string } | undefined;
      if (!window) return null;
      const last = message.index_from + PART_CHARS >= message.length;
      const text = window.text.slice(0, partEnd(window.text, last));
      const length = codePoints(text);
      const end = message.index_from + length;
      this.db
        .prepare('UPDATE messages SET index_from = ? WHERE id = ?')
        .run(end < message.length ? end : null, message.id);
      const span = this.db
        .prepare('INSERT INTO message_spans (message_id, start, length) VALUES (?, ?, ?)')
        .run(message.id, message.index_from, length);
      this.db.prepare('INSERT INTO parts_fts (rowid, content) VALUES (?, ?)').run(span.lastInsertRowid, text);
      return end;
    })() as number | null;
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

/** Characters as SQLite counts them: a surrogate pair is one. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) pairs += 1;
  }
  return text.length - pairs;
}
