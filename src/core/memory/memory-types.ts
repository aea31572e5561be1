/**
 * What the transcript store keeps and answers. Plain JSON, so the same shapes cross the bridge.
 * Never a token, never an attachment's bytes (a small image thumbnail at most).
 */

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
  /** The final state from `done {estado}`, when the turn ended while the app watched. */
  estado?: string;
  events: RecordedEvent[];
  usage?: Record<string, unknown>;
  models?: Record<string, unknown>;
  title?: string;
  attachments: AttachmentMeta[];
  /** The reply as the app saw it, present only where it differs from the server's text (which wins). */
  storedText?: string;
}

/** One message of a conversation as the app shows it: the server's text, with the stored detail beside it. */
export interface MemoryMessage {
  /** Index in the whole conversation (the server's `saltados` counts the ones before a tail). */
  position: number;
  role: 'user' | 'assistant';
  content: string;
  /** Epoch ms. */
  at: number;
  /** The turn's stored detail, on the turn's reply (or on its question while no reply exists yet). */
  detail?: TurnDetail;
  /** The attachments sent with this question. */
  attachments?: AttachmentMeta[];
}

export interface MemoryHistory {
  messages: MemoryMessage[];
  /** Earlier messages not included. */
  saltados: number;
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
  role: 'user' | 'assistant';
  at: number;
  snippet: SnippetSegment[];
}
