import type { TurnState } from '../../shared/api';
import { splitMarkdown } from './markdown-splitter';
import { eventTurnId, extraString, type StreamEvent, type StreamEventMap } from './stream-event';

/**
 * The pure core of the chat: `(state, sseEvent) -> state` for one conversation.
 * No I/O, no clock, no DOM. Invariant: applying an event whose SSE id was
 * already applied returns the very same state, so a reconnect or reload that
 * replays a turn never duplicates text.
 */
import {
  isTerminal,
  provisionalTurnId,
  putTurn,
  type ConversationStream,
  type Part,
  type PermissionPart,
  type TimelineItem,
  type ToolPart,
  type Turn,
  type TurnItem,
} from './turn-types';

export * from './turn-types';
export * from './user-actions';

/** Applies one SSE event. */
export function reduceTurnEvent(state: ConversationStream, event: StreamEvent): ConversationStream {
  return reduceTurnEvents(state, [event]);
}

/** Applies a batch of SSE events (one animation frame's worth); the seen-id set is copied once per batch. */
export function reduceTurnEvents(
  state: ConversationStream,
  events: readonly StreamEvent[],
): ConversationStream {
  let seen: Set<string> | undefined;
  let upTo: Record<string, number> | undefined;
  let next = state;
  for (const event of events) {
    if (event.id !== undefined) {
      const ordinal = /^(.+)\.(\d+)$/.exec(event.id);
      if (ordinal) {
        // Events of one turn come in order, so a replay is anything at or below the highest seen.
        const [, turn, n] = ordinal as unknown as [string, string, string];
        const high = (upTo ?? state.seenUpTo)?.[turn] ?? 0;
        if (Number(n) <= high) continue;
        upTo ??= { ...state.seenUpTo };
        upTo[turn] = Number(n);
      } else {
        if ((seen ?? state.seen).has(event.id)) continue;
        seen ??= new Set(state.seen);
        seen.add(event.id);
      }
    }
    next = isSettled(next, event) ? followSettled(next, event) : apply(next, event);
  }
  if (seen) next = { ...next, seen };
  if (upTo) next = { ...next, seenUpTo: upTo };
  return next;
}

const conversationLevel = new Set<StreamEvent['event']>(['title', 'models', 'caps']);

function isSettled(state: ConversationStream, event: StreamEvent): boolean {
  if (!state.settled || conversationLevel.has(event.event)) return false;
  if (event.event === 'done' && event.data.reposo) return false;
  const turnId = eventTurnId(event) ?? state.currentTurnId;
  return !!turnId && state.settled.has(turnId);
}

/** A replayed event of a turn the history already shows: only keep track of where the stream is. */
function followSettled(state: ConversationStream, event: StreamEvent): ConversationStream {
  const turnId = eventTurnId(event);
  if (event.event === 'started' && turnId) return { ...state, currentTurnId: turnId };
  if (event.event === 'done' && (!turnId || turnId === state.currentTurnId))
    return { ...state, currentTurnId: null };
  return state;
}

function apply(state: ConversationStream, event: StreamEvent): ConversationStream {
  switch (event.event) {
    case 'started': {
      const [s, turn] = ensureTurn(state, event.data.turnId);
      // The service announces `started` even for a turn that still waits for a machine.
      const estado = isTerminal(turn.estado) || turn.estado === 'queued' ? turn.estado : 'running';
      return { ...putTurn(s, { ...turn, estado, live: true }), currentTurnId: turn.turnId, idle: false };
    }
    case 'status': {
      const next = updateTurn(state, eventTurnId(event), (turn) => ({ ...turn, phase: event.data.phase }));
      const turn = next.turns[eventTurnId(event) ?? next.currentTurnId ?? ''];
      // `status {phase: queued}`: the turn waits for a machine.
      if (turn && event.data.phase === 'queued' && !isTerminal(turn.estado)) {
        return putTurn(next, { ...turn, estado: 'queued' });
      }
      return next;
    }
    case 'chunk':
      return updateTurn(state, event.data.turnId, (turn) => appendText(turn, 'text', event.data.text));
    case 'thought':
      return updateTurn(state, eventTurnId(event), (turn) => appendText(turn, 'thought', event.data.text));
    case 'tool':
      return updateTool(state, event.data);
    case 'title':
      return { ...state, title: event.data.title };
    case 'models':
      // The server's word on the model ends a local choice that waited for it.
      return {
        ...state,
        models: { options: event.data.options, current: event.data.current },
        chosenModel: undefined,
      };
    case 'caps':
      return { ...state, caps: { image: event.data.image } };
    case 'usage':
      return updateTurn(state, undefined, (turn) => ({ ...turn, usage: event.data }));
    case 'permission':
      return addPermission(state, event.data);
    case 'permission-resolved':
      return resolvePermission(state, event.data.id, extraString(event.data.optionId));
    case 'artifact':
      return updateTurn(state, undefined, (turn) =>
        withPart(turn, { type: 'artifact', key: partKey(turn), data: event.data }),
      );
    case 'error':
      return updateTurn(state, eventTurnId(event), (turn) => ({
        ...withPart(turn, { type: 'error', key: partKey(turn), message: event.data.message }),
        estado: turn.estado === 'stopped' ? 'stopped' : 'error',
      }));
    case 'done':
      return event.data.reposo
        ? rest(state)
        : finish(state, eventTurnId(event), extraString(event.data.estado));
  }
}

