import { randomUUID } from 'node:crypto';
import type { Attachment, PermissionMode, TurnState } from '../../shared/api';
import type { TurnHandle } from '../engine/types';

/** A message handed to the turn manager by a route or the scheduler. */
export interface Submission {
  agentId: string;
  engine: string;
  personId: string;
  conversationId: string;
  /** Who asks: an OAuth grant family, or `programado` for scheduled turns. */
  requester: string;
  /** The caller's idempotency key (`turnId` of the body). */
  requestId?: string;
  content: string;
  images?: Attachment[];
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
  images?: Attachment[];
  state: TurnState;
  /** Our closing phase (reply ended, finishing up) or a stop under way. */
  closing: boolean;
  /** The engine has ended its part of the turn. */
  engineEnded: boolean;
  handle: TurnHandle | null;
  abort: AbortController;
  /** Injections that arrived before the engine call started. */
  early: { content: string; images?: Attachment[] }[];
  reply: string;
  tokens: number;
  finished: Promise<void>;
  markFinished: () => void;
}

export function newTurn(s: Submission): Turn {
  let markFinished!: () => void;
  const finished = new Promise<void>((resolve) => (markFinished = resolve));
  return {
    turnId: s.requestId ?? randomUUID(),
    conversationId: s.conversationId,
    agentId: s.agentId,
    engine: s.engine,
    personId: s.personId,
    requester: s.requester,
    permissionMode: s.permissionMode ?? 'auto',
    firstTurn: s.firstTurn ?? false,
    content: s.content,
    images: s.images,
    state: 'queued',
    closing: false,
    engineEnded: false,
    handle: null,
    abort: new AbortController(),
    early: [],
    reply: '',
    tokens: 0,
    finished,
    markFinished,
  };
}

/** Closing: our finishing phase, or the engine no longer takes input for a running turn. */
export function isClosing(turn: Turn): boolean {
  if (turn.closing) return true;
  return turn.handle !== null && turn.state === 'running' && !turn.handle.acceptsInput();
}
