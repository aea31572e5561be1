/**
 * What the person did (send, accepted, failed, stopped) and a history reload, merged into the same
 * timeline the turn reducer builds from the stream. Pure, like the reducer.
 */
import type { AcceptedTurn, TurnSummary } from '../../shared/api';
import type { AttachmentMeta } from '../../shared/bridge';
import {
  isTerminal,
  putTurn,
  type ConversationStream,
  type Turn,
  type UserItem,
  type UserItemMode,
} from './turn-types';

// ---- Local actions: what the person did, merged into the same timeline. ----

/** The person pressed send: the message shows at once, marked as sending. */
export function userMessageSent(
  state: ConversationStream,
  item: { key: string; text: string; attachments: readonly AttachmentMeta[] },
): ConversationStream {
  const user: UserItem = { kind: 'user', mode: 'sending', ...item };
  return { ...state, items: [...state.items, user] };
}

/** What the timeline needs of the server's acceptance (the shared `AcceptedTurn`). */
export type AcceptedMessage = Pick<AcceptedTurn, 'turnId' | 'state' | 'waitingTurns'> &
  Partial<Pick<AcceptedTurn, 'injected' | 'replaced'>>;

/** The service accepted the message (202). Links it to its turn and opens the turn's reply. */
export function userMessageAccepted(
  state: ConversationStream,
  key: string,
  accepted: AcceptedMessage,
): ConversationStream {
  // The answer can come last (a busy machine): the stream told the whole turn, and the history read again
  // at its end holds this message and its reply. Showing them again would leave a reply waiting forever.
  if (state.settled?.has(accepted.turnId)) {
    return { ...state, items: state.items.filter((item) => !(item.kind === 'user' && item.key === key)) };
  }
  const mode: UserItemMode = accepted.injected ? 'injected' : accepted.replaced ? 'replacing' : 'sent';
  let items = state.items.map((item) =>
    item.kind === 'user' && item.key === key ? { ...item, mode, turnId: accepted.turnId } : item,
  );
  let turns = state.turns;
  // A replaced turn is stopped by the service; show it so at once.
  if (accepted.replaced && state.currentTurnId && state.currentTurnId !== accepted.turnId) {
    const old = state.turns[state.currentTurnId];
    if (old && !isTerminal(old.state)) turns = { ...turns, [old.turnId]: { ...old, state: 'stopped' } };
  }
  const existing = turns[accepted.turnId];
  if (!existing) {
    const turn: Turn = {
      turnId: accepted.turnId,
      state: accepted.state,
      parts: [],
      live: false,
      waitingTurns: accepted.waitingTurns,
    };
    turns = { ...turns, [turn.turnId]: turn };
    items = [...items, { kind: 'turn', key: `turn:${turn.turnId}`, turnId: turn.turnId }];
  } else if (!accepted.injected && !isTerminal(existing.state)) {
    turns = { ...turns, [existing.turnId]: { ...existing, waitingTurns: accepted.waitingTurns } };
  }
  const current = turns[accepted.turnId];
  // A turn the stream already ended (its answer came last) leaves the conversation as the stream said.
  const running = !!current && !isTerminal(current.state);
  const currentTurnId = running ? accepted.turnId : state.currentTurnId;
  return { ...state, items, turns, currentTurnId, idle: running ? false : state.idle };
}

/** Small pictures of a sent message's images are ready (null where an attachment has none). */
export function userThumbnailsShown(
  state: ConversationStream,
  key: string,
  thumbnails: readonly (string | null)[],
): ConversationStream {
  return {
    ...state,
    items: state.items.map((item) =>
      item.kind === 'user' && item.key === key
        ? {
            ...item,
            attachments: item.attachments.map((a, i) => {
              const thumbnail = thumbnails[i];
              return thumbnail ? { ...a, thumbnail } : a;
            }),
          }
        : item,
    ),
  };
}

/** The send failed before the service accepted it; the message stays, marked with the reason. */
export function userMessageFailed(state: ConversationStream, key: string, error: string): ConversationStream {
  return {
    ...state,
    items: state.items.map((item) =>
      item.kind === 'user' && item.key === key ? { ...item, mode: 'failed' as const, error } : item,
    ),
  };
}

