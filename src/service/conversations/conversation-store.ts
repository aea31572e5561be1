import { randomUUID } from 'node:crypto';
import type { ServiceDatabase } from '../db/database';
import { saneStoredPlan } from '../schedules/schedule-rules';
import type { ScheduledItem, ScheduleSource } from '../schedules/scheduler';
import type { MessageRole, StoredMessage, TurnState } from '../../shared/api';

/** Durable state of conversations (migration 002): messages, turns, idempotency, schedules, sharing. */

export interface ConversationRow {
  id: string;
  agent_id: string;
  person_id: string;
  title: string | null;
  model: string | null;
  share_slug: string | null;
  created_at: number;
  updated_at: number | null;
  archived_at: number | null;
}

export interface TurnSummaryRow {
  turn_id: string;
  state: TurnState;
  at: number;
}

interface ScheduleRow {
  id: string;
  conversation_id: string;
  prompt: string;
  due_at: number;
  repeat_min: number | null;
  until: number | null;
}

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

export function createConversationStore(db: ServiceDatabase) {
  const q = {
    insert: db.prepare('INSERT INTO conversations (id, agent_id, person_id, created_at) VALUES (?, ?, ?, ?)'),
    byId: db.prepare('SELECT * FROM conversations WHERE id = ? AND agent_id = ? AND archived_at IS NULL'),
    byIdAny: db.prepare('SELECT * FROM conversations WHERE id = ? AND archived_at IS NULL'),
    list: db.prepare(
      `SELECT * FROM conversations WHERE agent_id = ? AND archived_at IS NULL
       ORDER BY COALESCE(updated_at, created_at) DESC, rowid DESC`,
    ),
    rename: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
    titleIfEmpty: db.prepare('UPDATE conversations SET title = ? WHERE id = ? AND title IS NULL'),
    archive: db.prepare('UPDATE conversations SET archived_at = ?, share_slug = NULL WHERE id = ?'),
    touch: db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?'),
    setModel: db.prepare('UPDATE conversations SET model = ? WHERE id = ?'),
    modelOf: db.prepare('SELECT model FROM conversations WHERE id = ?'),
    setSlug: db.prepare('UPDATE conversations SET share_slug = ? WHERE id = ?'),
    bySlug: db.prepare('SELECT * FROM conversations WHERE share_slug = ? AND archived_at IS NULL'),
    addMessage: db.prepare(
      'INSERT INTO messages (conversation_id, turn_id, role, content, at) VALUES (?, ?, ?, ?, ?)',
    ),
    countMessages: db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?'),
    tail: db.prepare(
      `SELECT role, content, at FROM
         (SELECT seq, role, content, at FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?)
       ORDER BY seq`,
    ),
    allMessages: db.prepare('SELECT role, content, at FROM messages WHERE conversation_id = ? ORDER BY seq'),
    insertTurn: db.prepare(
      `INSERT INTO turns (conversation_id, turn_id, person_id, requester, estado, at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    setState: db.prepare('UPDATE turns SET estado = ?, at = ? WHERE conversation_id = ? AND turn_id = ?'),
    addTokens: db.prepare('UPDATE turns SET tokens = ? WHERE conversation_id = ? AND turn_id = ?'),
    lastTurn: db.prepare(
      'SELECT turn_id, estado AS state, at FROM turns WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    interrupted: db.prepare(
      "SELECT conversation_id, turn_id FROM turns WHERE estado IN ('queued', 'running')",
    ),
    findRequest: db.prepare(
      'SELECT accepted FROM turn_requests WHERE conversation_id = ? AND request_id = ?',
    ),
    insertRequest: db.prepare(
      'INSERT INTO turn_requests (conversation_id, request_id, accepted, created_at) VALUES (?, ?, ?, ?)',
    ),
    schedulesOf: db.prepare('SELECT * FROM scheduled_turns WHERE conversation_id = ? ORDER BY due_at, rowid'),
    pendingSchedules: db.prepare(
      `SELECT s.* FROM scheduled_turns s JOIN conversations c ON c.id = s.conversation_id
       WHERE c.archived_at IS NULL ORDER BY s.due_at, s.rowid`,
    ),
    insertSchedule: db.prepare(
      `INSERT INTO scheduled_turns (id, conversation_id, prompt, due_at, repeat_min, until, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteSchedule: db.prepare('DELETE FROM scheduled_turns WHERE id = ? AND conversation_id = ?'),
    deleteScheduleById: db.prepare('DELETE FROM scheduled_turns WHERE id = ?'),
    deleteSchedulesOf: db.prepare('DELETE FROM scheduled_turns WHERE conversation_id = ?'),
    reschedule: db.prepare('UPDATE scheduled_turns SET due_at = ? WHERE id = ?'),
  };

  const schedules: ScheduleSource<StoredSchedule> = {
    pending: () => (q.pendingSchedules.all() as ScheduleRow[]).map(toSchedule),
    reschedule: (id, dueAt) => void q.reschedule.run(dueAt, id),
    finish: (id) => void q.deleteScheduleById.run(id),
  };

  return {
    /** Runs `fn` in one transaction (all its writes land, or none). */
    atomic<T>(fn: () => T): T {
      return db.transaction(fn)() as T;
    },
    create(agentId: string, personId: string, now: number): string {
      const id = randomUUID();
      q.insert.run(id, agentId, personId, now);
      return id;
    },
    /** The live (not archived) conversation of that agent, or null (answer 404). */
    find(agentId: string, id: string): ConversationRow | null {
      return (q.byId.get(id, agentId) as ConversationRow | undefined) ?? null;
    },
    /** A live conversation by id alone (scheduler, public page). */
    findAny(id: string): ConversationRow | null {
      return (q.byIdAny.get(id) as ConversationRow | undefined) ?? null;
    },
    list(agentId: string): ConversationRow[] {
      return q.list.all(agentId) as ConversationRow[];
    },
    rename(id: string, title: string): void {
      q.rename.run(title, id);
    },
    /** Titles a thread that has no title yet; returns whether it did. */
    titleIfEmpty(id: string, title: string): boolean {
      return q.titleIfEmpty.run(title, id).changes > 0;
    },
    /** Archiving also unshares and cancels the conversation's scheduled turns. */
    archive(id: string, now: number): void {
      db.transaction(() => {
        q.archive.run(now, id);
        q.deleteSchedulesOf.run(id);
      })();
    },
    setModel(id: string, model: string): void {
      q.setModel.run(model, id);
    },
    modelOf(id: string): string | null {
      return (q.modelOf.get(id) as { model: string | null } | undefined)?.model ?? null;
    },
    setShareSlug(id: string, slug: string | null): void {
      q.setSlug.run(slug, id);
    },
    findShared(slug: string): ConversationRow | null {
      return (q.bySlug.get(slug) as ConversationRow | undefined) ?? null;
    },

    addMessage(
      conversationId: string,
      turnId: string | null,
      role: MessageRole,
      content: string,
      at: number,
    ) {
      q.addMessage.run(conversationId, turnId, role, content, at);
      q.touch.run(at, conversationId);
    },
    /** The last `limit` messages, oldest first, and how many earlier ones were left out. */
    tail(conversationId: string, limit: number): { messages: StoredMessage[]; skipped: number } {
      const total = (q.countMessages.get(conversationId) as { n: number }).n;
      const messages = q.tail.all(conversationId, limit) as StoredMessage[];
      return { messages, skipped: total - messages.length };
    },
    allMessages(conversationId: string): StoredMessage[] {
      return q.allMessages.all(conversationId) as StoredMessage[];
    },

    insertTurn(
      conversationId: string,
      turnId: string,
      personId: string,
      requester: string,
      state: TurnState,
      at: number,
    ) {
      q.insertTurn.run(conversationId, turnId, personId, requester, state, at);
    },
    setTurnState(conversationId: string, turnId: string, state: TurnState, at: number): void {
      q.setState.run(state, at, conversationId, turnId);
    },
    setTurnTokens(conversationId: string, turnId: string, tokens: number): void {
      q.addTokens.run(tokens, conversationId, turnId);
    },
    lastTurn(conversationId: string): TurnSummaryRow | null {
      return (q.lastTurn.get(conversationId) as TurnSummaryRow | undefined) ?? null;
    },
    /** Turns a previous run left queued or running (the process stopped under them). */
    unfinishedTurns(): { conversation_id: string; turn_id: string }[] {
      return q.interrupted.all() as { conversation_id: string; turn_id: string }[];
    },

    findRequest(conversationId: string, requestId: string): Record<string, unknown> | null {
      const row = q.findRequest.get(conversationId, requestId) as { accepted: string } | undefined;
      return row ? (JSON.parse(row.accepted) as Record<string, unknown>) : null;
    },
    recordRequest(conversationId: string, requestId: string, accepted: object, now: number): void {
      q.insertRequest.run(conversationId, requestId, JSON.stringify(accepted), now);
    },

    schedules,
    schedulesOf(conversationId: string): StoredSchedule[] {
      return (q.schedulesOf.all(conversationId) as ScheduleRow[]).map(toSchedule);
    },
    addSchedule(conversationId: string, item: ScheduledItem, now: number): void {
      q.insertSchedule.run(item.id, conversationId, item.prompt, item.dueAt, item.repeatMin, item.until, now);
    },
    cancelSchedule(conversationId: string, id: string): boolean {
      return q.deleteSchedule.run(id, conversationId).changes > 0;
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
