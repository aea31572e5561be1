import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnoProgramado } from '../../../../src/shared/api';
import { ManualTimers } from '../../../../src/service/manual-timers';
import { createHarness, type Harness } from './harness';

// Real service and demo agent; only time is injected (ManualTimers) so schedules fall due at once.

const MIN = 60_000;

describe('schedules', () => {
  const clock = new ManualTimers();
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ clock });
  });
  afterAll(() => h?.close());

  it('validates the body with detalle', async () => {
    const id = await h.conversation();
    for (const body of [
      {},
      { prompt: 'x' },
      { prompt: 'x', inMinutes: 1, dueAt: new Date().toISOString() },
      { prompt: 'x', inMinutes: -1 },
      { prompt: 'x', dueAt: 'tomorrow' },
      { prompt: 'x', inMinutes: 10, repeatMin: 5, until: new Date(clock.now()).toISOString() },
    ]) {
      const res = await h.api<{ error: string; detalle: string }>('POST', h.path(id, '/schedule'), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('body_invalido');
      expect(res.body.detalle).toEqual(expect.any(String));
    }
    expect((await h.api('POST', h.path(id, '/schedule'), 'not json')).status).toBe(400);
  });

  it('fires a one-off and a periodic turn when due, lists and cancels', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const once = await h.api<{ programado: TurnoProgramado }>('POST', h.path(id, '/schedule'), {
      prompt: 'scheduled hello',
      inMinutes: 5,
    });
    expect(once.status).toBe(201);
    expect(TurnoProgramado.parse(once.body.programado)).toMatchObject({
      prompt: 'scheduled hello',
      dueAt: new Date(clock.now() + 5 * MIN).toISOString(),
      repeatMin: null,
      until: null,
    });
    // Access tokens live 1 h on the same clock, so the test stays within 50 minutes.
    const every = await h.api<{ programado: TurnoProgramado }>('POST', h.path(id, '/schedule'), {
      prompt: 'periodic ping',
      dueAt: new Date(clock.now() + 30 * MIN).toISOString(),
      repeatMin: 20,
      until: new Date(clock.now() + 80 * MIN).toISOString(),
    });
    const listed = await h.api<{ programados: TurnoProgramado[] }>('GET', h.path(id, '/schedule'));
    expect(listed.body.programados.map((p) => p.id)).toEqual([
      once.body.programado.id,
      every.body.programado.id,
    ]);

    clock.advance(5 * MIN - 1);
    expect(stream.events.filter((e) => e.event === 'started')).toHaveLength(0);
    clock.advance(1);
    const started = await stream.nextNamed('started');
    let events = await stream.untilDone(started.data.turnId as string);
    expect(
      events
        .filter((e) => e.event === 'chunk')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('scheduled hello');

    clock.advance(25 * MIN);
    const second = await stream.nextNamed('started');
    events = await stream.untilDone(second.data.turnId as string);
    expect(
      events
        .filter((e) => e.event === 'chunk')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('periodic ping');
    const after = await h.api<{ programados: TurnoProgramado[] }>('GET', h.path(id, '/schedule'));
    expect(after.body.programados).toEqual([
      { ...every.body.programado, dueAt: new Date(clock.now() + 20 * MIN).toISOString() },
    ]);

    expect((await h.api('DELETE', h.path(id, `/schedule/${every.body.programado.id}`))).status).toBe(200);
    expect((await h.api('DELETE', h.path(id, `/schedule/${every.body.programado.id}`))).status).toBe(404);
    expect(
      (await h.api<{ programados: unknown[] }>('GET', h.path(id, '/schedule'))).body.programados,
    ).toEqual([]);
    clock.advance(60 * MIN);
    // A due item fires inside advance(), and the service stores the turn's message before advance()
    // returns: the conversation already shows any turn it started. (A fresh sign-in: the first token
    // ended with the hour.)
    const conversation = await h.api<{ messages: { role: string; content: string }[] }>(
      'GET',
      h.path(id),
      undefined,
      await h.secondClient(),
    );
    expect(conversation.body.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'scheduled hello',
      'periodic ping',
    ]);
    expect(stream.events.filter((e) => e.event === 'started')).toHaveLength(2);
  });
});

describe('schedules across downtime', { timeout: 150_000 }, () => {
  it('are durable, and a turn missed while the service was down fires once on start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-sched-'));
    const clock = new ManualTimers();
    let h: Harness | null = await createHarness({ dataDir, clock });
    try {
      const id = await h.conversation();
      await h.api('POST', h.path(id, '/schedule'), { prompt: 'missed one', inMinutes: 5 });
      await h.api('POST', h.path(id, '/schedule'), {
        prompt: 'missed periodic',
        inMinutes: 5,
        repeatMin: 10,
      });
      await h.close();
      h = null;
      // Two hours pass while the service is down.
      const later = new ManualTimers(clock.now() + 120 * MIN);
      h = await createHarness({ dataDir, clock: later });
      type Conv = { messages: { role: string; content: string }[]; ultimoTurno: { estado: string } | null };
      const conv = async () => (await h!.api<Conv>('GET', h!.path(id))).body;
      // Both fall due at start-up in one tick: the second joins the first one's turn (one turn at a time).
      // The turn first starts the demo agent's machine (up to 60 s on a loaded machine): a 45 s wait ran
      // out in a fresh-clone run. The poll's message names the state it saw last, not a bare timeout.
      await expect.poll(async () => (await conv()).ultimoTurno?.estado, { timeout: 90_000 }).toBe('done');
      const { messages } = await conv();
      expect(
        messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content)
          .sort(),
      ).toEqual(['missed one', 'missed periodic']);
      expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
      const left = await h.api<{ programados: TurnoProgramado[] }>('GET', h.path(id, '/schedule'));
      expect(left.body.programados).toHaveLength(1);
      expect(Date.parse(left.body.programados[0]!.dueAt)).toBe(clock.now() + 125 * MIN);
    } finally {
      await h?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
