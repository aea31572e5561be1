import type { TurnState } from '../../shared/api';
import { eventTurnId, extraString, type StreamEvent } from './stream-event';

/**
 * The pure core of the chat: `(state, sseEvent) -> state` for one conversation.
 * No I/O, no clock, no DOM. Invariant: applying an event whose SSE id was
 * already applied returns the very same state, so a reconnect or reload that
 * replays a turn never duplicates text.
 */
import { addPermission, appendText, partKey, resolvePermission, updateTool, withPart } from './turn-parts';
import { ensureTurn, updateTurn } from './turn-timeline';
import { isTerminal, putTurn, type ConversationStream } from './turn-types';

export * from './turn-types';
export * from './user-actions';
export { openPermissions, resolvePermission, textPartSealSize } from './turn-parts';

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
  if (event.event === 'done' && 'idle' in event.data) return false;
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
      const turnState = isTerminal(turn.state) || turn.state === 'queued' ? turn.state : 'running';
      return {
        ...putTurn(s, { ...turn, state: turnState, live: true }),
        currentTurnId: turn.turnId,
        idle: false,
      };
    }
    case 'status': {
      const next = updateTurn(state, eventTurnId(event), (turn) => ({ ...turn, phase: event.data.phase }));
      const turn = next.turns[eventTurnId(event) ?? next.currentTurnId ?? ''];
      // `status {phase: queued}`: the turn waits for a machine.
      if (turn && event.data.phase === 'queued' && !isTerminal(turn.state)) {
        return putTurn(next, { ...turn, state: 'queued' });
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
        state: turn.state === 'stopped' ? 'stopped' : 'error',
      }));
    case 'done':
      return 'idle' in event.data ? rest(state) : finish(state, eventTurnId(event), event.data.state);
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
  const ended: TurnState = turn.state === 'error' || turn.state === 'stopped' ? turn.state : (said ?? 'done');
  const next = putTurn(s, { ...turn, state: ended, live: true, phase: undefined });
  return next.currentTurnId === turn.turnId ? { ...next, currentTurnId: null } : next;
}

/** `done {idle}`: nothing runs. A turn the stream had spoken about is over; one only just posted is not. */
function rest(state: ConversationStream): ConversationStream {
  const current = state.currentTurnId ? state.turns[state.currentTurnId] : undefined;
  if (current && current.live && !isTerminal(current.state)) {
    return { ...finish(state, current.turnId), idle: true };
  }
  return { ...state, idle: true };
}
