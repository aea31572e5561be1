/**
 * Every request of the sync has a deadline, so a server that takes a request and never answers
 * cannot stall a cycle: the call is aborted and becomes a retryable fault with a plain message,
 * and the next try (or the next cycle) runs. The deadline grows with the bytes the call carries.
 */
import type { ApiError } from '../../api/api-error';
import { byteDeadlineMs, type DeadlineTiming } from '../../api/deadline';
import type { ApiResult, CallOptions } from '../../api/api-request';
import { err } from '../../common/result';

export type { DeadlineTiming };

/** 30 s, plus 10 s per MB (100 KB/s): a 10 MB file has 130 s. */
export const defaultDeadline: DeadlineTiming = { baseMs: 30_000, msPerMegabyte: 10_000 };

export function deadlineMs(bytes: number, timing: DeadlineTiming = defaultDeadline): number {
  return byteDeadlineMs(bytes, timing);
}

export interface DeadlineCall {
  /** The bytes sent, or expected back (from the listing), for the size allowance. */
  bytes?: number;
  timing?: DeadlineTiming;
  /** Request headers to send along (e.g. a conditional write's If-Match). */
  headers?: Record<string, string>;
}

/**
 * Runs one API call under a deadline that covers the whole exchange (retries and the body
 * included). A call still unanswered at its deadline resolves to a `timeout` error (status 0:
 * the sync retries it), never hangs.
 */
export async function withDeadline<T>(
  call: (options: CallOptions) => Promise<ApiResult<T>>,
  options: DeadlineCall = {},
): Promise<ApiResult<T>> {
  const ms = deadlineMs(options.bytes ?? 0, options.timing);
  // A controller whose timer is cleared once the call ends: AbortSignal.timeout would leave one
  // timer per request pending for its whole deadline (2,000 of them on a first sync).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const { signal } = controller;
  const callOptions: CallOptions = { signal, ...(options.headers ? { headers: options.headers } : {}) };
  try {
    const result = await call(callOptions);
    return !result.ok && signal.aborted ? err(timedOut(ms)) : result;
  } catch (error) {
    // The body is read inside the call: an abort while it streams throws rather than returns.
    if (signal.aborted) return err(timedOut(ms));
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(ms: number): ApiError {
  const seconds = ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
  return {
    code: 'timeout',
    status: 0,
    message: `the agent's server did not answer within ${seconds}`,
  };
}
