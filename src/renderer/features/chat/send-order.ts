import { exclusive } from '../../../shared/timing/exclusive';

/**
 * Messages in one conversation leave in the order the person sent them. A Retry or an Edit is several
 * calls (read the position, rewind, read the history again, send), and a message typed and sent while they
 * run must not reach the server between the rewind and the retried message: it would take the retried
 * message's place and push that one behind it. Each step waits for the steps of its conversation that were
 * asked before it; a step that fails does not hold up the ones after it.
 */
export function inSendOrder<T>(sessionId: string, step: () => Promise<T>): Promise<T> {
  return exclusive(`send:${sessionId}`, step);
}
