/**
 * The turn state machine of the spec's "States and transitions" table, as pure functions.
 *
 * States: queued -> running -> done | error | stopped; a queued turn can also be stopped
 * (cancel, replacement) or fail (the engine could not start). Final states never move.
 * While running, a turn is either still accepting input or already closing (the agent has
 * delivered its reply, or a stop was asked for) — that split decides injection vs replacement.
 */

import { isTerminal, type TurnState } from '../../shared/api';

const NEXT: Record<TurnState, readonly TurnState[]> = {
  queued: ['running', 'stopped', 'error'],
  running: ['done', 'error', 'stopped'],
  done: [],
  error: [],
  stopped: [],
};

export function canMove(from: TurnState, to: TurnState): boolean {
  return NEXT[from].includes(to);
}

export interface TurnSnapshot {
  state: TurnState;
  /** The agent already gave its reply (or a stop is under way): new input can no longer join. */
  closing: boolean;
  /** Who commissioned the turn (an OAuth grant, see turn-manager). */
  requester: string;
}

/**
 * What a new message in a conversation does, given that conversation's current turn:
 * - `new`: no turn in flight, a new one starts;
 * - `inject`: joins the turn in flight (`inyectado: true`);
 * - `replace`: stops the closing turn and starts a new one (`reemplazoAnterior: true`);
 * - `queue`: the closing turn belongs to someone else, who alone may replace it, so the new
 *   turn waits for it to finish (our choice where the spec is silent).
 */
export type IncomingRoute = 'new' | 'inject' | 'replace' | 'queue';

export function routeIncoming(current: TurnSnapshot | null, requester: string): IncomingRoute {
  if (!current || isTerminal(current.state)) return 'new';
  if (!current.closing) return 'inject';
  return current.requester === requester ? 'replace' : 'queue';
}
