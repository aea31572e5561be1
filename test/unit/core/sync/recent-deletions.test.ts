import { describe, expect, it } from 'vitest';
import { RecentDeletions } from '../../../../src/core/sync/engine/recent-deletions';

// The guard's memory of recent deletes, on a clock the test moves (the engine's is performance.now, which
// a change of the system clock does not move); sync-slow-deletions.test.ts runs it on real files.
const files = (n: number, prefix = 'f') => Array.from({ length: n }, (_, i) => `${prefix}/${i}.txt`);

describe('recent deletions', () => {
  it('counts each side over the window, and forgets what left before it', () => {
    let now = 1000;
    const recent = new RecentDeletions(60_000, () => now);
    recent.record('remote', files(3, 'a'));
    now += 30_000;
    recent.record('remote', files(2, 'b'));
    recent.record('local', files(1));
    expect(recent.counts()).toEqual({ local: 1, remote: 5 });
    now += 30_001;
    expect(recent.counts()).toEqual({ local: 1, remote: 2 });
    now += 30_000;
    expect(recent.counts()).toEqual({ local: 0, remote: 0 });
  });

  it('keeps the count while a pause waits for the person, and forgets it once confirmed', () => {
    let now = 0;
    const recent = new RecentDeletions(60_000, () => now);
    recent.record('remote', files(20));
    recent.hold(true);
    now += 10 * 60_000;
    expect(recent.counts().remote).toBe(20);
    recent.hold(false);
    expect(recent.counts().remote).toBe(0);
    recent.record('local', files(4));
    recent.hold(true);
    recent.clear();
    expect(recent.counts()).toEqual({ local: 0, remote: 0 });
  });

  it('no longer counts a path written back to its side (a git branch switched back and forth)', () => {
    const recent = new RecentDeletions(60_000, () => 0);
    for (let round = 0; round < 4; round += 1) {
      recent.record('remote', files(8, 'lib'));
      recent.restored('remote', files(8, 'lib'));
    }
    recent.record('remote', files(3, 'src'));
    recent.restored('local', files(3, 'src'));
    expect(recent.counts()).toEqual({ local: 0, remote: 3 });
  });
});
