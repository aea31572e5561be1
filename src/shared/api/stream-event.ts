import { z } from 'zod';
import { parseNamedEvent, SSE_EVENT_SCHEMAS, ToolEvent, type SseParseErrorCode } from './events';

/**
 * A conversation's events in our words: what every client-side consumer (renderer, host, memory,
 * CLI) reads. The wire's events (events.ts) are read into these once, by the API client
 * (core/api/stream-words.ts); only `tool` and `done` carry Spanish words, the rest are the same.
 */

/** A tool call; `detail` is the wire's `detalle` (what the tool reads or writes, as text). */
export const ToolUpdate = ToolEvent.omit({ detalle: true }).extend({ detail: z.string().optional() });
export type ToolUpdate = z.infer<typeof ToolUpdate>;

/** A turn ended; `state` is how (our service's `estado`; another server may not say). */
export const TurnEnded = z.looseObject({ turnId: z.string(), state: z.string().optional() });
export type TurnEnded = z.infer<typeof TurnEnded>;
/** Nothing runs in the conversation (the wire's `{reposo: true}`). */
export const ConversationIdle = z.looseObject({ idle: z.literal(true) });
export type ConversationIdle = z.infer<typeof ConversationIdle>;
export const StreamDone = z.union([TurnEnded, ConversationIdle]);
export type StreamDone = z.infer<typeof StreamDone>;

/** Event name -> payload schema, in our words. */
export const STREAM_EVENT_SCHEMAS = { ...SSE_EVENT_SCHEMAS, tool: ToolUpdate, done: StreamDone } as const;
export type StreamEventName = keyof typeof STREAM_EVENT_SCHEMAS;
export type StreamPayload<N extends StreamEventName> = z.infer<(typeof STREAM_EVENT_SCHEMAS)[N]>;

/** One event of a conversation, discriminated by `event`; `id` is the stream's event id when it sent one. */
export type StreamEvent = {
  [N in StreamEventName]: { event: N; data: StreamPayload<N>; id?: string };
}[StreamEventName];

export type StreamParseResult =
  { ok: true; event: StreamEvent } | { ok: false; error: { code: SseParseErrorCode; message: string } };

/** Checks an event already in our words (e.g. one the memory stored). Never throws. */
export function parseStreamEvent(name: string, data: unknown): StreamParseResult {
  return parseNamedEvent<StreamEvent>(STREAM_EVENT_SCHEMAS, name, data);
}
