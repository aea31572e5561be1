/**
 * Passes on the latest value per key at most once per `intervalMs`, so a sync
 * of thousands of files does not send thousands of progress messages over
 * the bridge. An urgent value (a new state) goes out at once, replacing any
 * value still waiting, and the last value of a burst is never lost.
 */
export interface LatestValueThrottle<T> {
  push(key: string, value: T, urgent: boolean): void;
  /** Drops waiting values and timers. */
  close(): void;
}

export interface ThrottleClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createLatestValueThrottle<T>(
  intervalMs: number,
  emit: (key: string, value: T) => void,
  clock: ThrottleClock = realClock,
): LatestValueThrottle<T> {
  const keys = new Map<string, { lastAt: number; timer?: unknown; waiting?: { value: T } }>();
  const send = (key: string, value: T): void => {
    const entry = keys.get(key) ?? { lastAt: 0 };
    if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
    keys.set(key, { lastAt: clock.now() });
    emit(key, value);
  };
  return {
    push(key, value, urgent) {
      const entry = keys.get(key);
      if (!entry || urgent || clock.now() - entry.lastAt >= intervalMs) {
        send(key, value);
        return;
      }
      entry.waiting = { value };
      entry.timer ??= clock.setTimeout(
        () => {
          const current = keys.get(key);
          if (current?.waiting) send(key, current.waiting.value);
        },
        Math.max(0, intervalMs - (clock.now() - entry.lastAt)),
      );
    },
    close() {
      for (const entry of keys.values()) if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
      keys.clear();
    },
  };
}
