import { describe, expect, it } from 'vitest';
import { nextDueAfter, planFromBody } from '../../../../src/service/schedules/schedule-rules';
import { Scheduler, type ScheduledItem } from '../../../../src/service/schedules/scheduler';
import { ManualTimers } from '../../../../src/service/manual-timers';

const MIN = 60_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');

describe('planFromBody', () => {
  it('accepts inMinutes or dueAt, and repeat bounds', () => {
    expect(planFromBody({ prompt: 'hola', inMinutes: 5 }, T0)).toEqual({
      ok: true,
      value: { prompt: 'hola', dueAt: T0 + 5 * MIN, repeatMin: null, until: null },
    });
    const r = planFromBody(
      { prompt: 'x', dueAt: '2030-01-01T01:00:00Z', repeatMin: 30, until: '2030-01-02T00:00:00Z' },
      T0,
    );
    expect(r).toMatchObject({ ok: true, value: { dueAt: T0 + 60 * MIN, repeatMin: 30 } });
  });

  // The app shows the refusal's message as it is (the wire's `detalle`): a plain sentence that says what to change.
  it.each([
    [null, 'The request must be a JSON object.'],
    [{ inMinutes: 1 }, 'Write the message to send.'],
    [{ prompt: 'x' }, 'either minutes from now (inMinutes) or a date and time (dueAt)'],
    [{ prompt: 'x', inMinutes: 1, dueAt: '2030-01-01T00:00:00Z' }, 'not both'],
    [{ prompt: 'x', inMinutes: 'soon' }, 'The minutes from now must be a number'],
    [{ prompt: 'x', dueAt: 'tomorrow' }, 'The time to send is not a date and time'],
    [{ prompt: 'x', inMinutes: 1, repeatMin: 0 }, 'The repeat interval must be'],
    [{ prompt: 'x', inMinutes: 10, until: '2030-01-01T00:01:00Z' }, 'The end of the repeats is before'],
  ])('rejects %j with a sentence', (body, word) => {
    const r = planFromBody(body, T0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.refusal).toMatchObject({ code: 'invalid', message: expect.stringContaining(word) });
  });
});

describe('nextDueAfter', () => {
  it('skips missed occurrences and stops at until', () => {
    const plan = { prompt: 'x', dueAt: T0, repeatMin: 10, until: T0 + 60 * MIN };
    expect(nextDueAfter(plan, T0)).toBe(T0 + 10 * MIN);
    expect(nextDueAfter(plan, T0 + 35 * MIN)).toBe(T0 + 40 * MIN);
    expect(nextDueAfter(plan, T0 + 60 * MIN)).toBeNull();
    expect(nextDueAfter({ ...plan, repeatMin: null }, T0)).toBeNull();
  });
});

describe('Scheduler', () => {
  function memorySource(items: ScheduledItem[]) {
    const map = new Map(items.map((i) => [i.id, { ...i }]));
    return {
      map,
      pending: () => [...map.values()],
      reschedule: (id: string, dueAt: number) => void (map.get(id)!.dueAt = dueAt),
      finish: (id: string) => void map.delete(id),
    };
  }

  it('fires a missed item once at start, then periodic items on time', async () => {
    const timers = new ManualTimers(T0 + 95 * MIN);
    const source = memorySource([
      { id: 'once', prompt: 'a', dueAt: T0, repeatMin: null, until: null },
      { id: 'every10', prompt: 'b', dueAt: T0, repeatMin: 10, until: null },
    ]);
    const fired: string[] = [];
    const scheduler = new Scheduler(source, timers, (item) => fired.push(item.id));
    scheduler.start();
    await scheduler.settled();
    expect(fired).toEqual(['once', 'every10']);
    expect(source.map.get('every10')!.dueAt).toBe(T0 + 100 * MIN);
    timers.advance(5 * MIN - 1);
    await scheduler.settled();
    expect(fired).toHaveLength(2);
    timers.advance(1);
    await scheduler.settled();
    expect(fired).toEqual(['once', 'every10', 'every10']);
    scheduler.close();
    expect(timers.pendingCount).toBe(0);
  });

  it('follows additions and cancellations', async () => {
    const timers = new ManualTimers(T0);
    const source = memorySource([]);
    const fired: string[] = [];
    const scheduler = new Scheduler(source, timers, (item) => fired.push(item.id));
    scheduler.start();
    source.map.set('x', { id: 'x', prompt: 'x', dueAt: T0 + MIN, repeatMin: null, until: null });
    source.map.set('y', { id: 'y', prompt: 'y', dueAt: T0 + 2 * MIN, repeatMin: null, until: null });
    scheduler.changed();
    source.map.delete('x');
    scheduler.changed();
    await scheduler.settled();
    timers.advance(3 * MIN);
    await scheduler.settled();
    expect(fired).toEqual(['y']);
  });
});
