import {
  provisionalTurnId,
  putTurn,
  type ConversationStream,
  type TimelineItem,
  type Turn,
  type TurnItem,
} from './turn-types';

/** Finding and changing a turn of the timeline, for the turn reducer. Pure. */

/** The most recent turn in the timeline, if any. */
function latestTurnId(state: ConversationStream): string | undefined {
  return state.items.findLast((item): item is TurnItem => item.kind === 'turn')?.turnId;
}

export function ensureTurn(
  state: ConversationStream,
  turnId: string | undefined,
): [ConversationStream, Turn] {
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
  const turn: Turn = { turnId: id, state: 'running', parts: [], live: true };
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

export function updateTurn(
  state: ConversationStream,
  turnId: string | undefined,
  change: (turn: Turn) => Turn,
): ConversationStream {
  const [s, turn] = ensureTurn(state, turnId);
  const changed = change(turn);
  // Anything heard about a queued turn means it runs now (a `status` may say otherwise).
  return putTurn(s, {
    ...changed,
    state: changed.state === 'queued' ? 'running' : changed.state,
    live: true,
  });
}
