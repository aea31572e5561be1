import { sharedInterval } from '../shared/timing/shared-interval';

/**
 * Time as the turn layer sees it: a clock plus one-shot timers, injectable so tests can move
 * time (10-minute permission expiry, schedules) without waiting.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /**
   * Calls `listener` when `now()` jumped (the system clock was set, or the machine woke from sleep).
   * A timer waits on the monotonic clock, so one armed for a wall-clock instant must be armed again.
   * Returns the unsubscribe. Optional: timers a test moves by hand have no jumps.
   */
  onJump?(listener: () => void): () => void;
}

export interface TimerHandle {
  readonly __timer: true;
}

/** Longest delay Node's setTimeout honours; longer waits are re-armed in steps. */
const MAX_DELAY = 2_147_483_647;

/** How often the wall clock is held against the monotonic one, and the gap that counts as a jump. */
const JUMP_CHECK_MS = 1000;
const JUMP_MIN_MS = 1000;

/**
 * Watches for the wall clock moving against the monotonic one by a second or more between two looks a
 * second apart (NTP slews by at most half a millisecond a second; a lagging event loop moves both clocks).
 * One shared interval, running only while someone listens.
 */
export const watchClockJumps = sharedInterval<() => void>(JUMP_CHECK_MS, () => {
  let offset = Date.now() - performance.now();
  return (listeners) => {
    const seen = Date.now() - performance.now();
    if (Math.abs(seen - offset) < JUMP_MIN_MS) return;
    offset = seen;
    for (const each of [...listeners]) each();
  };
});

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
  onJump: watchClockJumps,
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
  return {
    now,
    setTimeout: realTimers.setTimeout,
    clearTimeout: realTimers.clearTimeout,
    onJump: realTimers.onJump!,
  };
}
