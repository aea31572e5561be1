import { z } from 'zod';
import { ModelOption } from './resources';

/**
 * Payloads of the named SSE events of GET .../{sessionId}/events. Where the spec does not
 * show a payload or a type, the choice here is ours and marked so. All loose: new fields are fine.
 * Heartbeat: an SSE comment line `: ping` every 25 s (our choice), which parsers ignore.
 */

/** Payload not shown by the spec: `{turnId}` (our choice). */
/** The spec does not show the payload of `started`; our service sends `turnId`, another server may send nothing. */
export const StartedEvent = z.looseObject({ turnId: z.string().optional() });
export type StartedEvent = z.infer<typeof StartedEvent>;

/** Whether the agent accepts images in messages. */
export const CapsEvent = z.looseObject({ image: z.boolean() });
export type CapsEvent = z.infer<typeof CapsEvent>;

/** Values of `phase` are not shown by the spec; ours are the turn states `queued`, `running`, and `interrumpido` (with `motivo`) (our choice). */
export const StatusEvent = z.looseObject({ phase: z.string() });
export type StatusEvent = z.infer<typeof StatusEvent>;

/** A piece of the reply text. */
export const ChunkEvent = z.looseObject({ text: z.string(), turnId: z.string() });
export type ChunkEvent = z.infer<typeof ChunkEvent>;

export const ThoughtEvent = z.looseObject({ text: z.string() });
export type ThoughtEvent = z.infer<typeof ThoughtEvent>;

/**
 * A tool call, sent again on every update with the same `id`. Values of `kind` and `status` are not
 * shown; ours follow ACP (`read`, `edit`, `execute`, ... / `pending`, `in_progress`, `completed`, `failed`).
 */
export const ToolEvent = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  kind: z.string().optional(),
  status: z.string().optional(),
  /** Workspace path the tool touches, when there is one. */
  path: z.string().nullable().optional(),
  detalle: z.string().optional(),
});
export type ToolEvent = z.infer<typeof ToolEvent>;

export const TitleEvent = z.looseObject({ title: z.string() });
export type TitleEvent = z.infer<typeof TitleEvent>;

/** `options` are the models the conversation can switch to (POST model), shaped like AgentConfig.models (our choice). */
export const ModelsEvent = z.looseObject({
  options: z.array(ModelOption),
  current: z.string().nullable(),
});
export type ModelsEvent = z.infer<typeof ModelsEvent>;

