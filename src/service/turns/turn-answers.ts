import type { AcceptedTurnState } from '../../shared/api';
import type { Turn } from './turn-record';

/** The 202 body of POST messages (spec), also stored as the idempotency record. */
export interface Accepted {
  turnId: string;
  key: string;
  estado: AcceptedTurnState;
  enCola: number;
  reemplazoAnterior: boolean;
  repetido: boolean;
  inyectado: boolean;
}

export type SubmitResult =
  { kind: 'accepted'; body: Accepted } | { kind: 'draining' } | { kind: 'quota_exhausted'; message: string };

export type CancelOutcome = { detenido: boolean; motivo?: 'sin_turno' | 'otro_solicitante' };

/** `key` of the 202 body (the format is our choice). */
export function turnKey(conversationId: string, turnId: string): string {
  return `${conversationId}/${turnId}`;
}

export function acceptedBody(
  turn: Turn,
  extra: Partial<Accepted> & Pick<Accepted, 'estado' | 'enCola'>,
): Accepted {
  return {
    turnId: turn.turnId,
    key: turnKey(turn.conversationId, turn.turnId),
    reemplazoAnterior: false,
    repetido: false,
    inyectado: false,
    ...extra,
  };
}
