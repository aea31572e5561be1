import type { ConversationSummary } from '../../shared/api';
import type { MemoryDatabase } from './memory-database';

/** What a conversation's server state is, so an unchanged one is never downloaded twice. */
export function historyVersion(c: ConversationSummary): string {
  return `${c.updatedAt ?? ''}|${c.lastTurn?.turnId ?? ''}|${c.lastTurn?.state ?? ''}`;
}

/** A stored conversation's row, as a list is compared with it. */
interface ConversationRow {
  id: string;
  agent_id: string;
  title: string | null;
  updated_at: number | null;
  history_version: string | null;
  history_synced_at: number | null;
}

/** Writes what a list says of a conversation (an unknown title or time keeps the stored one). */
export const UPSERT_CONVERSATION = `INSERT INTO conversations (id, agent_id, title, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET agent_id = excluded.agent_id,
    title = COALESCE(excluded.title, conversations.title),
    updated_at = COALESCE(excluded.updated_at, conversations.updated_at)`;

/** What the app last heard of the account's agents and conversations, so they can be read offline. */
export class StoredLists {
  constructor(private readonly db: MemoryDatabase) {}

  /**
   * Keeps what an agent's conversation list says (title, last activity) and returns the conversations
   * whose whole history is not stored for the state the list gives (its time and last turn). The page is
   * compared with the store in one query, and only what changed is written, in one transaction: the list
   * is read again every 10 s, and 200 statements each time (a write each) held the host's event loop,
   * each write waiting for the writer thread's transaction when one ran.
   */
  saveConversations(agentId: string, list: readonly ConversationSummary[]): ConversationSummary[] {
    if (list.length === 0) return [];
    const stored = new Map(
      (
        this.db
          .prepare(
            `SELECT id, agent_id, title, updated_at, history_version, history_synced_at FROM conversations
             WHERE id IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(list.map((c) => c.id))) as ConversationRow[]
      ).map((row) => [row.id, row]),
    );
    const changed = list.flatMap((c) => {
      const row = stored.get(c.id);
      const title = c.title ?? row?.title ?? null;
      const at = c.updatedAt ? Date.parse(c.updatedAt) : NaN;
      const updatedAt = Number.isFinite(at) ? at : (row?.updated_at ?? null);
      const same = row && row.agent_id === agentId && row.title === title && row.updated_at === updatedAt;
      return same ? [] : [[c.id, agentId, title, updatedAt] as const];
    });
    if (changed.length > 0) {
      const upsert = this.db.prepare(UPSERT_CONVERSATION);
      this.db.transaction(() => {
        for (const values of changed) upsert.run(...values);
      })();
    }
    return list.filter((c) => {
      const row = stored.get(c.id);
      return !row || row.history_synced_at === null || row.history_version !== historyVersion(c);
    });
  }

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