/** Types are not shown; ours are numbers: context tokens `used` of `size`, `cost`, session `input`/`output` tokens (our choice). */
export const UsageEvent = z.looseObject({
  used: z.number().optional(),
  size: z.number().optional(),
  cost: z.number().optional(),
  input: z.number().optional(),
  output: z.number().optional(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

export const PermissionOption = z.looseObject({
  optionId: z.string(),
  /** Label to show (our choice). */
  name: z.string().optional(),
  /** ACP option kind: `allow_once`, `allow_always`, `reject_once`, `reject_always` (our choice). */
  kind: z.string().optional(),
});
export type PermissionOption = z.infer<typeof PermissionOption>;

/** Answer with POST permission `{id, optionId}` within 10 minutes. */
export const PermissionEvent = z.looseObject({
  id: z.string(),
  title: z.string(),
  /** Name of the tool asking (our choice: a string). */
  tool: z.string().optional(),
  options: z.array(PermissionOption),
});
export type PermissionEvent = z.infer<typeof PermissionEvent>;

export const PermissionResolvedEvent = z.looseObject({ id: z.string() });
export type PermissionResolvedEvent = z.infer<typeof PermissionResolvedEvent>;

/** Payload not shown by the spec: a file the turn produced in the workspace (our choice). */
export const ArtifactEvent = z.looseObject({
  path: z.string(),
  title: z.string().optional(),
  mimeType: z.string().optional(),
  turnId: z.string().optional(),
});
export type ArtifactEvent = z.infer<typeof ArtifactEvent>;

export const DoneTurnEvent = z.looseObject({ turnId: z.string() });
export type DoneTurnEvent = z.infer<typeof DoneTurnEvent>;
export const DoneIdleEvent = z.looseObject({ reposo: z.literal(true) });
export type DoneIdleEvent = z.infer<typeof DoneIdleEvent>;
/** `{turnId}` at the end of a turn, or `{reposo: true}` when idle. */
export const DoneEvent = z.union([DoneTurnEvent, DoneIdleEvent]);
export type DoneEvent = z.infer<typeof DoneEvent>;

export const ErrorEvent = z.looseObject({ message: z.string() });
export type ErrorEvent = z.infer<typeof ErrorEvent>;

/** Event name -> payload schema. */
export const SSE_EVENT_SCHEMAS = {
  started: StartedEvent,
  caps: CapsEvent,
  status: StatusEvent,
  chunk: ChunkEvent,
  thought: ThoughtEvent,
  tool: ToolEvent,
  title: TitleEvent,
  models: ModelsEvent,
  usage: UsageEvent,
  permission: PermissionEvent,
  'permission-resolved': PermissionResolvedEvent,
  artifact: ArtifactEvent,
  done: DoneEvent,
  error: ErrorEvent,
} as const;

export type SseEventName = keyof typeof SSE_EVENT_SCHEMAS;
export const SSE_EVENT_NAMES = Object.keys(SSE_EVENT_SCHEMAS) as SseEventName[];
export const SseEventName = z.enum(SSE_EVENT_NAMES as [SseEventName, ...SseEventName[]]);

export type SsePayload<N extends SseEventName> = z.infer<(typeof SSE_EVENT_SCHEMAS)[N]>;

/** A parsed event: discriminated by `event`. */
export type SseEvent = { [N in SseEventName]: { event: N; data: SsePayload<N> } }[SseEventName];

const message = <N extends string, T extends z.ZodType>(event: N, data: T) =>
  z.object({
    event: z.literal(event),
    /** The SSE `id:` field; `Last-Event-ID` resumes after it (our addition). */
    id: z.string().optional(),
    data,
  });

/** One message of the stream: its `event:` name and its JSON `data:` payload. */
export const SseMessage = z.discriminatedUnion('event', [
  message('started', StartedEvent),
  message('caps', CapsEvent),
  message('status', StatusEvent),
  message('chunk', ChunkEvent),
  message('thought', ThoughtEvent),
  message('tool', ToolEvent),
  message('title', TitleEvent),
  message('models', ModelsEvent),
  message('usage', UsageEvent),
  message('permission', PermissionEvent),
  message('permission-resolved', PermissionResolvedEvent),
  message('artifact', ArtifactEvent),
  message('done', DoneEvent),
  message('error', ErrorEvent),
]);
export type SseMessage = z.infer<typeof SseMessage>;

export type SseParseErrorCode = 'unknown_event' | 'invalid_json' | 'invalid_payload';
export type SseParseResult =
  { ok: true; event: SseEvent } | { ok: false; error: { code: SseParseErrorCode; message: string } };

export function isSseEventName(name: string): name is SseEventName {
  return Object.hasOwn(SSE_EVENT_SCHEMAS, name);
}

/**
 * Parses one SSE message: `name` is the `event:` field, `data` the `data:` text (JSON) or an
 * already-decoded value. Never throws.
 */
export function parseSseEvent(name: string, data: unknown): SseParseResult {
  return parseNamedEvent<SseEvent>(SSE_EVENT_SCHEMAS, name, data);
}

/** Checks `data` against the schema `schemas` holds for `name` (the wire's events, or ours in stream-event.ts). */
export function parseNamedEvent<E>(
  schemas: Readonly<Record<string, z.ZodType>>,
  name: string,
  data: unknown,
): { ok: true; event: E } | { ok: false; error: { code: SseParseErrorCode; message: string } } {
  if (!Object.hasOwn(schemas, name)) {
    return { ok: false, error: { code: 'unknown_event', message: `Unknown event "${name}".` } };
  }
  let value = data;
  if (typeof data === 'string') {
    try {
      value = data === '' ? {} : JSON.parse(data);
    } catch {
      return { ok: false, error: { code: 'invalid_json', message: `The "${name}" event data is not JSON.` } };
    }
  }
  const parsed = schemas[name]!.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(payload)').join(', ');
    return {
      ok: false,
      error: { code: 'invalid_payload', message: `The "${name}" event payload is invalid at: ${fields}.` },
    };
  }
  return { ok: true, event: { event: name, data: parsed.data } as E };
}

/** The `event:`/`data:` pair a server writes for an event. */
export function encodeSseEvent(event: SseEvent): { event: SseEventName; data: string } {
  return { event: event.event, data: JSON.stringify(event.data) };
}
