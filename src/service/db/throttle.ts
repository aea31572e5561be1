import type { Clock } from '../clock';

/** Runs `task` at most once per `intervalMs` of `clock` time (housekeeping such as purging expired rows). */
export function throttled(clock: Clock, intervalMs: number, task: () => void): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const now = clock.now();
    if (now - last < intervalMs) return;
    last = now;
    task();
  };
}
