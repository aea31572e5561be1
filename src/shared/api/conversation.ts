import { z } from 'zod';
import type { TurnState } from './common';
import type { ChatMessage, StoredMessage } from './message';
import { ForkConversationBody } from './routes/extensions';

/**
 * A conversation as every layer above the API client sees it, in our words. The API client
 * (core/api/conversation-words.ts) reads them from the wire's `ConversationListItem`, `ConversationResponse`
 * and `TurnoResumen` (docs/architecture.md, glossary).
 */

/** A conversation's latest turn in short (the wire's `TurnoResumen`: `estado` -> `state`). */
export interface TurnSummary {
  turnId: string;
  state: TurnState;
  /** ISO 8601 date-time. */
  at: string;
}

/** One conversation of an agent's list (the wire's `ConversationListItem`). */
export interface ConversationSummary {
  id: string;
  /** `titulo`: null until the server or the person names it. */
  title: string | null;
  /** `actualizada`: ISO 8601 date-time of the last change. */
  updatedAt: string | null;
  /** `ultimoTurno` */
  lastTurn: TurnSummary | null;
}

/** An archived conversation (our extension): a list item with when it was archived (`archivada`). */
export interface ArchivedConversationSummary extends ConversationSummary {
  archivedAt: string;
}

/** A conversation's messages, or their tail (the wire's `ConversationResponse`). */
export interface ConversationPage {
  messages: ChatMessage[];
  /** `saltados`: how many earlier messages were left out. */
  skipped: number;
  /** `ultimoTurno` */
  lastTurn: TurnSummary | null;
}

/** Whether a conversation has a public link (the wire's `Compartida`). */
export interface Sharing {
  /** `compartida` */
  shared: boolean;
  /** The public link's id; absent while the conversation was never shared. */
  slug?: string;
}

/**
 * Where a fork ends (our extension `forkConversation`): the original's first `firstMessages` messages (the
 * wire's `hasta`), or every message through the turn `turnId`. The checks are the wire schema's own.
 */
export const ForkPoint = z.union([
  z.strictObject({ firstMessages: ForkConversationBody.options[0].shape.hasta }),
  ForkConversationBody.options[1],
]);
export type ForkPoint = z.infer<typeof ForkPoint>;

/** A new conversation made from another's messages (our extension `forkConversation`). */
export interface ForkedConversation {
  id: string;
  /** `titulo` */
  title: string;
}

/**
 * An earlier version of a conversation (our extension `rewindConversation`): the messages a rewind cut off,
 * from message `from` (0-based, the wire's `desde`) on. The live messages from there are the newest version.
 */
export interface ConversationVersionView {
  id: string;
  from: number;
  messages: StoredMessage[];
  /** Epoch ms (`creada`). */
  madeAt: number;
}
