import type { AcceptedTurnState } from '../../shared/api';
import type { Turn } from './turn-record';

/**
 * A message admitted: what POST messages answers with 202, in our words (the route writes the wire's),
 * and the idempotency record kept for a repeated `turnId`.
 */
export interface Accepted {
  turnId: string;
  key: string;
  state: AcceptedTurnState;
  /** Turns of the agent waiting for a machine. */
  queueLength: number;
  /** It stopped a closing turn and took its place. */
  replaced: boolean;
  /** The same `turnId` was sent before: no second turn. */
  repeated: boolean;
  /** It joined the turn in flight. */
  injected: boolean;
}

export type SubmitResult =
  | { kind: 'accepted'; accepted: Accepted }
  | { kind: 'draining' }
  | { kind: 'quota_exhausted'; message: string };

/** POST cancel: stopped, or why not (no turn in flight, or someone else asked for it). */
export type CancelOutcome = { stopped: true } | { stopped: false; reason: 'no_turn' | 'other_requester' };

/** `key` of the 202 body (the format is our choice). */
export function turnKey(conversationId: string, turnId: string): string {
  return `${conversationId}/${turnId}`;
}

export function acceptedOf(
  turn: Turn,
  extra: Partial<Accepted> & Pick<Accepted, 'state' | 'queueLength'>,
): Accepted {
  return {
    turnId: turn.turnId,
    key: turnKey(turn.conversationId, turn.turnId),
    replaced: false,
    repeated: false,
    injected: false,
    ...extra,
  };
}

/** A stored idempotency record; records written before issue 25 hold the 202 body in the wire's words. */
export function acceptedFromRecord(record: Record<string, unknown>): Accepted {
  if (!('estado' in record)) return record as unknown as Accepted;
  return {
    turnId: String(record.turnId),
    key: String(record.key),
    state: record.estado as AcceptedTurnState,
    queueLength: Number(record.enCola ?? 0),
    replaced: record.reemplazoAnterior === true,
    repeated: record.repetido === true,
    injected: record.inyectado === true,
  };
}
