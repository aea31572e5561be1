import { describe, expect, it } from 'vitest';
import {
  createLatestValueThrottle,
  type ThrottleClock,
} from '../../../../src/core/host/sync/latest-value-throttle';

/** A clock the test moves by hand, so no real time passes. */
function manualClock() {
  let now = 1_000;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let nextId = 0;
  const clock: ThrottleClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = ++nextId;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.run();
    },
    get pending() {
      return timers.length;
    },
  };
}

describe('latest value throttle', () => {
  it('sends the first value at once, then at most one per interval, ending on the latest', () => {
    const time = manualClock();
    const sent: string[] = [];
    const throttle = createLatestValueThrottle<string>(100, (key, v) => sent.push(`${key}:${v}`), time.clock);
    throttle.push('a', '1 of 5', false);
    throttle.push('a', '2 of 5', false);
    throttle.push('a', '3 of 5', false);
    expect(sent).toEqual(['a:1 of 5']);
    time.advance(100);
    expect(sent).toEqual(['a:1 of 5', 'a:3 of 5']);
    throttle.push('a', '4 of 5', false);
    time.advance(50);
    throttle.push('a', '5 of 5', false);
    time.advance(50);
    expect(sent).toEqual(['a:1 of 5', 'a:3 of 5', 'a:5 of 5']);
    expect(time.pending).toBe(0);
  });

  it('sends an urgent value at once and drops the waiting one it replaces', () => {
    const time = manualClock();
    const sent: string[] = [];
    const throttle = createLatestValueThrottle<string>(100, (_key, v) => sent.push(v), time.clock);
    throttle.push('a', 'syncing 1', false);
    throttle.push('a', 'syncing 2', false);
    throttle.push('a', 'idle', true);
    expect(sent).toEqual(['syncing 1', 'idle']);
    time.advance(500);
    expect(sent).toEqual(['syncing 1', 'idle']);
  });

  it('keeps keys apart, and close drops what waits', () => {
    const time = manualClock();
    const sent: string[] = [];
    const throttle = createLatestValueThrottle<string>(100, (key, v) => sent.push(`${key}:${v}`), time.clock);
    throttle.push('a', '1', false);
    throttle.push('b', '1', false);
    throttle.push('a', '2', false);
    expect(sent).toEqual(['a:1', 'b:1']);
    throttle.close();
    time.advance(500);
    expect(sent).toEqual(['a:1', 'b:1']);
  });
});
