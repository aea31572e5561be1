/**
 * The shapes of one conversation's timeline (turns, their parts, the person's messages) that the
 * turn reducer and the local actions share, with the few facts every one of them needs.
 */
import type { TurnState } from '../../shared/api';
import type { AttachmentMeta } from '../../shared/bridge';
import type { ModelOption, PermissionOption, StreamEventMap } from './stream-event';

export interface TextPart {
  type: 'text';
  key: string;
  text: string;
}
export interface ThoughtPart {
  type: 'thought';
  key: string;
  text: string;
}
export interface ToolPart {
  type: 'tool';
  key: string;
  id: string;
  title?: string;
  kind?: string;
  status?: string;
  path?: string | null;
  detail?: string;
}
export interface PermissionPart {
  type: 'permission';
  key: string;
  id: string;
  title?: string;
  tool?: unknown;
  toolCall?: unknown;
  options: PermissionOption[];
  resolved: boolean;
  /** The option the answer chose, when known (our service's `permission-resolved.optionId`, or this window's answer). */
  chosen?: string;
}
export interface ErrorPart {
  type: 'error';
  key: string;
  message: string;
}
export interface ArtifactPart {
  type: 'artifact';
  key: string;
  data: Record<string, unknown>;
}
export type Part = TextPart | ThoughtPart | ToolPart | PermissionPart | ErrorPart | ArtifactPart;

export type Usage = StreamEventMap['usage'];

export interface Turn {
  turnId: string;
  state: TurnState;
  parts: readonly Part[];
  /** True once the stream has said anything about this turn. */
  live: boolean;
  phase?: string;
  usage?: Usage;
  /** Turns of the agent waiting for a machine, from the 202 answer (the wire's `enCola`). */
  waitingTurns?: number;
}

export type UserItemMode = 'sending' | 'sent' | 'injected' | 'replacing' | 'failed';

export interface UserItem {
  kind: 'user';
  key: string;
  text: string;
  attachments: readonly AttachmentMeta[];
  mode: UserItemMode;
  /** The turn it belongs to once the service accepted it. */
  turnId?: string;
  error?: string;
}
export interface TurnItem {
  kind: 'turn';
  key: string;
  turnId: string;
}
export type TimelineItem = UserItem | TurnItem;

export interface ConversationStream {
  /** What happened in this conversation since its history was loaded, in order. */
  items: readonly TimelineItem[];
  turns: Readonly<Record<string, Turn>>;
  currentTurnId: string | null;
  idle: boolean;
  title?: string;
  models?: { options: ModelOption[]; current?: string | null };
  caps?: { image?: boolean };
  /** A model the person picked; it applies from the next turn. */
  chosenModel?: string;
  /** SSE ids already applied (ids of other shapes than `<turn>.<n>`). */
  seen: ReadonlySet<string>;
  /** For ids shaped `<turn>.<n>` (the local service's): the highest n applied per turn. */
  seenUpTo?: Readonly<Record<string, number>>;
  /** Turns already in the loaded history: a replay of them must not show them twice. */
  settled?: ReadonlySet<string>;
}

export const emptyStream: ConversationStream = Object.freeze({
  items: [],
  turns: {},
  currentTurnId: null,
  idle: false,
  seen: new Set<string>(),
});

/** Used when the stream speaks about a turn before anyone told us its id. */
export const provisionalTurnId = '~current';

/** Whether a turn has ended is decided once, next to the turn states (shared/api/common.ts). */
export { isTerminal } from '../../shared/api/common';

/** The state with `turn` in place of the turn of the same id. */
export function putTurn(state: ConversationStream, turn: Turn): ConversationStream {
  return { ...state, turns: { ...state.turns, [turn.turnId]: turn } };
}
