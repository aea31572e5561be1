/** The conversations area: conversations, their public links, turns and live events. */
import type {
  AcceptedTurn,
  ArchivedConversationSummary,
  CancelOutcome,
  ConversationCreated,
  ConversationPage,
  ConversationSummary,
  ConversationVersionView,
  ForkedConversation,
  ForkPoint,
  PermissionBody,
  PermissionOutcome,
  SendMessageInput,
  Sharing,
  StreamEvent,
} from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskError, DeskResult, Unsubscribe } from './desk-result';

/** A conversation's public link state plus the address people open. */
export type ShareState = Sharing & { publicUrl: string | null };

export interface GetConversationOptions {
  /** Only the last `limit` messages; the page's `skipped` says how many were left out. */
  limit?: number;
}

/**
 * The stream's connection, for a reconnecting indicator. `reconnecting`
 * carries the attempt (1, 2, ... since the stream was last open) and the
 * reason when known; `closed` follows an error
 * that ends the subscription (e.g. 404, signed out).
 */
export type StreamConnection =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; delayMs?: number; reason?: string }
  | { state: 'closed'; error?: DeskError };

export type ConversationUpdate =
  { kind: 'event'; event: StreamEvent } | { kind: 'connection'; connection: StreamConnection };

export interface ConversationMethods {
  listConversations(agentId: string): Promise<DeskResult<ConversationSummary[]>>;
  createConversation(agentId: string): Promise<DeskResult<ConversationCreated>>;
  getConversation(
    agentId: string,
    sessionId: string,
    options?: GetConversationOptions,
  ): Promise<DeskResult<ConversationPage>>;
  renameConversation(agentId: string, sessionId: string, title: string): Promise<DeskResult<void>>;
  archiveConversation(agentId: string, sessionId: string): Promise<DeskResult<void>>;

  // Sharing
  getShare(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;
  share(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;
  unshare(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;

  // Turns
  /** Resolves with the 202 body; 503 and 429 are retried inside with the same `turnId`. */
  sendMessage(agentId: string, sessionId: string, input: SendMessageInput): Promise<DeskResult<AcceptedTurn>>;
  cancelTurn(agentId: string, sessionId: string): Promise<DeskResult<CancelOutcome>>;
  answerPermission(
    agentId: string,
    sessionId: string,
    answer: PermissionBody,
  ): Promise<DeskResult<PermissionOutcome>>;
  /** Applies from the next turn. */
  setModel(agentId: string, sessionId: string, model: string): Promise<DeskResult<void>>;
  /**
   * The operationIds of our service's extensions (docs/extensions.md) the server lists in its
   * `/openapi.yaml`; empty for a server without them. The app offers an extension's action only then.
   */
  serverExtensions(): Promise<DeskResult<string[]>>;
  /** Our extension `forkConversation`: a new conversation with this one's messages up to a point. */
  forkConversation(
    agentId: string,
    sessionId: string,
    at: ForkPoint,
  ): Promise<DeskResult<ForkedConversation>>;
  /**
   * Our extension `rewindConversation`: keeps the first `keep` messages; the rest become an earlier
   * version (returned), and the agent's next session starts from the kept messages.
   */
  rewindConversation(
    agentId: string,
    sessionId: string,
    keep: number,
  ): Promise<DeskResult<ConversationVersionView>>;
  /** The earlier versions rewinds kept (our extension), by where they branched off. */
  listConversationVersions(
    agentId: string,
    sessionId: string,
  ): Promise<DeskResult<ConversationVersionView[]>>;
  /** Our service's extension (where `serverExtensions` lists it): archived conversations, newest first. */
  listArchivedConversations(agentId: string): Promise<DeskResult<ArchivedConversationSummary[]>>;
  /** Brings an archived conversation back to the list (our extension). */
  restoreConversation(agentId: string, sessionId: string): Promise<DeskResult<void>>;
  /**
   * Live events of one conversation: the server replays the current turn on
   * connect, then streams; connection changes arrive as `connection` updates.
   */
  onConversationEvent(
    agentId: string,
    sessionId: string,
    listener: (update: ConversationUpdate) => void,
  ): Unsubscribe;
}

export const conversationsArea = bridgeArea<ConversationMethods>()({
  calls: [
    'listConversations',
    'createConversation',
    'getConversation',
    'renameConversation',
    'archiveConversation',
    'getShare',
    'share',
    'unshare',
    'sendMessage',
    'cancelTurn',
    'answerPermission',
    'setModel',
    'serverExtensions',
    'forkConversation',
    'rewindConversation',
    'listConversationVersions',
    'listArchivedConversations',
    'restoreConversation',
  ],
  subscriptions: ['onConversationEvent'],
});
