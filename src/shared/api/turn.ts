import type { AcceptedTurnState } from './common';

/**
 * What the server answers about a conversation's turns, in our words. The API client (core/api/turn-words.ts)
 * reads them from the wire's 202 of POST messages, cancel and permission answers (docs/architecture.md, glossary).
 */

/** A message the server took (the wire's 202 `PostMessageAccepted`). */
export interface AcceptedTurn {
  turnId: string;
  key: string;
  /** `estado` */
  state: AcceptedTurnState;
  /** `enCola`: turns of the agent waiting for a machine. */
  waitingTurns: number;
  /** `inyectado`: the message joined the turn in flight. */
  injected: boolean;
  /** `reemplazoAnterior`: the message replaced a closing turn. */
  replaced: boolean;
  /** `repetido`: the turn id was sent before; the first answer stands. */
  repeated: boolean;
}

/** The answer to stopping a reply (the wire's `{detenido}`). */
export interface CancelOutcome {
  /** A running turn was stopped. */
  stopped: boolean;
}

/** The answer to a permission question (the wire's `{resuelto}`). */
export interface PermissionOutcome {
  /** The question was still open and took this answer. */
  resolved: boolean;
}
