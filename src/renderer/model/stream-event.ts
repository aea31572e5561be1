import { parseSseEvent } from '../../../shared/api';

/**
 * The SSE events of one conversation as the renderer sees them: the event
 * name, its payload, and the SSE `id:` the service stamps on every event.
 * Payload fields follow the spec's Events table; everything is optional
 * because the wire is not trusted and "not shown" fields may be absent.
 */
export interface ModelOption {
  id: string;
  label?: string;
}

export interface PermissionOption {
  optionId: string;
  name?: string;
  kind?: string;
}

export interface StreamEventMap {
  started: { turnId?: string };
  caps: { image?: boolean };
  status: { phase?: string; turnId?: string };
  chunk: { text: string; turnId?: string };
  thought: { text: string; turnId?: string };
  tool: {
    id: string;
    title?: string;
    kind?: string;
    status?: string;
    path?: string | null;
    detalle?: unknown;
    turnId?: string;
  };
  title: { title: string };
  models: { options: ModelOption[]; current?: string | null };
  usage: { used?: number; size?: number; cost?: unknown; input?: number; output?: number };
  permission: {
    id: string;
    title?: string;
    tool?: unknown;
    /** The tool call asking, with its full detail (the local service sends it). */
    toolCall?: unknown;
    options: PermissionOption[];
    turnId?: string;
  };
  'permission-resolved': { id: string; optionId?: string };
  artifact: Record<string, unknown>;
  done: { turnId?: string; reposo?: boolean; estado?: string };
  error: { message: string; turnId?: string };
}

export type StreamEventName = keyof StreamEventMap;

export type StreamEvent = {
  [K in StreamEventName]: { id?: string; event: K; data: StreamEventMap[K] };
}[StreamEventName];

/**
 * Validates an untyped `{event, data, id}` from the bridge with the shared
 * contract; undefined when the event is unknown or malformed.
 */
export function toStreamEvent(raw: {
  event: string;
  data: unknown;
  id?: string | null;
}): StreamEvent | undefined {
  const parsed = parseSseEvent(raw.event, raw.data);
  if (!parsed.ok) return undefined;
  const event = { event: parsed.event.event, data: parsed.event.data } as StreamEvent;
  if (raw.id) event.id = raw.id;
  return event;
}
