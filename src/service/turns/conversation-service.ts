import type { ScheduleBody, StoredMessage } from '../../shared/api';
import type { Principal } from '../identity/principal';
import type { OAuthTokenStore } from '../identity/oauth-tokens';
import type { ConversationRow, StoredSchedule, TurnSummaryRow } from '../conversations/conversation-store';
import type { ForkOutcome, ForkPoint } from '../conversations/conversation-forks';
import type { StoredVersion } from '../conversations/conversation-versions';
import type { EventListener } from './event-log';
import type { ResolveResult } from './permission-broker';
import { refuse, success, type Outcome } from '../outcome';
import { planFromBody } from '../schedules/schedule-rules';
import { looksLikeShareSlug, newShareSlug } from '../sharing/share-slug';
import type { ConversationsArea } from './conversations-area';
import type { Submission } from './turn-record';
import type { CancelOutcome, SubmitResult } from './turn-answers';

/** A message as the route hands it over: the body of POST messages in our own words. */
export type IncomingMessage = Pick<
  Submission,
  'turnId' | 'content' | 'attachments' | 'firstTurn' | 'permissionMode'
>;

export type ModelChange = { ok: true } | { ok: false; known: string[] };
export type ScheduleAdded = Outcome<StoredSchedule, 'invalid'>;
export type Rewound = Outcome<StoredVersion, 'invalid_point' | 'reply_running'>;

/**
 * What the conversation routes do beyond parsing and mapping: archiving, sharing, submitting a message on
 * behalf of a requester, the model of the next turn, and scheduled turns. Every call takes a conversation
 * the caller owns (the route looked it up).
 */