/** Cancel answered that it stopped the turn. */
export function turnStopped(state: ConversationStream, turnId: string): ConversationStream {
  const turn = state.turns[turnId];
  if (!turn || isTerminal(turn.state)) return state;
  return {
    ...putTurn(state, { ...turn, state: 'stopped' }),
    currentTurnId: state.currentTurnId === turnId ? null : state.currentTurnId,
  };
}

/**
 * History was (re)loaded from the service: finished turns are in it now, so
 * they leave the live timeline; a running turn and unsent messages stay.
 */
export function historyLoaded(
  state: ConversationStream,
  lastTurn?: Pick<TurnSummary, 'turnId' | 'state'> | null,
  asked?: ReadAsked,
): ConversationStream {
  // What ended, or was accepted, after the read was asked for may be missing from what it read (a slow host
  // answers late): it stays live until a later read. Without `asked`, the read holds every one.
  const endedInRead = (turnId: string) => lastTurn?.turnId === turnId && isTerminal(lastTurn.state);
  const inHistory = (turnId: string) => !asked || asked.ended.has(turnId) || endedInRead(turnId);
  // A turn the read holds as ended is there, ending included, even while the stream has not told its end yet
  // (a service restarted under it ends it at its start, and the read can come first): shown once, from the read.
  const keepTurn = (turnId: string) => {
    const turn = state.turns[turnId];
    return !!turn && !endedInRead(turnId) && (!isTerminal(turn.state) || !inHistory(turnId));
  };
  const keepUser = (item: UserItem) =>
    item.mode === 'failed' || item.mode === 'sending' || (!!asked && !asked.accepted.has(item.key));
  const items = state.items.filter((item) => (item.kind === 'turn' ? keepTurn(item.turnId) : keepUser(item)));
  const turns = Object.fromEntries(Object.entries(state.turns).filter(([id]) => keepTurn(id)));
  const settled = new Set(state.settled);
  for (const [id, turn] of Object.entries(state.turns))
    if (isTerminal(turn.state) && !turns[id]) settled.add(id);
  if (lastTurn && isTerminal(lastTurn.state) && !turns[lastTurn.turnId]) settled.add(lastTurn.turnId);
  const currentTurnId =
    state.currentTurnId && !turns[state.currentTurnId] && settled.has(state.currentTurnId)
      ? null
      : state.currentTurnId;
  return { ...state, items, turns, settled, currentTurnId };
}

/** Whether a message of this timeline still awaits the service's answer to its send. */
export const awaitsAnswer = (state: ConversationStream | undefined): boolean =>
  !!state?.items.some((item) => item.kind === 'user' && item.mode === 'sending');

/** What the timeline held when a history read was asked for: the turns ended and the messages accepted. */
export interface ReadAsked {
  ended: ReadonlySet<string>;
  accepted: ReadonlySet<string>;
}

/** The timeline's state a read asked for now will hold (given to `historyLoaded` with its answer). */
export function readAsked(state: ConversationStream | undefined): ReadAsked {
  const turns = Object.values(state?.turns ?? {});
  const users = (state?.items ?? []).filter((item): item is UserItem => item.kind === 'user');
  return {
    ended: new Set(turns.filter((t) => isTerminal(t.state)).map((t) => t.turnId)),
    accepted: new Set(users.filter((u) => u.mode !== 'sending' && u.mode !== 'failed').map((u) => u.key)),
  };
}

/**
 * Whether the timeline, folded with a read's answer, still shows a message that read may hold too: one sent
 * after it was asked for (or not yet accepted then). The service may have stored it before it served the
 * read, so only a read asked once the message is accepted can tell; until then it may show twice.
 */
export function readMayHoldLive(state: ConversationStream | undefined, asked: ReadAsked): boolean {
  return (state?.items ?? []).some(
    (item) => item.kind === 'user' && item.mode !== 'failed' && !asked.accepted.has(item.key),
  );
}
