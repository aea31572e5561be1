import type { ForkPoint, MessageText } from '../../shared/api';
import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';
import { refuse, success, type Outcome } from '../outcome';
import type { ConversationRow, ConversationStore } from './conversation-store';

/** Where a fork ends in the original (`ForkPoint`): its first messages, or every message through a turn. */
export type { ForkPoint };

/** The new conversation, or `invalid_point` when the fork point names no message or turn of the original. */
export type ForkOutcome = Outcome<{ id: string; title: string }, 'invalid_point'>;

/**
 * Forked conversations (our extension, migration 006): a new conversation of the same agent and person
 * that starts with a copy of the original's messages up to a point, keeps its model, and gives those
 * messages to the agent when it opens a session for the fork (the agent never saw them there).
 */
export function createConversationForks(db: ServiceDatabase, store: ConversationStore) {
  const q = {
    count: prepare(db, 'SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?'),
    seqAt: prepare(db, 'SELECT seq FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT 1 OFFSET ?'),
    lastOfTurn: prepare(db, 'SELECT MAX(seq) AS seq FROM messages WHERE conversation_id = ? AND turn_id = ?'),
    copy: prepare(
      db,
      `INSERT INTO messages (conversation_id, turn_id, role, content, at)
       SELECT CAST(? AS TEXT), NULL, role, content, at FROM messages WHERE conversation_id = ? AND seq <= ? ORDER BY seq`,
    ),
    record: prepare(
      db,
      'INSERT INTO conversation_forks (conversation_id, forked_from, seed_messages) VALUES (?, ?, ?)',
    ),
    seedCount: prepare(db, 'SELECT seed_messages FROM conversation_forks WHERE conversation_id = ?'),
    seed: prepare(db, 'SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT ?'),
    titleAndModel: prepare(db, 'UPDATE conversations SET title = ?, model = ?, updated_at = ? WHERE id = ?'),
    // A rewound conversation that was no fork records itself as its origin.
    reseed: prepare(
      db,
      `INSERT INTO conversation_forks (conversation_id, forked_from, seed_messages) VALUES (?, ?, ?)
       ON CONFLICT (conversation_id) DO UPDATE SET seed_messages = excluded.seed_messages`,
    ),
  };

  /** The `seq` of the last message the fork keeps, or why the point names none. */
  async function lastKept(from: ConversationRow, at: ForkPoint, trx: Executor): Promise<number | string> {
    if ('turnId' in at) {
      const row = (await q.lastOfTurn.on(trx).get(from.id, at.turnId)) as { seq: number | null };
      return row.seq ?? 'this conversation has no message of that turnId';
    }
    const total = ((await q.count.on(trx).get(from.id)) as { n: number }).n;
    if (total === 0) return 'this conversation has no messages to fork';
    if (at.firstMessages > total)
      return `firstMessages must be from 1 to ${total}, the number of messages in this conversation`;
    return ((await q.seqAt.on(trx).get(from.id, at.firstMessages - 1)) as { seq: number }).seq;
  }

  return {
    async fork(from: ConversationRow, at: ForkPoint, now: number): Promise<ForkOutcome> {
      const title = `${from.title ?? 'Conversation'} (branch)`;
      // In the store's write order: a fork made right after a turn ended keeps its reply.
      const made = await store.atomic(async (trx) => {
        const last = await lastKept(from, at, trx);
        if (typeof last === 'string') return refuse('invalid_point', last);
        const created = await store.create(from.agent_id, from.person_id, now, trx);
        const copied = (await q.copy.on(trx).run(created, from.id, last)).changes;
        await q.record.on(trx).run(created, from.id, copied);
        await q.titleAndModel.on(trx).run(title, from.model, now, created);
        return success({ id: created, title });
      });
      return made;
    },

    /**
     * A rewind (conversation-versions.ts): the agent's next new session here is given the first `count`
     * messages, as a fork's first session is given what it carried over.
     */
    async reseed(conversationId: string, count: number, trx: Executor): Promise<void> {
      await q.reseed.on(trx).run(conversationId, conversationId, count);
    },

    /** The messages a fork carried over, for the agent's first session in it; undefined if not a fork. */
    async seedOf(conversationId: string): Promise<MessageText[] | undefined> {
      const row = (await q.seedCount.get(conversationId)) as { seed_messages: number } | undefined;
      if (!row || row.seed_messages === 0) return undefined;
      return (await q.seed.all(conversationId, row.seed_messages)) as MessageText[];
    },
  };
}

export type ConversationForks = ReturnType<typeof createConversationForks>;