function finish(
  state: ConversationStream,
  turnId: string | undefined,
  reported?: string,
): ConversationStream {
  const id = turnId ?? state.currentTurnId;
  if (!id) return state;
  const [s, turn] = ensureTurn(state, id);
  const said = reported === 'error' || reported === 'stopped' || reported === 'done' ? reported : undefined;
  const estado: TurnState =
    turn.estado === 'error' || turn.estado === 'stopped' ? turn.estado : (said ?? 'done');
  const next = putTurn(s, { ...turn, estado, live: true, phase: undefined });
  return next.currentTurnId === turn.turnId ? { ...next, currentTurnId: null } : next;
}

/** `done {reposo}`: nothing runs. A turn the stream had spoken about is over; one only just posted is not. */
function rest(state: ConversationStream): ConversationStream {
  const current = state.currentTurnId ? state.turns[state.currentTurnId] : undefined;
  if (current && current.live && !isTerminal(current.estado)) {
    return { ...finish(state, current.turnId), idle: true };
  }
  return { ...state, idle: true };
}

/** The most recent turn in the timeline, if any. */
function latestTurnId(state: ConversationStream): string | undefined {
  return state.items.findLast((item): item is TurnItem => item.kind === 'turn')?.turnId;
}

function ensureTurn(state: ConversationStream, turnId: string | undefined): [ConversationStream, Turn] {
  // An event that names no turn belongs to the current one, else to the latest (e.g. usage after a cancel).
  let id = turnId ?? state.currentTurnId ?? latestTurnId(state) ?? provisionalTurnId;
  // A provisional turn takes the real id as soon as one is heard.
  if (
    turnId &&
    !state.turns[turnId] &&
    state.turns[provisionalTurnId] &&
    state.currentTurnId === provisionalTurnId
  ) {
    state = renameTurn(state, provisionalTurnId, turnId);
    id = turnId;
  }
  const existing = state.turns[id];
  if (existing) return [state, existing];
  const turn: Turn = { turnId: id, estado: 'running', parts: [], live: true };
  const items: TimelineItem[] = [...state.items, { kind: 'turn', key: `turn:${id}`, turnId: id }];
  const next = {
    ...state,
    items,
    turns: { ...state.turns, [id]: turn },
    currentTurnId: state.currentTurnId && state.currentTurnId !== id ? state.currentTurnId : id,
    idle: false,
  };
  return [next, turn];
}

function renameTurn(state: ConversationStream, from: string, to: string): ConversationStream {
  const { [from]: turn, ...others } = state.turns;
  if (!turn) return state;
  return {
    ...state,
    turns: { ...others, [to]: { ...turn, turnId: to } },
    items: state.items.map((item) =>
      item.kind === 'turn' && item.turnId === from ? { ...item, turnId: to, key: `turn:${to}` } : item,
    ),
    currentTurnId: state.currentTurnId === from ? to : state.currentTurnId,
  };
}

function updateTurn(
  state: ConversationStream,
  turnId: string | undefined,
  change: (turn: Turn) => Turn,
): ConversationStream {
  const [s, turn] = ensureTurn(state, turnId);
  const changed = change(turn);
  // Anything heard about a queued turn means it runs now (a `status` may say otherwise).
  const estado = changed.estado === 'queued' ? 'running' : changed.estado;
  return putTurn(s, { ...changed, estado, live: true });
}

function partKey(turn: Turn): string {
  return `${turn.turnId}:${turn.parts.length}`;
}

function withPart(turn: Turn, part: Part): Turn {
  return { ...turn, parts: [...turn.parts, part] };
}

