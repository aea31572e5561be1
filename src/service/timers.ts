/**
 * Time as the turn layer sees it: a clock plus one-shot timers, injectable so tests can move
 * time (10-minute permission expiry, schedules) without waiting.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly __timer: true;
}

/** Longest delay Node's setTimeout honours; longer waits are re-armed in steps. */
const MAX_DELAY = 2_147_483_647;

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const state: { t?: NodeJS.Timeout } = {};
    const due = Date.now() + ms;
    const arm = () => {
      const left = due - Date.now();
      state.t = setTimeout(left > MAX_DELAY ? arm : fn, Math.min(Math.max(left, 0), MAX_DELAY));
      state.t.unref?.();
    };
    arm();
    return state as unknown as TimerHandle;
  },
  clearTimeout(handle) {
    const t = (handle as unknown as { t?: NodeJS.Timeout }).t;
    if (t) clearTimeout(t);
  },
};

/**
 * Adapts a plain clock (`now()` only) into Timers: the wall clock's timers are used, but
 * delays are computed against the given clock. A clock that also has timers is used as is.
 */
export function timersFrom(clock?: { now(): number } & Partial<Omit<Timers, 'now'>>): Timers {
  if (!clock || typeof clock.now !== 'function') return realTimers;
  if (typeof clock.setTimeout === 'function' && typeof clock.clearTimeout === 'function') {
    return clock as Timers;
  }
  const now = clock.now.bind(clock);
  return { now, setTimeout: realTimers.setTimeout, clearTimeout: realTimers.clearTimeout };
}
