import type { MessageText } from '../../shared/api';
import type { ServiceDatabase } from '../db/database';
import { refuse, success, type Outcome } from '../outcome';
import type { ConversationRow, ConversationStore } from './conversation-store';

/** Where a fork ends in the original: its first `hasta` messages, or every message through a turn. */
export type ForkPoint = { hasta: number } | { turnId: string };

/** The new conversation, or `invalid_point` when the fork point names no message or turn of the original. */
export type ForkOutcome = Outcome<{ id: string; title: string }, 'invalid_point'>;

/**
 * Forked conversations (our extension, migration 006): a new conversation of the same agent and person
 * that starts with a copy of the original's messages up to a point, keeps its model, and gives those
 * messages to the agent when it opens a session for the fork (the agent never saw them there).
 */
export function createConversationForks(db: ServiceDatabase, store: ConversationStore) {
  const q = {
    count: db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?'),
    seqAt: db.prepare('SELECT seq FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT 1 OFFSET ?'),
    lastOfTurn: db.prepare('SELECT MAX(seq) AS seq FROM messages WHERE conversation_id = ? AND turn_id = ?'),
    copy: db.prepare(
      `INSERT INTO messages (conversation_id, turn_id, role, content, at)
       SELECT ?, NULL, role, content, at FROM messages WHERE conversation_id = ? AND seq <= ? ORDER BY seq`,
    ),
    record: db.prepare(
      'INSERT INTO conversation_forks (conversation_id, forked_from, seed_messages) VALUES (?, ?, ?)',
    ),
    seedCount: db.prepare('SELECT seed_messages FROM conversation_forks WHERE conversation_id = ?'),
    seed: db.prepare('SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT ?'),
    touch: db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?'),
  };

  /** The `seq` of the last message the fork keeps, or why the point names none. */
  function lastKept(from: ConversationRow, at: ForkPoint): number | string {
    if ('turnId' in at) {
      const row = q.lastOfTurn.get(from.id, at.turnId) as { seq: number | null };
      return row.seq ?? 'this conversation has no message of that turnId';
    }
    const total = (q.count.get(from.id) as { n: number }).n;
    if (total === 0) return 'this conversation has no messages to fork';
    if (at.hasta > total)
      return `hasta must be from 1 to ${total}, the number of messages in this conversation`;
    return (q.seqAt.get(from.id, at.hasta - 1) as { seq: number }).seq;
  }

  return {
    fork(from: ConversationRow, at: ForkPoint, now: number): ForkOutcome {
      const last = lastKept(from, at);
      if (typeof last === 'string') return refuse('invalid_point', last);
      const title = `${from.title ?? 'Conversation'} (branch)`;
      const id = store.atomic(() => {
        const created = store.create(from.agent_id, from.person_id, now);
        const copied = q.copy.run(created, from.id, last).changes;
        q.record.run(created, from.id, copied);
        store.rename(created, title);
        if (from.model) store.setModel(created, from.model);
        q.touch.run(now, created);
        return created;
      });
      return success({ id, title });
    },

    /** The messages a fork carried over, for the agent's first session in it; undefined if not a fork. */
    seedOf(conversationId: string): MessageText[] | undefined {
      const row = q.seedCount.get(conversationId) as { seed_messages: number } | undefined;
      if (!row || row.seed_messages === 0) return undefined;
      return q.seed.all(conversationId, row.seed_messages) as MessageText[];
    },
  };
}

export type ConversationForks = ReturnType<typeof createConversationForks>;
