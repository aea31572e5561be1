import type { MemoryDatabase } from './memory-database';

/** The longest indexed part; migration 004's triggers index a message up to this long as it is written. */
export const PART_CHARS = 16_384;

interface PendingMessage {
  id: number;
  content: string;
  index_from: number;
}

/**
 * Indexes long messages (over PART_CHARS) for search in parts, one part per transaction, yielding to
 * the event loop between parts: a 1 MB reply costs the host many ~5 ms steps instead of one long block.
 * Progress is on disk (`messages.index_from`), so a quit mid-way resumes at the next start.
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
        const end = partEnd(message.content, message.index_from);
        if (this.indexPart(message, end) && end < message.content.length) {
          message.index_from = end;
        } else {
          message = undefined;
        }
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
        'SELECT id, content, index_from FROM messages WHERE index_from IS NOT NULL ORDER BY id LIMIT 1',
      )
      .get() as PendingMessage | undefined;
  }

  /** Indexes content[from, end) unless the message changed meanwhile (then it is read again). */
  private indexPart(message: PendingMessage, end: number): boolean {
    return this.db.transaction(() => {
      const moved = this.db
        .prepare('UPDATE messages SET index_from = ? WHERE id = ? AND index_from = ?')
        .run(end < message.content.length ? end : null, message.id, message.index_from);
      if (moved.changes === 0) return false;
      this.db
        .prepare('INSERT INTO message_parts (message_id, content) VALUES (?, ?)')
        .run(message.id, message.content.slice(message.index_from, end));
      return true;
    })() as boolean;
  }
}

/** Where the part starting at `from` ends: at a space near PART_CHARS, so no word is cut in two. */
export function partEnd(content: string, from: number): number {
  const limit = from + PART_CHARS;
  if (limit >= content.length) return content.length;
  const space = content.lastIndexOf(' ', limit - 1);
  const newline = content.lastIndexOf('\n', limit - 1);
  const cut = Math.max(space, newline);
  if (cut > from + PART_CHARS / 2) return cut + 1;
  // No space: cut anyway, but never between the halves of a surrogate pair.
  const code = content.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}
