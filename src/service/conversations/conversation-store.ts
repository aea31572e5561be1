import { randomUUID } from 'node:crypto';
import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';
import { createWriteQueue } from '../db/write-queue';
import { saneStoredPlan } from '../schedules/schedule-rules';
import type { ScheduledItem, ScheduleSource } from '../schedules/scheduler';
import type { MessageRole, StoredMessage, TurnState } from '../../shared/api';
import type { ConversationRow, InterruptedTurnRow, ScheduleRow, TurnSummaryRow } from './conversation-rows';

export type { ConversationRow, InterruptedTurnRow, TurnSummaryRow } from './conversation-rows';

export interface StoredSchedule extends ScheduledItem {
  conversationId: string;
}

// Rows from before the schedule limits are brought within range, so reading them can never fail.
const toSchedule = (row: ScheduleRow): StoredSchedule =>
  saneStoredPlan({
    id: row.id,
    conversationId: row.conversation_id,
    prompt: row.prompt,
    dueAt: row.due_at,
    repeatMin: row.repeat_min,
    until: row.until,
  });

/** Durable state of conversations (migration 002): messages, turns, idempotency, schedules, sharing. */
export function createConversationStore(db: ServiceDatabase) {
  const q = {
    insert: prepare(
      db,
      'INSERT INTO conversations (id, agent_id, person_id, created_at) VALUES (?, ?, ?, ?)',
    ),
    byId: prepare(db, 'SELECT * FROM conversations WHERE id = ? AND agent_id = ? AND archived_at IS NULL'),
    byIdAny: prepare(db, 'SELECT * FROM conversations WHERE id = ? AND archived_at IS NULL'),
    list: prepare(
      db,
      `SELECT * FROM conversations WHERE agent_id = ? AND archived_at IS NULL
       ORDER BY COALESCE(updated_at, created_at) DESC, rowid DESC`,
    ),
    rename: prepare(db, 'UPDATE conversations SET title = ? WHERE id = ?'),
    titleIfEmpty: prepare(db, 'UPDATE conversations SET title = ? WHERE id = ? AND title IS NULL'),
    archive: prepare(db, 'UPDATE conversations SET archived_at = ?, share_slug = NULL WHERE id = ?'),
    touch: prepare(db, 'UPDATE conversations SET updated_at = ? WHERE id = ?'),
    setModel: prepare(db, 'UPDATE conversations SET model = ? WHERE id = ?'),
    modelOf: prepare(db, 'SELECT model FROM conversations WHERE id = ?'),
    setSlug: prepare(db, 'UPDATE conversations SET share_slug = ? WHERE id = ?'),
    bySlug: prepare(db, 'SELECT * FROM conversations WHERE share_slug = ? AND archived_at IS NULL'),
    addMessage: prepare(
      db,
      'INSERT INTO messages (conversation_id, turn_id, role, content, at) VALUES (?, ?, ?, ?, ?)',
    ),
    countMessages: prepare(db, 'SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?'),
    tail: prepare(
      db,
      `SELECT role, content, at FROM
         (SELECT seq, role, content, at FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?)
       AS recent ORDER BY seq`,
    ),
    allMessages: prepare(db, 'SELECT role, content, at FROM messages WHERE conversation_id = ? ORDER BY seq'),
    insertTurn: prepare(
      db,
      `INSERT INTO turns (conversation_id, turn_id, person_id, requester, state, at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    setState: prepare(db, 'UPDATE turns SET state = ?, at = ? WHERE conversation_id = ? AND turn_id = ?'),
    addTokens: prepare(db, 'UPDATE turns SET tokens = ? WHERE conversation_id = ? AND turn_id = ?'),
    lastTurn: prepare(
      db,
      'SELECT turn_id, state, at FROM turns WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    interrupted: prepare(
      db,
      `SELECT conversation_id, turn_id, state FROM turns
       WHERE state IN ('queued', 'running') OR restart_notice = 1 ORDER BY seq`,
    ),
    setNotice: prepare(db, 'UPDATE turns SET restart_notice = ? WHERE conversation_id = ? AND turn_id = ?'),
    findRequest: prepare(
      db,
      'SELECT accepted FROM turn_requests WHERE conversation_id = ? AND request_id = ?',
    ),
    insertRequest: prepare(
      db,
      'INSERT INTO turn_requests (conversation_id, request_id, accepted, created_at) VALUES (?, ?, ?, ?)',
    ),
    schedulesOf: prepare(
      db,
      'SELECT * FROM scheduled_turns WHERE conversation_id = ? ORDER BY due_at, rowid',
    ),
    pendingSchedules: prepare(
      db,
      `SELECT s.* FROM scheduled_turns s JOIN conversations c ON c.id = s.conversation_id
       WHERE c.archived_at IS NULL ORDER BY s.due_at, s.rowid`,
    ),
    insertSchedule: prepare(
      db,
      `INSERT INTO scheduled_turns (id, conversation_id, prompt, due_at, repeat_min, until, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteSchedule: prepare(db, 'DELETE FROM scheduled_turns WHERE id = ? AND conversation_id = ?'),
    deleteScheduleById: prepare(db, 'DELETE FROM scheduled_turns WHERE id = ?'),
    deleteSchedulesOf: prepare(db, 'DELETE FROM scheduled_turns WHERE conversation_id = ?'),
    reschedule: prepare(db, 'UPDATE scheduled_turns SET due_at = ? WHERE id = ?'),
  };

  const queue = createWriteQueue(db);
  const { write, read } = queue;

  const schedules: ScheduleSource<StoredSchedule> = {
    pending: async () =>
      ((await read(undefined, (x) => q.pendingSchedules.on(x).all())) as ScheduleRow[]).map(toSchedule),
    reschedule: (id, dueAt) =>
      write(undefined, (x) => q.reschedule.on(x).run(dueAt, id)).then(() => undefined),
    finish: (id) => write(undefined, (x) => q.deleteScheduleById.on(x).run(id)).then(() => undefined),
  };

  // Every method takes an optional transaction (`on`); without one, writes go through the queue in order
  // and reads wait for the writes queued before them (../db/write-queue.ts).
  return {
    /** Runs `fn` in one transaction, in the order of the writes queued before (all its writes land, or none). */
    atomic: queue.atomic,
    async create(agentId: string, personId: string, now: number, on?: Executor): Promise<string> {
      const id = randomUUID();
      await write(on, (x) => q.insert.on(x).run(id, agentId, personId, now));
      return id;
    },
    /** The live (not archived) conversation of that agent, or null (answer 404). */
    async find(agentId: string, id: string, on?: Executor): Promise<ConversationRow | null> {
      return ((await read(on, (x) => q.byId.on(x).get(id, agentId))) as ConversationRow | undefined) ?? null;
    },
    /** A live conversation by id alone (scheduler, public page). */
    async findAny(id: string, on?: Executor): Promise<ConversationRow | null> {
      return ((await read(on, (x) => q.byIdAny.on(x).get(id))) as ConversationRow | undefined) ?? null;
    },
    async list(agentId: string): Promise<ConversationRow[]> {
      return (await read(undefined, (x) => q.list.on(x).all(agentId))) as ConversationRow[];
    },
    async rename(id: string, title: string): Promise<void> {
      await write(undefined, (x) => q.rename.on(x).run(title, id));
    },
    /** Titles a thread that has no title yet; returns whether it did. */
    async titleIfEmpty(id: string, title: string, on?: Executor): Promise<boolean> {
      return (await write(on, (x) => q.titleIfEmpty.on(x).run(title, id))).changes > 0;
    },
    /** Archiving also unshares and cancels the conversation's scheduled turns. */
    async archive(id: string, now: number): Promise<void> {
      await queue.atomic(async (trx) => {
        await q.archive.on(trx).run(now, id);
        await q.deleteSchedulesOf.on(trx).run(id);
      });
    },
    async setModel(id: string, model: string): Promise<void> {
      await write(undefined, (x) => q.setModel.on(x).run(model, id));
    },
    async modelOf(id: string, on?: Executor): Promise<string | null> {
      const row = (await read(on, (x) => q.modelOf.on(x).get(id))) as { model: string | null } | undefined;
      return row?.model ?? null;
    },
    async setShareSlug(id: string, slug: string | null): Promise<void> {
      await write(undefined, (x) => q.setSlug.on(x).run(slug, id));
    },
    async findShared(slug: string): Promise<ConversationRow | null> {
      return (
        ((await read(undefined, (x) => q.bySlug.on(x).get(slug))) as ConversationRow | undefined) ?? null
      );
    },

    async addMessage(
      conversationId: string,
      turnId: string | null,
      role: MessageRole,
      content: string,
      at: number,
      on?: Executor,
    ): Promise<void> {
      await write(on, async (x) => {
        await q.addMessage.on(x).run(conversationId, turnId, role, content, at);
        await q.touch.on(x).run(at, conversationId);
      });
    },
    /** The last `limit` messages, oldest first, and how many earlier ones were left out. */
    async tail(
      conversationId: string,
      limit: number,
    ): Promise<{ messages: StoredMessage[]; skipped: number }> {
      return read(undefined, async (x) => {
        const total = ((await q.countMessages.on(x).get(conversationId)) as { n: number }).n;
        const messages = (await q.tail.on(x).all(conversationId, limit)) as StoredMessage[];
        return { messages, skipped: total - messages.length };
      });
    },
    async allMessages(conversationId: string, on?: Executor): Promise<StoredMessage[]> {
      return (await read(on, (x) => q.allMessages.on(x).all(conversationId))) as StoredMessage[];
    },

    async insertTurn(
      conversationId: string,
      turnId: string,
      personId: string,
      requester: string,
      state: TurnState,
      at: number,
      on?: Executor,
    ): Promise<void> {
      await write(on, (x) => q.insertTurn.on(x).run(conversationId, turnId, personId, requester, state, at));
    },
    async setTurnState(
      conversationId: string,
      turnId: string,
      state: TurnState,
      at: number,
      on?: Executor,
    ): Promise<void> {
      await write(on, (x) => q.setState.on(x).run(state, at, conversationId, turnId));
    },
    async setTurnTokens(
      conversationId: string,
      turnId: string,
      tokens: number,
      on?: Executor,
    ): Promise<void> {
      await write(on, (x) => q.addTokens.on(x).run(tokens, conversationId, turnId));
    },
    async lastTurn(conversationId: string): Promise<TurnSummaryRow | null> {
      return (
        ((await read(undefined, (x) => q.lastTurn.on(x).get(conversationId))) as
          TurnSummaryRow | undefined) ?? null
      );
    },
    /**
     * Turns a previous run stopped under: left queued or running (killed), or ended by its close and not yet
     * told to subscribers (`noteServiceStop`), oldest first.
     */
    async interruptedTurns(): Promise<InterruptedTurnRow[]> {
      return (await read(undefined, (x) => q.interrupted.on(x).all())) as InterruptedTurnRow[];
    },
    /** The service's close ended this turn (`pending`), or the next start has told its subscribers. */
    async noteServiceStop(conversationId: string, turnId: string, pending: boolean, on?: Executor) {
      await write(on, (x) => q.setNotice.on(x).run(pending ? 1 : 0, conversationId, turnId));
    },

    /** The idempotency record of a turn id (the column `request_id`), as the turn manager stored it. */
    async findRequest(
      conversationId: string,
      turnId: string,
      on?: Executor,
    ): Promise<Record<string, unknown> | null> {
      const row = (await read(on, (x) => q.findRequest.on(x).get(conversationId, turnId))) as
        { accepted: string } | undefined;
      return row ? (JSON.parse(row.accepted) as Record<string, unknown>) : null;
    },
    async recordRequest(
      conversationId: string,
      turnId: string,
      accepted: object,
      now: number,
      on?: Executor,
    ): Promise<void> {
      await write(on, (x) =>
        q.insertRequest.on(x).run(conversationId, turnId, JSON.stringify(accepted), now),
      );
    },

    schedules,
    async schedulesOf(conversationId: string): Promise<StoredSchedule[]> {
      return ((await read(undefined, (x) => q.schedulesOf.on(x).all(conversationId))) as ScheduleRow[]).map(
        toSchedule,
      );
    },
    async addSchedule(conversationId: string, item: ScheduledItem, now: number): Promise<void> {
      await write(undefined, (x) =>
        q.insertSchedule
          .on(x)
          .run(item.id, conversationId, item.prompt, item.dueAt, item.repeatMin, item.until, now),
      );
    },
    async cancelSchedule(conversationId: string, id: string): Promise<boolean> {
      return (await write(undefined, (x) => q.deleteSchedule.on(x).run(id, conversationId))).changes > 0;
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
