import { isTerminal, type TurnState } from '../../shared/api';
import type { TurnResult } from '../engine/types';
import type { ConversationStore } from '../conversations/conversation-store';
import { closingTitle } from '../conversations/thread-title';
import type { Executor } from '../db/statement';
import type { ConversationRuntime } from './conversation-runtimes';
import type { TurnHooks } from './turn-manager-options';
import type { Turn } from './turn-record';

/** What closing a turn may do to the turn manager's conversations (turn-manager.ts gives it). */
export interface CloseDeps {
  store: ConversationStore;
  hooks?: TurnHooks | undefined;
  now(): number;
  /** Records in the store, in order with the turn's other writes. */
  persist(write: (on: Executor | undefined) => Promise<unknown>): void;
  /** Makes the next waiting turn the conversation's current one and hands it to the engine. */
  begin(rt: ConversationRuntime, turn: Turn): void;
}

/** The engine ended its part of the turn: tells how (error, interruption), runs the closing hook, then closes. */
export async function finishTurn(
  deps: CloseDeps,
  rt: ConversationRuntime,
  turn: Turn,
  result: TurnResult,
): Promise<void> {
  if (isTerminal(turn.state)) return;
  turn.closing = true;
  const state: TurnState =
    result.stopReason === 'error' ? 'error' : result.stopReason === 'cancelled' ? 'stopped' : 'done';
  if (state === 'error') {
    rt.log.append('error', {
      message: result.error ?? 'The agent failed without saying why.',
      code: result.errorCode ?? null,
    });
  } else if (result.interruptedBy) {
    rt.log.append('status', { phase: 'interrumpido', motivo: result.interruptedBy, turnId: turn.turnId });
  }
  try {
    await deps.hooks?.closing?.({ conversationId: turn.conversationId, turnId: turn.turnId });
  } catch {
    // A failing hook must not keep a turn open.
  }
  if (isTerminal(turn.state)) return; // replaced while closing
  closeTurn(deps, rt, turn, state);
}

/** Stops a turn at once (replacement, cancel of a turn not yet with the engine, a waiting turn). */
export function stopTurnNow(deps: CloseDeps, rt: ConversationRuntime, turn: Turn, startNext: boolean): void {
  turn.abort.abort();
  if (turn.state === 'queued' && rt.waiting.includes(turn)) {
    rt.waiting.splice(rt.waiting.indexOf(turn), 1);
    turn.state = 'stopped';
    const at = deps.now();
    deps.persist((on) => deps.store.setTurnState(turn.conversationId, turn.turnId, 'stopped', at, on));
    turn.markFinished();
    return;
  }
  closeTurn(deps, rt, turn, 'stopped', startNext);
}

/** Final bookkeeping of the current turn: reply, title, state, `done`, then the next turn. */
export function closeTurn(
  deps: CloseDeps,
  rt: ConversationRuntime,
  turn: Turn,
  state: TurnState,
  startNext = true,
): void {
  const { store } = deps;
  const now = deps.now();
  turn.state = state;
  turn.closing = true;
  rt.broker.cancelAll();
  if (turn.reply.trim() !== '')
    deps.persist((on) =>
      store.addMessage(turn.conversationId, turn.turnId, 'assistant', turn.reply, now, on),
    );
  const title = closingTitle(turn.agentTitle, turn.firstTurn, turn.content);
  if (title !== null) {
    deps.persist((on) => store.titleIfEmpty(turn.conversationId, title, on));
    // Known from admission (the write above may still be queued): `title` comes before `done`.
    if (turn.untitled) rt.log.append('title', { title });
  }
  const tokens = turn.tokens;
  if (tokens > 0) deps.persist((on) => store.setTurnTokens(turn.conversationId, turn.turnId, tokens, on));
  deps.persist((on) => store.setTurnState(turn.conversationId, turn.turnId, state, now, on));
  const next = startNext ? rt.waiting.shift() : undefined;
  // `estado` on done is our addition: the final state, so clients need no extra request.
  rt.log.endTurn(startNext && !next, { estado: state });
  rt.current = null;
  turn.markFinished();
  if (next) deps.begin(rt, next);
}
