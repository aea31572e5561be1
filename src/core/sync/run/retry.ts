import { RemoteError } from '../plan/remote-side';

export interface RetryOptions {
  attempts: number;
  /** First back-off; doubles each try, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
}

export const defaultRetry: RetryOptions = {
  attempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Runs `operation`, backing off with jitter on retryable failures and honouring Retry-After. */
export async function withRetry<T>(
  operation: () => Promise<T>,
  options: RetryOptions = defaultRetry,
): Promise<T> {
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      const failure =
        error instanceof RemoteError ? error : new RemoteError(String((error as Error)?.message ?? error));
      // A server nothing answers at was tried by the API client already: say so now, the next
      // cycle tries again.
      if (!failure.retryable || failure.unreachable || attempt >= options.attempts) throw failure;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
      const jittered = backoff / 2 + random() * (backoff / 2);
      await options.sleep(Math.max(jittered, failure.retryAfterMs ?? 0));
    }
  }
}
