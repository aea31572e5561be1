import { TurnState } from '../../shared/api';
import type { RecordedEvent, TurnDetail } from '../../shared/bridge/memory';

/** The live, mutable fold of one turn's events (a turn's detail as it grows); written out in batches. */
export interface TurnRecord extends Pick<
  TurnDetail,
  'turnId' | 'startedAt' | 'state' | 'events' | 'usage' | 'models' | 'title'
> {
  /** The highest stream index (`<turnId>.<n>`) folded in, so a replayed event is never counted twice. */
  lastEvent: number;
  /** As read from disk: the chunk runs hold lengths, the text is in the turn's message (reply-in-message.ts). */
  replyInMessage?: boolean;
}

export function newTurnRecord(turnId: string, startedAt: number): TurnRecord {
  return { turnId, startedAt, events: [], lastEvent: 0 };
}

/** Events whose runs fold into one (a reply's text, a thought). */
const FOLDED = new Set(['chunk', 'thought']);
/** Events kept in order as they came. */
const KEPT = new Set(['permission', 'permission-resolved', 'error', 'artifact']);

/**
 * Folds one event into `record` in place and says whether anything changed. Chunks append to the
 * open text run (O(1), so a 10,000-chunk reply costs what the text costs); a tool keeps its first
 * place and takes each update's fields, so it ends in its final state; usage, models and title keep
 * their latest value. `index` is the event's number within the turn when the stream stamped one.
 */
export function foldEvent(record: TurnRecord, event: RecordedEvent, index?: number): boolean {
  if (index !== undefined) {
    if (index <= record.lastEvent) return false;
    record.lastEvent = index;
  }
  const { event: name, data } = event;
  if (FOLDED.has(name)) {
    const text = typeof data['text'] === 'string' ? data['text'] : '';
    const last = record.events[record.events.length - 1];
    if (last?.event === name) last.data['text'] = String(last.data['text']) + text;
    else record.events.push({ event: name, data: { text } });
    return true;
  }
  if (name === 'tool') {
    const existing = record.events.find((e) => e.event === 'tool' && e.data['id'] === data['id']);
    if (existing) Object.assign(existing.data, data);
    else record.events.push({ event: name, data: { ...data } });
    return true;
  }
  if (KEPT.has(name)) {
    record.events.push({ event: name, data: { ...data } });
    return true;
  }
  if (name === 'usage') record.usage = { ...data };
  else if (name === 'models') record.models = { ...data };
  else if (name === 'title' && typeof data['title'] === 'string') record.title = data['title'];
  // A state the spec does not list ends the turn as `done`, as the chat's reducer reads it.
  else if (name === 'done' && typeof data['state'] === 'string')
    record.state = turnStateOf(data['state']) ?? 'done';
  else return false;
  return true;
}

/** The reply text the app saw: every chunk, in order. */
export function recordedReply(events: readonly RecordedEvent[]): string {
  let text = '';
  for (const e of events) if (e.event === 'chunk') text += String(e.data['text']);
  return text;
}

/** `<turnId>.<n>` -> n, when the id has that shape. */
export function eventIndexOf(id: string | undefined, turnId: string): number | undefined {
  if (!id?.startsWith(turnId + '.')) return undefined;
  const n = Number(id.slice(turnId.length + 1));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `value` as one of the spec's turn states, or undefined for anything else. */
export function turnStateOf(value: unknown): TurnState | undefined {
  const parsed = TurnState.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A `turns` row as the store reads it. */
export interface TurnRow {
  turn_id: string;
  started_at: number;
  user_text: string | null;
  state: string | null;
  last_event: number;
  record: string;
}

/** A stored row -> the fold it was written from, to show it or to go on folding. */
export function parseTurnRow(row: TurnRow): TurnRecord {
  const parsed = JSON.parse(row.record) as Partial<TurnRecord> & { replyIn?: string };
  const state = turnStateOf(row.state);
  return {
    ...newTurnRecord(row.turn_id, row.started_at),
    events: parsed.events ?? [],
    ...(parsed.usage ? { usage: parsed.usage } : {}),
    ...(parsed.models ? { models: parsed.models } : {}),
    ...(parsed.title ? { title: parsed.title } : {}),
    ...(state ? { state } : {}),
    lastEvent: row.last_event,
    ...(parsed.replyIn === 'message' ? { replyInMessage: true } : {}),
  };
}
