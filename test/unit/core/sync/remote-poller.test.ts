/**
 * Issue 30, item 4: the agent-write poll idles. Its schedule with the app's own numbers (2 s,
 * then up to 16 s), under fake timers: the looks space out while nothing moves, and a change or
 * a turn brings them back to 2 s at once. (The same against the real service, with real timers:
 * test/integration/sync/sync-poll-idle.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollRemote, type RemotePoller } from '../../../../src/core/sync/engine/remote-poller';

let looks: number[];
let moved: boolean;
let poller: RemotePoller;

beforeEach(() => {
  vi.useFakeTimers();
  looks = [];
  moved = false;
  poller = pollRemote({
    periodMs: 2000,
    hasChanged: async () => {
      looks.push(Date.now());
      const answer = moved;
      moved = false;
      return answer;
    },
    busy: () => false,
    onChange: async () => undefined,
  });
});
afterEach(() => {
  poller.stop();
  vi.useRealTimers();
});

/** The gaps between looks, in seconds. */
const gaps = () => looks.slice(1).map((at, i) => (at - looks[i]!) / 1000);

describe('the agent-write poll', () => {
  it('looks every 2 s for 10 s, then every 4, 8 and 16 s while nothing moves', async () => {
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(60_000);
    expect((looks[0]! - start) / 1000).toBe(2);
    expect(gaps()).toEqual([2, 2, 2, 2, 4, 8, 16, 16]);
    expect(poller.currentPeriodMs).toBe(16_000);
    // 30 looks a minute at a fixed 2 s; backed off, 9.
    expect(looks.length).toBe(9);
  });

  it('comes back to 2 s when a turn runs, with a look within 2 s', async () => {
    await vi.advanceTimersByTimeAsync(60_000);
    const before = looks.length;
    poller.quicken();
    expect(poller.currentPeriodMs).toBe(2000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(looks.length).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(8000);
    expect(gaps().slice(-4)).toEqual([2, 2, 2, 2]);
  });

  it('comes back to 2 s when the agent wrote something', async () => {
    await vi.advanceTimersByTimeAsync(60_000);
    moved = true;
    await vi.advanceTimersByTimeAsync(16_000);
    expect(poller.currentPeriodMs).toBe(2000);
    const before = looks.length;
    await vi.advanceTimersByTimeAsync(2000);
    expect(looks.length).toBe(before + 1);
  });

  it('keeps its period with the back-off off', async () => {
    poller.stop();
    looks = [];
    poller = pollRemote({
      periodMs: 2000,
      idle: false,
      hasChanged: async () => (looks.push(Date.now()), false),
      busy: () => false,
      onChange: async () => undefined,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(looks.length).toBe(30);
  });
});
