/** How often a joined program and a guest look at the folder's lock. */
export const LOCK_LOOK_MS = 1000;

/**
 * Runs `look` every `ms`, one at a time (a tick that comes while the last look still runs is skipped), on a
 * timer that keeps no process alive. Returns the stop. A joined program and a guest watch the folder's lock so.
 */
export function lookEvery(ms: number, look: () => Promise<void>): () => void {
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void look().finally(() => (looking = false));
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
