import type { ConversationSummary } from '../../shared/api';
import type { MemoryDatabase } from './memory-database';

/** What the app last heard of the account's agents and conversations, so they can be read offline. */
export class StoredLists {
  constructor(private readonly db: MemoryDatabase) {}

  /** Keeps a server answer (such as the agent list) as it came. */
  saveSnapshot(key: string, value: unknown): void {
    this.db
      .prepare('INSERT OR REPLACE INTO snapshots (key, value) VALUES (?, ?)')
      .run(key, JSON.stringify(value));
  }

  snapshot<T>(key: string): T | null {
    const row = this.db.prepare('SELECT value FROM snapshots WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  /** An agent's stored conversations, newest first, shaped like the API's list. */
  conversations(agentId: string): ConversationSummary[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.title, COALESCE(c.updated_at, MAX(m.at)) AS updated FROM conversations c
         LEFT JOIN messages m ON m.conversation_id = c.id WHERE c.agent_id = ?
         GROUP BY c.id ORDER BY updated DESC`,
      )
      .all(agentId) as { id: string; title: string | null; updated: number | null }[];
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      updatedAt: r.updated === null ? null : new Date(r.updated).toISOString(),
      lastTurn: null,
    }));
  }

  title(conversationId: string): string | null {
    const row = this.db.prepare('SELECT title FROM conversations WHERE id = ?').get(conversationId) as
      { title: string | null } | undefined;
    return row?.title ?? null;
  }

  /** Whether anything of the conversation is stored here. */
  knows(conversationId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId);
  }

  counts(): { conversations: number; messages: number } {
    const count = (table: string): number =>
      (this.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { conversations: count('conversations'), messages: count('messages') };
  }
}
