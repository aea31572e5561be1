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
  models: { options: ModelOption[]; current?: string };
  usage: { used?: number; size?: number; cost?: unknown; input?: number; output?: number };
  permission: { id: string; title?: string; tool?: unknown; options: PermissionOption[]; turnId?: string };
  'permission-resolved': { id: string; optionId?: string };
  artifact: Record<string, unknown>;
  done: { turnId?: string; reposo?: boolean };
  error: { message: string; turnId?: string };
}

export type StreamEventName = keyof StreamEventMap;

export type StreamEvent = {
  [K in StreamEventName]: { id?: string; event: K; data: StreamEventMap[K] };
}[StreamEventName];

export const streamEventNames: readonly StreamEventName[] = [
  'started',
  'caps',
  'status',
  'chunk',
  'thought',
  'tool',
  'title',
  'models',
  'usage',
  'permission',
  'permission-resolved',
  'artifact',
  'done',
  'error',
];

/** Narrows an untyped `{event, data, id}` from the bridge to a StreamEvent, or undefined when unknown or malformed. */
export function toStreamEvent(raw: {
  event: string;
  data: unknown;
  id?: string | null;
}): StreamEvent | undefined {
  if (!(streamEventNames as readonly string[]).includes(raw.event)) return undefined;
  const data = typeof raw.data === 'string' ? parseJson(raw.data) : raw.data;
  if (data === null || typeof data !== 'object') {
    // `started` and `artifact` payloads are not shown by the spec; tolerate empties.
    if (raw.event !== 'started' && raw.event !== 'artifact') return undefined;
  }
  const payload = (data ?? {}) as Record<string, unknown>;
  const required: Partial<Record<StreamEventName, string>> = {
    chunk: 'text',
    thought: 'text',
    tool: 'id',
    title: 'title',
    permission: 'id',
    'permission-resolved': 'id',
    error: 'message',
  };
  const field = required[raw.event as StreamEventName];
  if (field && typeof payload[field] !== 'string') return undefined;
  if (raw.event === 'models' && !Array.isArray(payload['options'])) return undefined;
  if (raw.event === 'permission' && !Array.isArray(payload['options'])) return undefined;
  const event = { event: raw.event, data: payload } as StreamEvent;
  if (raw.id) event.id = raw.id;
  return event;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
