import { randomUUID } from 'node:crypto';
import type { StoredMessage } from '../../shared/api';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { refuse, success, type Outcome } from '../outcome';
import type { ConversationForks } from './conversation-forks';
import type { ConversationRow, ConversationStore } from './conversation-store';

/** An earlier version of a conversation: the messages a rewind cut off, from message `from` on. */
export interface StoredVersion {
  id: string;
  from: number;
  messages: StoredMessage[];
  madeAt: number;
}

export type RewindOutcome = Outcome<StoredVersion, 'invalid_point'>;

interface VersionRow {
  id: string;
  from_message: number;
  messages: string;
  nested: string;
  made_at: number;
}

const toVersion = (row: VersionRow): StoredVersion => ({
  id: row.id,
  from: row.from_message,
  messages: JSON.parse(row.messages) as StoredMessage[],
  madeAt: row.made_at,
});

/**
 * Conversation versions (our extension, migration 008): a rewind cuts a conversation back to its first
 * `keep` messages and keeps the rest as an earlier version. The messages table stays what the conversation
 * says now, so every reader of it (the agent's seed, the share page, search) sees only the version shown.
 * The agent's next new session is given the kept messages through the fork's seed (conversation-forks.ts).
 */
export function createConversationVersions(
  db: ServiceDatabase,
  store: ConversationStore,
  forks: ConversationForks,
) {
  const q = {
    count: prepare(db, 'SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?'),
    seqAt: prepare(db, 'SELECT seq FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT 1 OFFSET ?'),
    from: prepare(
      db,
      'SELECT role, content, at FROM messages WHERE conversation_id = ? AND seq >= ? ORDER BY seq',
    ),
    cut: prepare(db, 'DELETE FROM messages WHERE conversation_id = ? AND seq >= ?'),
    inside: prepare(
      db,
      'SELECT * FROM conversation_versions WHERE conversation_id = ? AND from_message > ? ORDER BY from_message, made_at',
    ),
    dropInside: prepare(
      db,
      'DELETE FROM conversation_versions WHERE conversation_id = ? AND from_message > ?',
    ),
    insert: prepare(
      db,
      `INSERT INTO conversation_versions (id, conversation_id, from_message, messages, nested, made_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    list: prepare(
      db,
      'SELECT * FROM conversation_versions WHERE conversation_id = ? ORDER BY from_message, made_at, id',
    ),
    touch: prepare(db, 'UPDATE conversations SET updated_at = ? WHERE id = ?'),
  };

  return {
    /** Keeps the first `keep` messages of `row`; the rest become an earlier version. */
    rewind(row: ConversationRow, keep: number, now: number): Promise<RewindOutcome> {
      return store.atomic(async (trx) => {
        const total = ((await q.count.on(trx).get(row.id)) as { n: number }).n;
        if (keep >= total)
          return refuse(
            'invalid_point',
            `hasta must be from 0 to ${total - 1}, below the number of messages`,
          );
        const first = ((await q.seqAt.on(trx).get(row.id, keep)) as { seq: number }).seq;
        const messages = (await q.from.on(trx).all(row.id, first)) as StoredMessage[];
        // Versions that had branched inside the cut-off tail travel with it, so none is lost.
        const nested = ((await q.inside.on(trx).all(row.id, keep)) as VersionRow[]).map(toVersion);
        await q.dropInside.on(trx).run(row.id, keep);
        await q.cut.on(trx).run(row.id, first);
        const version: StoredVersion = { id: randomUUID(), from: keep, messages, madeAt: now };
        await q.insert
          .on(trx)
          .run(version.id, row.id, keep, JSON.stringify(messages), JSON.stringify(nested), now);
        await forks.reseed(row.id, keep, trx);
        await q.touch.on(trx).run(now, row.id);
        return success(version);
      });
    },

    /** Every earlier version of a conversation, by where it branched off and then by age. */
    async list(conversationId: string): Promise<StoredVersion[]> {
      return ((await q.list.all(conversationId)) as VersionRow[]).map(toVersion);
    },
  };
}

export type ConversationVersions = ReturnType<typeof createConversationVersions>;
