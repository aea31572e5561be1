import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnoProgramado } from '../../../../src/shared/api';
import { ManualTimers } from '../../../../src/service/manual-timers';
import { prepare } from '../../../../src/service/db/statement';
import { createHarness, type Harness } from '../turns/harness';

// Real service and demo agent; time is injected (ManualTimers) so a periodic turn's pace can be counted.
const clock = new ManualTimers();
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ clock });
});
afterAll(() => h?.close());

const inYears = (years: number) => new Date(clock.now() + years * 366 * 24 * 3600_000).toISOString();

describe('schedule numbers are bounded', () => {
  it.each([
    { prompt: 'x', inMinutes: 1e308 },
    { prompt: 'x', inMinutes: 1e12 },
    { prompt: 'x', inMinutes: 6 * 366 * 24 * 60 },
    { prompt: 'x', dueAt: inYears(6) },
    { prompt: 'x', dueAt: '+275760-09-13T00:00:00.000Z' },
    { prompt: 'x', inMinutes: 5, repeatMin: 1e-9 },
    { prompt: 'x', inMinutes: 5, repeatMin: 0.5 },
    { prompt: 'x', inMinutes: 5, repeatMin: 1e308 },
    { prompt: 'x', inMinutes: 5, repeatMin: 10, until: inYears(7) },
  ])('refuses %j with 400 in the error shape and stores nothing', async (body) => {
    const id = await h.conversation();
    const answer = await h.api<{ error: string; detalle: string }>('POST', h.path(id, '/schedule'), body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.any(String), detalle: expect.any(String) });
    const list = await h.api<{ programados: unknown[] }>('GET', h.path(id, '/schedule'));
    expect(list.status).toBe(200);
    expect(list.body.programados).toEqual([]);
  });

  it('accepts the edges: one minute apart, about five years ahead', async () => {
    const id = await h.conversation();
    const answer = await h.api('POST', h.path(id, '/schedule'), {
      prompt: 'x',
      inMinutes: 5 * 365 * 24 * 60,
      repeatMin: 1,
    });
    expect(answer.status).toBe(201);
  });

  it('shows and cancels rows stored before the limits existed, instead of answering 500', async () => {
    const id = await h.conversation();
    const insert = prepare(
      h.service.context.db,
      `INSERT INTO scheduled_turns (id, conversation_id, prompt, due_at, repeat_min, until, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    // The largest time either store's column holds (PostgreSQL's BIGINT), far past the limits.
    await insert.run('huge', id, 'far away', 9e18, null, null, clock.now());
    await insert.run('tiny', id, 'too often', clock.now() + 3600_000, 1e-9, 6e16, clock.now());
    const list = await h.api<{ programados: TurnoProgramado[] }>('GET', h.path(id, '/schedule'));
    expect(list.status).toBe(200);
    expect(list.body.programados.map((p) => TurnoProgramado.parse(p).id).sort()).toEqual(['huge', 'tiny']);
    const tiny = list.body.programados.find((p) => p.id === 'tiny');
    expect(tiny?.repeatMin).toBe(1);
    expect((await h.api('DELETE', h.path(id, '/schedule/huge'))).status).toBe(200);
    expect((await h.api('DELETE', h.path(id, '/schedule/tiny'))).status).toBe(200);
  });

  it('runs no more than a turn a minute from an old sub-minute row', async () => {
    const id = await h.conversation();
    await prepare(
      h.service.context.db,
      `INSERT INTO scheduled_turns (id, conversation_id, prompt, due_at, repeat_min, until, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run('fast', id, 'tick', clock.now() + 60_000, 1e-9, null, clock.now());
    const { scheduler } = h.service.context.conversations;
    scheduler.changed();
    await scheduler.settled();
    clock.advance(60_000);
    await scheduler.settled();
    const row = async () =>
      (await prepare(h.service.context.db, 'SELECT due_at FROM scheduled_turns WHERE id = ?').get(
        'fast',
      )) as {
        due_at: number;
      };
    // It fired once and moved a whole minute on, not a nanosecond.
    expect((await row()).due_at - clock.now()).toBeGreaterThanOrEqual(59_000);
    expect((await h.api('DELETE', h.path(id, '/schedule/fast'))).status).toBe(200);
  });
});
