import type { Clock } from '../clock';

/**
 * Runs `task` at most once per `intervalMs` of `clock` time (housekeeping such as purging expired rows);
 * the returned promise settles when this call's run does (at once when skipped).
 */
export function throttled(clock: Clock, intervalMs: number, task: () => unknown): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = clock.now();
    // A clock moved back since the last run (now < last) runs it, rather than skip it for the jump's length.
    if (now >= last && now - last < intervalMs) return;
    last = now;
    await task();
  };
}
