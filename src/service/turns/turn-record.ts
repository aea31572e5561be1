import { randomUUID } from 'node:crypto';
import type { Attachment, PermissionMode, TurnState } from '../../shared/api';
import type { EngineMcpServer, TurnHandle } from '../engine/types';
import type { MessageText } from '../../shared/api';

/** A message handed to the turn manager by a route or the scheduler. */
export interface Submission {
  agentId: string;
  engine: string;
  personId: string;
  conversationId: string;
  /** Who asks: an OAuth grant family, or `programado` for scheduled turns. */
  requester: string;
  /** The caller's turn id, also its idempotency key; one is made when it gives none. */
  turnId?: string;
  content: string;
  attachments?: Attachment[];
  firstTurn?: boolean;
  permissionMode?: PermissionMode;
}

/** One turn in memory while it is in flight (its durable record is the `turns` row). */
export interface Turn {
  turnId: string;
  conversationId: string;
  agentId: string;
  engine: string;
  personId: string;
  requester: string;
  permissionMode: PermissionMode;
  firstTurn: boolean;
  content: string;
  attachments?: Attachment[];
  state: TurnState;
  /** Our closing phase (reply ended, finishing up) or a stop under way. */
  closing: boolean;
  /** The engine has ended its part of the turn. */
  engineEnded: boolean;
  handle: TurnHandle | null;
  abort: AbortController;
  /** Injections that arrived before the engine call started. */
  early: { content: string; attachments?: Attachment[] }[];
  reply: string;
  tokens: number;
  /** Read from the store when the turn is admitted (the engine call itself is synchronous). */
  launch: LaunchSettings;
  /** The conversation had no title when the turn was admitted: a first turn titles it. */
  untitled: boolean;
  /** The title the agent gave the conversation during this turn (the model agent's), if any. */
  agentTitle: string | null;
  finished: Promise<void>;
  markFinished: () => void;
}

/** What a turn is launched with: the conversation's or agent's model, the agent's tools, a fork's history. */
export interface LaunchSettings {
  model?: string;
  mcpServers?: EngineMcpServer[];
  history?: MessageText[];
}

export function newTurn(s: Submission, launch: LaunchSettings = {}, untitled = false): Turn {
  let markFinished!: () => void;
  const finished = new Promise<void>((resolve) => (markFinished = resolve));
  return {
    turnId: s.turnId ?? randomUUID(),
    conversationId: s.conversationId,
    agentId: s.agentId,
    engine: s.engine,
    personId: s.personId,
    requester: s.requester,
    permissionMode: s.permissionMode ?? 'auto',
    firstTurn: s.firstTurn ?? false,
    content: s.content,
    attachments: s.attachments,
    state: 'queued',
    closing: false,
    engineEnded: false,
    handle: null,
    abort: new AbortController(),
    early: [],
    reply: '',
    tokens: 0,
    launch,
    untitled,
    agentTitle: null,
    finished,
    markFinished,
  };
}

/** Closing: our finishing phase, or the engine no longer takes input for a running turn. */
export function isClosing(turn: Turn): boolean {
  if (turn.closing) return true;
  return turn.handle !== null && turn.state === 'running' && !turn.handle.acceptsInput();
}