export function createConversationService(
  area: ConversationsArea,
  tokens: Pick<OAuthTokenStore, 'familyOf'>,
) {
  const { store, manager, scheduler, timers, engine, forks, versions, archived } = area;

  /**
   * Who commissioned a turn, for "only the requester may cancel or replace it": the OAuth grant family (one
   * sign-in of one client on one device; it survives token refreshes). Two sign-ins of the same person are
   * two requesters (our reading of the spec).
   */
  async function requesterOf(principal: Principal, bearer: string | null): Promise<string> {
    const family = bearer === null ? null : await tokens.familyOf(bearer);
    if (family) return `grant:${family}`;
    return principal.kind === 'oauth' ? `client:${principal.clientId}` : `agent:${principal.agentId}`;
  }

  return {
    requesterOf,

    /** The caller's live conversation, or null. */
    find: (agentId: string, sessionId: string): Promise<ConversationRow | null> =>
      store.find(agentId, sessionId),

    create: (agentId: string, personId: string): Promise<string> =>
      store.create(agentId, personId, timers.now()),

    /** The agent's live conversations, newest first, each with its latest turn. */
    list: async (agentId: string): Promise<{ row: ConversationRow; lastTurn: TurnSummaryRow | null }[]> =>
      Promise.all(
        (await store.list(agentId)).map(async (row) => ({ row, lastTurn: await store.lastTurn(row.id) })),
      ),

    /** Our extension: the agent's archived conversations, each with its latest turn. */
    listArchived: async (
      agentId: string,
    ): Promise<{ row: ConversationRow; lastTurn: TurnSummaryRow | null }[]> =>
      Promise.all(
        (await archived.list(agentId)).map(async (row) => ({ row, lastTurn: await store.lastTurn(row.id) })),
      ),

    /** Our extension: brings an archived conversation back; false when the agent has none of that id. */
    restore: (agentId: string, id: string): Promise<boolean> => archived.restore(agentId, id),

    /**
     * Its last `limit` messages, how many earlier ones were left out, and its latest turn. The turn is read
     * first: a turn's close writes its reply before its end, so a turn read as ended has its reply in the
     * messages read after it, even when another process closes it between the two (a client takes such a
     * read as the whole turn).
     */
    async read(row: ConversationRow, limit: number) {
      const lastTurn = await store.lastTurn(row.id);
      const tail = await store.tail(row.id, limit);
      return { messages: tail.messages, skipped: tail.skipped, lastTurn };
    },

    rename: (row: ConversationRow, title: string): Promise<void> => {
      manager.titled(row.id);
      return store.rename(row.id, title);
    },

    /** Our extension: a new conversation with this one's messages up to a point. */
    fork: (row: ConversationRow, at: ForkPoint): Promise<ForkOutcome> => forks.fork(row, at, timers.now()),

    /**
     * Our extension: back to its first `keep` messages, the rest kept as an earlier version. The agent's
     * session is forgotten, so its next one starts from the kept messages (given as a fork's are).
     */
    async rewind(row: ConversationRow, keep: number): Promise<Rewound> {
      if (manager.currentTurnId(row.id) !== null)
        return refuse(
          'reply_running',
          'A reply is running in this conversation; stop it or let it end first.',
        );
      const rewound = await versions.rewind(row, keep, timers.now());
      if (rewound.ok) await engine.forgetConversation(row.agent_id, row.id).catch(() => undefined);
      return rewound;
    },

    /** Our extension: the earlier versions rewinds kept. */
    versions: (row: ConversationRow): Promise<StoredVersion[]> => versions.list(row.id),

    /** Its events from `lastEventId` on (replayed), then live; returns the unsubscribe. */
    subscribe: (row: ConversationRow, listener: EventListener, lastEventId?: string | null) =>
      manager.subscribe(row.id, listener, lastEventId),

    answerPermission: (row: ConversationRow, id: string, optionId: string): ResolveResult =>
      manager.resolvePermission(row.id, id, optionId),

    /** Stops its turn, archives it, lets the agent drop its session, and drops its scheduled turns. */
    async archive(row: ConversationRow): Promise<void> {
      await manager.forget(row.id);
      await store.archive(row.id, timers.now());
      // The agent's memory of it is not needed any more; an agent that cannot forget keeps it.
      await engine.forgetConversation(row.agent_id, row.id).catch(() => undefined);
      scheduler.changed();
    },

    /** Sharing again keeps the same link. */
    async share(row: ConversationRow): Promise<string> {
      if (row.share_slug) return row.share_slug;
      const slug = newShareSlug();
      await store.setShareSlug(row.id, slug);
      return slug;
    },

    unshare: (row: ConversationRow): Promise<void> => store.setShareSlug(row.id, null),

    /** The conversation shared under `slug` and all its messages, or null (unknown, unshared, or not a slug). */
    async shared(slug: string): Promise<{ title: string | null; messages: StoredMessage[] } | null> {
      const row = looksLikeShareSlug(slug) ? await store.findShared(slug) : null;
      return row ? { title: row.title, messages: await store.allMessages(row.id) } : null;
    },

    submit(
      row: ConversationRow,
      who: { engine: string; personId: string; requester: string },
      message: IncomingMessage,
    ): Promise<SubmitResult> {
      return manager.submit({
        agentId: row.agent_id,
        engine: who.engine,
        personId: who.personId,
        conversationId: row.id,
        requester: who.requester,
        ...message,
      });
    },

    cancel: (row: ConversationRow, requester: string): Promise<CancelOutcome> =>
      manager.cancel(row.id, requester),

    /**
     * A model the agent announced for this conversation, or, before it announced any, one the agent offers
     * (its engine is asked, as GET agent does): a model it does not offer would silently run another.
     */
    async setModel(row: ConversationRow, model: string, agentEngine: string): Promise<ModelChange> {
      const known =
        manager.knownModels(row.id) ??
        (await engine.models(row.agent_id, agentEngine).then(
          (models) => models.options,
          () => [],
        ));
      if (!known.some((m) => m.id === model)) return { ok: false, known: known.map((m) => m.id) };
      await store.setModel(row.id, model);
      return { ok: true };
    },

    schedules: (row: ConversationRow): Promise<StoredSchedule[]> => store.schedulesOf(row.id),

    async addSchedule(row: ConversationRow, body: ScheduleBody): Promise<ScheduleAdded> {
      const planned = planFromBody(body, timers.now());
      if (!planned.ok) return planned;
      const item = { id: crypto.randomUUID(), ...planned.value };
      await store.addSchedule(row.id, item, timers.now());
      scheduler.changed();
      return success({ ...item, conversationId: row.id });
    },

    async cancelSchedule(row: ConversationRow, id: string): Promise<boolean> {
      if (!(await store.cancelSchedule(row.id, id))) return false;
      scheduler.changed();
      return true;
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