/** Past this size a reply's text starts a new part at the next block boundary, so no string grows without end. */
export const textPartSealSize = 32 * 1024;

function appendText(turn: Turn, type: 'text' | 'thought', text: string): Turn {
  const last = turn.parts[turn.parts.length - 1];
  if (last && last.type === 'text' && type === 'text' && last.text.length > textPartSealSize) {
    const cut = sealPoint(last.text, text);
    if (cut !== undefined) {
      const parts = turn.parts.slice();
      parts[parts.length - 1] = { ...last, text: last.text + text.slice(0, cut) };
      return withPart({ ...turn, parts }, { type: 'text', key: partKey(turn), text: text.slice(cut) });
    }
  }
  if (last && last.type === type) {
    const parts = turn.parts.slice();
    parts[parts.length - 1] = { ...last, text: last.text + text };
    return { ...turn, parts };
  }
  return withPart(turn, { type, key: partKey(turn), text });
}

/**
 * Where in `chunk` a new top-level markdown block starts (after a blank line, at
 * column 0, outside a code fence), or undefined. Rendering the two parts apart
 * then gives the same blocks as rendering them together.
 */
function sealPoint(text: string, chunk: string): number | undefined {
  const joined = text.slice(-2) + chunk;
  const found = /\n[ \t]*\n(?=[^\s])/.exec(joined);
  if (!found) return undefined;
  const cut = found.index + found[0].length - 2;
  if (cut <= 0) return undefined;
  const split = splitMarkdown(text + chunk.slice(0, cut) + chunk.slice(cut, cut + 1));
  return split.openStart === text.length + cut ? cut : undefined;
}

function findPart<T extends Part['type']>(
  state: ConversationStream,
  type: T,
  id: string,
): { turn: Turn; index: number } | undefined {
  // The current turn first: that is where live updates land.
  const ids = state.currentTurnId
    ? [state.currentTurnId, ...Object.keys(state.turns)]
    : Object.keys(state.turns);
  for (const turnId of ids) {
    const turn = state.turns[turnId];
    if (!turn) continue;
    const index = turn.parts.findIndex((p) => p.type === type && (p as ToolPart | PermissionPart).id === id);
    if (index >= 0) return { turn, index };
  }
  return undefined;
}

function replacePart(state: ConversationStream, turn: Turn, index: number, part: Part): ConversationStream {
  const parts = turn.parts.slice();
  parts[index] = part;
  return putTurn(state, { ...turn, parts });
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

function updateTool(state: ConversationStream, data: StreamEventMap['tool']): ConversationStream {
  const { turnId, ...fields } = data;
  const found = findPart(state, 'tool', data.id);
  if (found) {
    const old = found.turn.parts[found.index] as ToolPart;
    return replacePart(state, found.turn, found.index, { ...old, ...definedOnly(fields) });
  }
  return updateTurn(state, extraString(turnId), (turn) =>
    withPart(turn, { type: 'tool', key: partKey(turn), ...definedOnly(fields), id: data.id }),
  );
}

function addPermission(state: ConversationStream, data: StreamEventMap['permission']): ConversationStream {
  const { turnId, ...fields } = data;
  const found = findPart(state, 'permission', data.id);
  if (found) {
    const old = found.turn.parts[found.index] as PermissionPart;
    return replacePart(state, found.turn, found.index, { ...old, ...definedOnly(fields) });
  }
  return updateTurn(state, extraString(turnId), (turn) =>
    withPart(turn, {
      type: 'permission',
      key: partKey(turn),
      id: data.id,
      title: data.title,
      tool: data.tool,
      toolCall: data.toolCall,
      options: data.options,
      resolved: false,
    }),
  );
}

export function resolvePermission(
  state: ConversationStream,
  id: string,
  chosen?: string,
): ConversationStream {
  const found = findPart(state, 'permission', id);
  if (!found) return state;
  const old = found.turn.parts[found.index] as PermissionPart;
  return replacePart(state, found.turn, found.index, {
    ...old,
    resolved: true,
    ...(chosen ? { chosen } : {}),
  });
}

/** Open permission prompts, oldest first. */
export function openPermissions(state: ConversationStream): PermissionPart[] {
  const open: PermissionPart[] = [];
  for (const item of state.items) {
    if (item.kind !== 'turn') continue;
    for (const part of state.turns[item.turnId]?.parts ?? []) {
      if (part.type === 'permission' && !part.resolved) open.push(part);
    }
  }
  return open;
}
