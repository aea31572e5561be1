import type { CancelResult, PostMessageAccepted } from '../../shared/api';
import type { Accepted, CancelOutcome } from '../turns/turn-answers';

/** The 202 body of POST messages: our words to the wire's. */
export function acceptedJson(accepted: Accepted): PostMessageAccepted {
  return {
    turnId: accepted.turnId,
    key: accepted.key,
    estado: accepted.state,
    enCola: accepted.queueLength,
    reemplazoAnterior: accepted.replaced,
    repetido: accepted.repeated,
    inyectado: accepted.injected,
  };
}

const cancelReasons = { no_turn: 'sin_turno', other_requester: 'otro_solicitante' } as const;

/** The body of POST cancel; `motivo` when nothing was stopped is our addition. */
export function cancelJson(outcome: CancelOutcome): CancelResult & { motivo?: string } {
  return outcome.stopped ? { detenido: true } : { detenido: false, motivo: cancelReasons[outcome.reason] };
}
