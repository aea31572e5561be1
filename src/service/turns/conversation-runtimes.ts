import { isTerminal } from '../../shared/api';
import { ConversationEventLog, type EventListener } from './event-log';
import { PERMISSION_TIMEOUT_MS, PermissionBroker } from './permission-broker';
import type { Timers } from '../timers';
import type { Turn } from './turn-record';

/** What the service holds in memory for one conversation while this process runs. */
export interface ConversationRuntime {
  log: ConversationEventLog;
  broker: PermissionBroker;
  current: Turn | null;
  /** Turns waiting for the closing turn of someone else to finish. */
  waiting: Turn[];
  /** Resolves when the engine is done with this conversation's previous turn. */
  engineFree: Promise<void>;
  engineBusy: boolean;
  models: { options: { id: string; label: string }[]; current: string | null } | null;
}

/** The live state of every conversation, created on first use. */
export class ConversationRuntimes {
  private readonly byId = new Map<string, ConversationRuntime>();

  constructor(
    private readonly timers: Timers,
    private readonly permissionTimeoutMs = PERMISSION_TIMEOUT_MS,
    /** Sees every conversation's events as they are logged (several processes: cluster/event-feed.ts). */
    private readonly mirrorOf?: (conversationId: string) => EventListener,
  ) {}

  /** The conversation's runtime, created when it has none yet. */
  of(conversationId: string): ConversationRuntime {
    let rt = this.byId.get(conversationId);
    if (!rt) {
      rt = {
        log: new ConversationEventLog(this.mirrorOf?.(conversationId)),
        broker: new PermissionBroker(this.timers, this.permissionTimeoutMs),
        current: null,
        waiting: [],
        engineFree: Promise.resolve(),
        engineBusy: false,
        models: null,
      };
      this.byId.set(conversationId, rt);
    }
    return rt;
  }

  /** The conversation's runtime if it has one (reading never creates). */
  find(conversationId: string): ConversationRuntime | undefined {
    return this.byId.get(conversationId);
  }

  /**
   * Drops the agent's turns, current and waiting, with no write and no event: another process took the
   * agent over and ended them in the store and the stream. Each is aborted (its engine stops) and marked
   * ended, so the engine's late answer changes nothing.
   */
  dropTurnsOf(agentId: string): void {
    for (const rt of this.byId.values()) {
      for (const turn of [rt.current, ...rt.waiting]) {
        if (!turn || turn.agentId !== agentId || isTerminal(turn.state)) continue;
        turn.state = 'error';
        turn.abort.abort();
        turn.markFinished();
      }
      if (rt.current?.agentId === agentId) rt.current = null;
      rt.waiting = rt.waiting.filter((turn) => turn.agentId !== agentId);
    }
  }

  /** Every conversation's runtime. */
  all(): IterableIterator<ConversationRuntime> {
    return this.byId.values();
  }

  /** Turns in flight across every conversation: current ones and those waiting. */
  activeTurns(): number {
    let n = 0;
    for (const rt of this.byId.values()) n += (rt.current ? 1 : 0) + rt.waiting.length;
    return n;
  }
}
