import type { Clock } from '../clock';

/**
 * Runs `task` at most once per `intervalMs` of `clock` time (housekeeping such as purging expired rows);
 * the returned promise settles when this call's run does (at once when skipped).
 */
export function throttled(clock: Clock, intervalMs: number, task: () => unknown): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = clock.now();
    if (now - last < intervalMs) return;
    last = now;
    await task();
  };
}
