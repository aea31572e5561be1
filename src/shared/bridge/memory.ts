/**
 * The memory area (issue 17): the local transcript store per profile. Conversations reopen with
 * every thought, tool call, permission and usage as they streamed; search covers everything ever
 * said; stored conversations open read-only while the server cannot be reached.
 * Plain JSON; never a token, never an attachment's bytes (a small image thumbnail at most).
 */
import type { MessageRole, ModelsEvent, StoredMessage, TurnSummary, TurnState } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult, Unsubscribe } from './desk-result';

/** One stored event of a turn, in the order it streamed; runs of chunks (and of thoughts) are folded into one. */
export interface RecordedEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface AttachmentMeta {
  name: string;
  mimeType: string;
  size: number;
  /** A small `data:image/...;base64,` picture, for image attachments only. */
  thumbnail?: string;
}

/** Everything the app saw of one turn beyond the text the server keeps. */
export interface TurnDetail {
  turnId: string;
  /** Epoch ms when the app first saw the turn. */
  startedAt: number;
  /** How the turn ended (the stream's `done`), when it ended while the app watched. */
  state?: TurnState;
  events: RecordedEvent[];
  usage?: Record<string, unknown>;
  models?: Record<string, unknown>;
  title?: string;
  attachments: AttachmentMeta[];
  /** The reply as the app saw it, present only where it differs from the server's text (which wins). */
  storedText?: string;
}

/** One message of a conversation as the app shows it: the server's text, with the stored detail beside it. */
export type MemoryMessage = StoredMessage & {
  /** Index in the whole conversation (`skipped` counts the ones before a tail). */
  position: number;
  /** The turn's stored detail, on the turn's reply (or on its question while no reply exists yet). */
  detail?: TurnDetail;
  /** The attachments sent with this question. */
  attachments?: AttachmentMeta[];
};

export interface MemoryHistory {
  messages: MemoryMessage[];
  /** Earlier messages not included (the wire's `saltados`). */
  skipped: number;
}

export interface SearchQuery {
  text: string;
  agentId?: string;
  /** Epoch ms bounds of the message's time, inclusive. */
  from?: number;
  to?: number;
  limit?: number;
}

/** A piece of a snippet; `hit` marks the words that matched, so no markup is ever built from text. */
export interface SnippetSegment {
  text: string;
  hit: boolean;
}

export interface SearchHit {
  conversationId: string;
  agentId: string;
  title: string | null;
  position: number;
  role: MessageRole;
  at: number;
  snippet: SnippetSegment[];
}

/** A conversation as the app shows it: the server's text with the stored detail beside it. */
export interface MemoryConversation extends MemoryHistory {
  agentId: string;
  conversationId: string;
  title: string | null;
  lastTurn: TurnSummary | null;
  /** The latest stored `models` event, so the model picker is there before the next turn. */
  models: ModelsEvent | null;
  /** True when the server could not be reached and this is the stored copy, read-only. */
  offline: boolean;
}

export interface ExportedConversation {
  fileName: string;
  mimeType: string;
  text: string;
}

export type ExportFormat = 'markdown' | 'json';

export interface IndexProgress {
  done: number;
  total: number;
  failed: number;
}

/** Whether the server can be reached; while not, stored conversations open read-only. */
export interface Connectivity {
  online: boolean;
  /** A plain sentence saying why the app is offline. */
  reason?: string;
}

export interface MemoryInfo {
  /** The store's file on this computer. */
  path: string | null;
  conversations: number;
  messages: number;
  /** Background download of history never opened here. */
  indexing: IndexProgress & { running: boolean };
  /** Set when this run found the store damaged, moved it aside and started a new one: the sentence to show. */
  setAside?: string;
  /** Set while writes fail because the store's disk is full: the sentence naming that disk. */
  diskFull?: string;
}

/** What the chat memory tells the main window (the current state first, then each change). */
export interface MemoryNotice {
  /** While writes fail because its disk is full: the sentence naming that disk; gone once a write succeeds. */
  diskFull?: string;
  /** This run found the store damaged and set it aside: said until dismissed (`dismissMemoryNotice`). */
  setAside?: string;
}

export interface MemoryMethods {
  /**
   * Opens a conversation: the server's history merged with the stored detail of each turn; when the
   * server cannot be reached, the stored copy with `offline: true`.
   */
  openConversation(
    agentId: string,
    sessionId: string,
    options?: { limit?: number },
  ): Promise<DeskResult<MemoryConversation>>;
  /** Full-text search over every stored conversation of the signed-in account. */
  searchConversations(query: SearchQuery): Promise<DeskResult<SearchHit[]>>;
  exportConversation(
    agentId: string,
    sessionId: string,
    format: ExportFormat,
  ): Promise<DeskResult<ExportedConversation>>;
  /** Small pictures of a sent turn's image attachments, in the order sent (null for others). */
  saveAttachmentThumbnails(
    agentId: string,
    sessionId: string,
    turnId: string,
    thumbnails: (string | null)[],
  ): Promise<DeskResult<void>>;
  getMemoryInfo(): Promise<DeskResult<MemoryInfo>>;
  /** Forgets everything stored for the active profile. */
  clearMemory(): Promise<DeskResult<MemoryInfo>>;
  /** Reachability of the server as it changes (the current state first). */
  onConnectivity(listener: (connectivity: Connectivity) => void): Unsubscribe;
  /** What the chat memory tells the main window, as it changes (the current state first). */
  onMemoryNotice(listener: (notice: MemoryNotice) => void): Unsubscribe;
  /** The person closed the notice that the chat memory was set aside: it is not shown again. */
  dismissMemoryNotice(): Promise<DeskResult<void>>;
}

export const memoryArea = bridgeArea<MemoryMethods>()({
  calls: [
    'openConversation',
    'searchConversations',
    'exportConversation',
    'saveAttachmentThumbnails',
    'getMemoryInfo',
    'clearMemory',
    'dismissMemoryNotice',
  ],
  subscriptions: ['onConnectivity', 'onMemoryNotice'],
});
