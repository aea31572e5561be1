import type {
  ModelOption,
  PermissionOption,
  StreamEvent,
  StreamEventName,
  StreamPayload,
} from '../../shared/api';
import { parseStreamEvent } from '../../shared/api/stream-event';

export type { ModelOption, PermissionOption, StreamEvent, StreamEventName };

/**
 * The events of one conversation as the renderer sees them: in our words (shared/api/stream-event.ts,
 * inferred from its zod schemas, so they cannot drift), with the `id` the service stamps on every event.
 */
export type StreamEventMap = { [N in StreamEventName]: StreamPayload<N> };

/**
 * A string field a server adds beyond the shared schema (the schemas are loose,
 * so such fields arrive as unknown): the local service stamps `turnId` on most
 * events. Undefined when absent or not a string.
 */
export function extraString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The turn an event speaks of, when it says. */
export function eventTurnId(event: StreamEvent): string | undefined {
  return extraString(event.data.turnId);
}

/**
 * Validates an untyped `{event, data, id}` in our words (e.g. one the memory stored);
 * undefined when the event is unknown or malformed.
 */
export function toStreamEvent(raw: {
  event: string;
  data: unknown;
  id?: string | null;
}): StreamEvent | undefined {
  const parsed = parseStreamEvent(raw.event, raw.data);
  if (!parsed.ok) return undefined;
  const event: StreamEvent = parsed.event;
  return raw.id ? { ...event, id: raw.id } : event;
}
