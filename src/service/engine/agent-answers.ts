import type { RequestError } from '@agentclientprotocol/sdk/unstable';

/**
 * Reading what an agent answers: its own reason inside a JSON-RPC error, and the checks that an
 * answer follows the protocol (a broken answer ends the turn as an error, never as a silent "done").
 */

/** An answer that breaks ACP, e.g. `session/new` without `sessionId`. */
export class AgentProtocolError extends Error {
  constructor(method: string, problem: string) {
    super(`The agent broke the ACP protocol: its ${method} answer ${problem}.`);
    this.name = 'AgentProtocolError';
  }
}

const STOP_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);

/** The `sessionId` of a `session/new` answer, or a protocol error. */
export function requireSessionId(answer: unknown): string {
  const sessionId = (answer as { sessionId?: unknown } | null)?.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw new AgentProtocolError('session/new', 'has no sessionId');
  }
  return sessionId;
}

/** Checks a `session/prompt` answer's `stopReason` (one of ACP's), else a protocol error. */
export function requireStopReason<T extends { stopReason?: unknown }>(answer: T | null | undefined): T {
  const stopReason = answer?.stopReason;
  if (typeof stopReason !== 'string') throw new AgentProtocolError('session/prompt', 'has no stopReason');
  if (!STOP_REASONS.has(stopReason)) {
    throw new AgentProtocolError('session/prompt', `has an unknown stopReason "${stopReason.slice(0, 40)}"`);
  }
  return answer as T;
}

/**
 * The agent's own words for a JSON-RPC error: SDK-based agents put the real reason (a rate limit,
 * a model failure) in `data.details` and leave `message` as the generic "Internal error".
 */
export function agentReason(error: RequestError): string {
  const data: unknown = error.data;
  if (typeof data === 'string' && data.trim()) return data.trim();
  if (data && typeof data === 'object') {
    for (const key of ['details', 'message', 'error'] as const) {
      const value = (data as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return value.trim();
    }
  }
  return error.message;
}
