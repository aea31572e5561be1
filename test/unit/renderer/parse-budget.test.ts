import { describe, expect, it } from 'vitest';
import { createParseBudget } from '../../../src/renderer/model/parse-budget';

/** A hand-cranked clock, frames and idle periods: nothing runs until the test says so. */
function harness(options: { perFrameMs?: number; sliceMs?: number } = {}) {
  let clock = 0;
  let frames: (() => void)[] = [];
  let idle: ((timeRemaining: () => number) => void)[] = [];
  const budget = createParseBudget({
    now: () => clock,
    nextFrame: (callback) => frames.push(callback),
    idle: { request: (callback) => idle.push(callback) },
    perFrameMs: options.perFrameMs ?? 3,
    sliceMs: options.sliceMs ?? 8,
  });
  /** Work that takes `ms` on the clock and returns `value`. */
  const costs =
    <T>(ms: number, value: T) =>
    () => {
      clock += ms;
      return value;
    };
  return {
    budget,
    costs,
    frame() {
      const due = frames;
      frames = [];
      due.forEach((callback) => callback());
    },
    idleSlice(remaining = 50) {
      const due = idle;
      idle = [];
      due.forEach((callback) => callback(() => remaining));
    },
    idleRequests: () => idle.length,
  };
}

describe('parse budget', () => {
  it('runs work at once until the frame has spent its budget, then again after the next frame', () => {
    const h = harness({ perFrameMs: 3 });
    expect(h.budget.tryNow(h.costs(2, 'a'))).toBe('a');
    expect(h.budget.tryNow(h.costs(2, 'b'))).toBe('b');
    // 4 ms spent: this frame is done parsing at once, however long the task goes on.
    expect(h.budget.tryNow(h.costs(1, 'c'))).toBeUndefined();
    expect(h.budget.tryNow(h.costs(1, 'c'))).toBeUndefined();
    h.frame();
    expect(h.budget.tryNow(h.costs(1, 'c'))).toBe('c');
  });

  it('always runs the open block, and counts its time against the frame', () => {
    const h = harness({ perFrameMs: 3 });
    expect(h.budget.spend(h.costs(5, 'open'))).toBe('open');
    expect(h.budget.tryNow(h.costs(1, 'closed'))).toBeUndefined();
  });

  it('works through queued jobs newest first, in slices no longer than allowed', () => {
    const h = harness({ sliceMs: 8 });
    const ran: number[] = [];
    for (let i = 0; i < 10; i++)
      h.budget.enqueue(() => {
        h.costs(3, undefined)();
        ran.push(i);
      });
    expect(h.idleRequests()).toBe(1);
    h.idleSlice();
    // 3 jobs of 3 ms reach the 8 ms slice; the rest wait for the next idle period.
    expect(ran).toEqual([9, 8, 7]);
    h.idleSlice(4);
    expect(ran).toEqual([9, 8, 7, 6, 5]);
    h.idleSlice();
    h.idleSlice();
    expect(ran).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(h.idleRequests()).toBe(0);
  });

  it('runs at least one job per slice, so a long job is not starved', () => {
    const h = harness({ sliceMs: 8 });
    let ran = false;
    h.budget.enqueue(() => {
      h.costs(30, undefined)();
      ran = true;
    });
    h.idleSlice(0);
    expect(ran).toBe(true);
  });

  it('skips cancelled jobs and stops asking for idle time when none are left', () => {
    const h = harness();
    const ran: string[] = [];
    const cancelA = h.budget.enqueue(() => ran.push('a'));
    h.budget.enqueue(() => ran.push('b'));
    const cancelC = h.budget.enqueue(() => ran.push('c'));
    cancelA();
    cancelC();
    cancelC();
    h.idleSlice();
    expect(ran).toEqual(['b']);
    expect(h.idleRequests()).toBe(0);
    // A cancel after its job ran changes nothing for later jobs.
    cancelA();
    h.budget.enqueue(() => ran.push('d'));
    h.idleSlice();
    expect(ran).toEqual(['b', 'd']);
  });
});
