import {
  parseSseEvent,
  type ModelOption,
  type PermissionOption,
  type SseEvent,
  type SseEventName,
  type SsePayload,
} from '../../shared/api';

export type { ModelOption, PermissionOption };

/**
 * The SSE events of one conversation as the renderer sees them: the shared
 * contract's events (inferred from its zod schemas, so they cannot drift),
 * with the SSE `id:` the service stamps on every event.
 */
export type StreamEvent = SseEvent & { id?: string };
export type StreamEventName = SseEventName;
export type StreamEventMap = { [N in SseEventName]: SsePayload<N> };

/**
 * A string field a server adds beyond the shared schema (the schemas are loose,
 * so such fields arrive as unknown): the local service stamps `turnId` on most
 * events and `estado` on `done`. Undefined when absent or not a string.
 */
export function extraString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The turn an event speaks of, when it says. */
export function eventTurnId(event: StreamEvent): string | undefined {
  return extraString(event.data.turnId);
}

/**
 * Validates an untyped `{event, data, id}` with the shared contract;
 * undefined when the event is unknown or malformed.
 */
export function toStreamEvent(raw: {
  event: string;
  data: unknown;
  id?: string | null;
}): StreamEvent | undefined {
  const parsed = parseSseEvent(raw.event, raw.data);
  if (!parsed.ok) return undefined;
  const event: StreamEvent = parsed.event;
  return raw.id ? { ...event, id: raw.id } : event;
}
