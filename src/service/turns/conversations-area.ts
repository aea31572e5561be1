import type { CoreContext } from '../core-context';
import type { EngineHost } from '../engine/types';
import {
  createConversationStore,
  type ConversationStore,
  type StoredSchedule,
} from '../conversations/conversation-store';
import { createArchivedStore, type ArchivedStore } from '../conversations/archived-store';
import { createConversationForks, type ConversationForks } from '../conversations/conversation-forks';
import {
  createConversationVersions,
  type ConversationVersions,
} from '../conversations/conversation-versions';
import { Scheduler, type ScheduleSource } from '../schedules/scheduler';
import { HeartbeatHub } from './sse-stream';
import { timersFrom, type Timers } from '../timers';
import { createAllowance, type Allowance, type QuotaConfig } from './allowance';
import type { AgentSettingsLookup } from './turn-launch';
import { TurnManager } from './turn-manager';
import type { TurnHooks } from './turn-manager-options';

/** Heartbeat of the event stream (spec: every 25 s). */
export const HEARTBEAT_MS = 25_000;

/**
 * Settings of this area, from `config.turns` (config file or `startService({config})`):
 * - `quota`: the account allowance; past it POST messages answers 402 `quota_exhausted`;
 * - `heartbeatMs`: event-stream heartbeat (tests shorten it);
 * - `permissionTimeoutMs`: unanswered permission expiry (default 10 minutes);
 * - `hooks`: test seams (see TurnHooks), only from code.
 */
export interface TurnsConfig {
  quota?: QuotaConfig;
  heartbeatMs?: number;
  permissionTimeoutMs?: number;
  hooks?: TurnHooks;
}

export interface ConversationsArea {
  store: ConversationStore;
  /** Forked conversations (our extension). */
  forks: ConversationForks;
  /** Rewinds and the earlier versions they keep (our extension). */
  versions: ConversationVersions;
  /** Archived conversations, listed and restored (our extension). */
  archived: ArchivedStore;
  manager: TurnManager;
  /** The account allowance: conversation and try turns both count. */
  allowance: Allowance;
  scheduler: Scheduler<StoredSchedule>;
  heartbeats: HeartbeatHub;
  timers: Timers;
  engine: EngineHost;
  /** The drain switch: while on, POST messages answers 503 `reiniciando` with `Retry-After: 10`. */
  setDraining(on: boolean): void;
}

/** Builds the conversations area (`ctx.conversations`) over the engine host; the agent's settings are asked for when a turn launches. */
export function startConversations(
  ctx: CoreContext,
  engine: EngineHost,
  agentSettings: AgentSettingsLookup,
): ConversationsArea {
  const settings = (ctx.config.turns ?? {}) as TurnsConfig;
  const timers = timersFrom(ctx.clock as CoreContext['clock'] & Partial<Timers>);
  const store = createConversationStore(ctx.db);
  const forks = createConversationForks(ctx.db, store);
  const versions = createConversationVersions(ctx.db, store, forks);
  const archived = createArchivedStore(ctx.db);
  const allowance = createAllowance(ctx.db, settings.quota);
  const manager = new TurnManager({
    store,
    engine,
    timers,
    allowance,
    permissionTimeoutMs: settings.permissionTimeoutMs,
    hooks: settings.hooks,
    sharedEvents: ctx.sharedEvents,
    leavesOpenTurns: ctx.sharedEvents !== undefined || ctx.guest !== undefined,
    seedOf: (conversationId) => forks.seedOf(conversationId),
    agentSettings,
  });
  const scheduler = new Scheduler(ownSchedules(ctx, store), timers, async (item) => {
    const conversation = await store.findAny(item.conversationId);
    const agent = conversation && (await ctx.identity.agents.find(conversation.agent_id));
    if (!conversation || !agent || !engine.hasMachine(agent.engine)) return;
    const result = await manager.submit({
      agentId: agent.id,
      engine: agent.engine,
      personId: conversation.person_id,
      conversationId: conversation.id,
      requester: 'programado',
      turnId: `programado:${item.id}:${item.dueAt}`,
      content: item.prompt,
      permissionMode: 'auto',
    });
    if (result.kind !== 'accepted') ctx.log(`schedule ${item.id}: not started (${result.kind})`);
  });
  const heartbeats = new HeartbeatHub(settings.heartbeatMs ?? HEARTBEAT_MS);
  const area: ConversationsArea = {
    store,
    forks,
    versions,
    archived,
    manager,
    allowance,
    scheduler,
    heartbeats,
    timers,
    engine,
    setDraining: (on) => manager.setDraining(on),
  };
  scheduler.start();
  // A guest that became the folder's own service: the program before it ended, and left its turns to end here.
  ctx.guest?.onOwn(async () => {
    await manager.closeTurnsLeftOpen();
    scheduler.catchUp();
  });
  // Several processes: an agent's lease can come to this process (its holder died), and with it scheduled
  // turns this process's timer does not know of yet.
  const rearm = ctx.runsAgent && setInterval(() => scheduler.changed(), REARM_MS);
  // Another process took an agent over while this one lived (its heartbeat stalled): stop acting for it.
  ctx.whenAgentLost?.((agentId) => {
    manager.abandon(agentId);
    engine
      .stop(agentId)
      .catch((error: unknown) => ctx.log(`agent ${agentId}: not stopped (${String(error)})`));
  });
  if (rearm) rearm.unref();
  // Before the engines stop and the store closes (disposers run last registered, first): the turns in flight
  // end and are recorded, and every queued write lands.
  ctx.onClose(async () => {
    if (rearm) clearInterval(rearm);
    scheduler.close();
    heartbeats.stop();
    await manager.shutdown();
  });
  return area;
}

/** How often, with several processes, the scheduler looks again for the scheduled turns it now owns. */
const REARM_MS = 5_000;

/**
 * The scheduled turns this process fires: all of them, or with several processes only those of agents it
 * runs (it takes a free agent's lease), so a scheduled turn never starts a second machine for its agent and
 * no two processes fire one item.
 */
function ownSchedules(ctx: CoreContext, store: ConversationStore): ScheduleSource<StoredSchedule> {
  // A guest fires none while the folder's own service does (ServiceOptions.guest).
  const guest = ctx.guest;
  if (guest)
    return { ...store.schedules, pending: async () => (guest.beside ? [] : store.schedules.pending()) };
  const runsAgent = ctx.runsAgent;
  if (!runsAgent) return store.schedules;
  return {
    ...store.schedules,
    pending: async () => {
      const owned: StoredSchedule[] = [];
      for (const item of await store.schedules.pending()) {
        const conversation = await store.findAny(item.conversationId);
        if (conversation && (await runsAgent(conversation.agent_id))) owned.push(item);
      }
      return owned;
    },
  };
}
