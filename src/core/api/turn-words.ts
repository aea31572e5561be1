import type {
  AcceptedTurn,
  CancelOutcome,
  CancelResult,
  PermissionOutcome,
  PermissionResult,
  PostMessageAccepted,
} from '../../shared/api';

/** The wire's turn words -> ours (shared/api/turn.ts), read once here for every layer above. */

export function acceptedTurnFromWire(wire: PostMessageAccepted): AcceptedTurn {
  return {
    turnId: wire.turnId,
    key: wire.key,
    state: wire.estado,
    waitingTurns: wire.enCola,
    injected: wire.inyectado,
    replaced: wire.reemplazoAnterior,
    repeated: wire.repetido,
  };
}

export const cancelOutcomeFromWire = (wire: CancelResult): CancelOutcome => ({ stopped: wire.detenido });

export const permissionOutcomeFromWire = (wire: PermissionResult): PermissionOutcome => ({
  resolved: wire.resuelto,
});
