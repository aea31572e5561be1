import type { EngineHost } from '../engine/types';
import type { Allowance } from './allowance';
import type { ConversationStore } from '../conversations/conversation-store';
import type { Timers } from '../timers';
import type { SharedEvents } from '../core-context';
import type { AgentSettingsLookup, LaunchDeps } from './turn-launch';
import type { LaunchSettings } from './turn-record';

/** What the turn manager is built with (conversations-area.ts builds it). */
export interface TurnHooks {
  /**
   * Runs in a turn's closing phase, after the agent's reply ended and before `done`.
   * A test seam: holding it open makes the "turn was already closing" row testable.
   */
  closing?: (info: { conversationId: string; turnId: string }) => Promise<void> | void;
}

export interface TurnManagerOptions {
  store: ConversationStore;
  engine: EngineHost;
  agentSettings?: AgentSettingsLookup;
  /** A fork's carried-over messages, for the agent's first session in it (conversation-forks.ts). */
  seedOf?: LaunchDeps['seedOf'];
  timers: Timers;
  allowance: Allowance;
  permissionTimeoutMs?: number;
  hooks?: TurnHooks;
  /**
   * Several processes on one PostgreSQL: events go through the store and any process streams them; turns
   * left open by a process that died are closed by the cluster's heartbeat (cluster/agent-leases.ts), not here.
   */
  sharedEvents?: SharedEvents;
  /**
   * The turns found open at start are another process's to close, not a previous run's: a cluster's (closed
   * by its heartbeat) or, for a guest beside the folder's own service (ServiceOptions.guest), still running.
   */
  leavesOpenTurns?: boolean;
}

/** What an admission reads from the store, in its transaction, before it decides. */
export interface AdmissionReads {
  seen: Record<string, unknown> | null;
  refusal: string | null;
  launch: LaunchSettings;
  untitled: boolean;
}
