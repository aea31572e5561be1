import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostMessageAccepted, parseSseEvent } from '../../../../src/shared/api';
import type { ReceivedEvent } from '../../../support/sse';
import { createHarness, type Harness } from './harness';

// Real service on 127.0.0.1, the real demo agent over stdio, real SSE. Nothing is mocked.

const names = (events: ReceivedEvent[]) => events.map((e) => e.event);
const text = (events: ReceivedEvent[], turnId?: string) =>
  events
    .filter((e) => e.event === 'chunk' && (!turnId || e.data.turnId === turnId))
    .map((e) => e.data.text)
    .join('');

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { turns: { heartbeatMs: 100 } } });
});
afterAll(() => h?.close());

describe('a turn, from POST to done', () => {
  it('answers 202 with every field and streams the turn, subscribing before sending', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    // Idle on connect: done {reposo:true}, with an id.
    const idle = await stream.next();
    expect(idle).toMatchObject({ event: 'done', data: { reposo: true } });
    expect(idle.id).toBeTruthy();

    const turnId = randomUUID();
    const res = await h.send(id, { content: 'hello there', turnId });
    expect(res.status).toBe(202);
    expect(PostMessageAccepted.parse(res.body)).toEqual({
      turnId,
      key: expect.any(String),
      estado: 'running',
      enCola: 0,
      reemplazoAnterior: false,
      repetido: false,
      inyectado: false,
    });

    const events = await stream.untilDone(turnId);
    for (const e of events) expect(parseSseEvent(e.event, e.data)).toMatchObject({ ok: true });
    expect(events[0]).toMatchObject({ event: 'started', data: { turnId } });
    expect(names(events)).toEqual(
      expect.arrayContaining(['status', 'thought', 'chunk', 'models', 'usage', 'done']),
    );
    expect(names(events).filter((n) => n === 'chunk').length).toBeGreaterThan(1);
    expect(text(events, turnId)).toContain('You said: "hello there"');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { turnId, estado: 'done' } });
    // Every event carries an id, all distinct.
    const ids = events.map((e) => e.id);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    await stream.nextNamed('done', (d) => d.reposo === true);

    const conv = await h.api<{ messages: { role: string; content: string }[]; ultimoTurno: unknown }>(
      'GET',
      h.path(id),
    );
    expect(conv.body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(conv.body.messages[1]!.content).toBe(text(events, turnId));
    expect(conv.body.ultimoTurno).toMatchObject({ turnId, estado: 'done' });
  });

  it('sends a heartbeat comment on the configured interval', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    await stream.heartbeats(2);
    expect(stream.comments[0]).toBe('ping');
  });

  it('a stream that goes away releases its subscription and heartbeat', async () => {
    const id = await h.conversation();
    const hub = h.service.context.conversations.heartbeats;
    const before = hub.size;
    const streams = await Promise.all([h.events(id), h.events(id), h.events(id)]);
    await Promise.all(streams.map((s) => s.next()));
    expect(hub.size).toBe(before + 3);
    for (const s of streams) s.close();
    const deadline = Date.now() + 30_000;
    while (hub.size > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(hub.size).toBe(before);
  });

  it('titles the thread when a primerTurno closes', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'Plan the garden party\nwith details', primerTurno: true });
    const events = await stream.untilDone(res.body.turnId as string);
    const title = events.find((e) => e.event === 'title');
    expect(title?.data).toEqual({ title: 'Plan the garden party' });
    expect(names(events).indexOf('title')).toBeLessThan(names(events).lastIndexOf('done'));
    const list = await h.api<{ conversaciones: { id: string; titulo: string | null }[] }>('GET', h.path());
    expect(list.body.conversaciones.find((c) => c.id === id)?.titulo).toBe('Plan the garden party');
  });

  it('shortens a long first line at a word, with no "…" of its own in the stored title', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const long =
      'Please compare the three quotes for the kitchen renovation and tell me which contractor to pick first';
    const res = await h.send(id, { content: long, primerTurno: true });
    const events = await stream.untilDone(res.body.turnId as string);
    const expected = 'Please compare the three quotes for the kitchen renovation';
    expect(events.find((e) => e.event === 'title')?.data).toEqual({ title: expected });
    const list = await h.api<{ conversaciones: { id: string; titulo: string | null }[] }>('GET', h.path());
    const stored = list.body.conversaciones.find((c) => c.id === id)?.titulo;
    expect(stored).toBe(expected);
    expect(stored).not.toMatch(/…|\.\.\.$/);
  });

  it('titles the thread with the words its first line reads as, not its Markdown marks', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const content = '## Fix `parse_args` in **cli.ts**, see [the issue](https://example.com/1)\nthanks';
    const res = await h.send(id, { content, primerTurno: true });
    const events = await stream.untilDone(res.body.turnId as string);
    const expected = 'Fix parse_args in cli.ts, see the issue';
    expect(events.find((e) => e.event === 'title')?.data).toEqual({ title: expected });
    const list = await h.api<{ conversaciones: { id: string; titulo: string | null }[] }>('GET', h.path());
    expect(list.body.conversaciones.find((c) => c.id === id)?.titulo).toBe(expected);
  });

  it('passes attachments to the agent as content blocks', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const images = [
      { name: 'a.png', mimeType: 'image/png', data: Buffer.from('png-bytes').toString('base64') },
      { name: 'b.txt', mimeType: 'text/plain', data: Buffer.from('hello').toString('base64') },
    ];
    const res = await h.send(id, { content: 'echo look', images });
    expect(res.status).toBe(202);
    const events = await stream.untilDone(res.body.turnId as string);
    expect(text(events)).toContain('I received 2 attachments');
  });

  it('applies a model change from the next turn', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const first = await h.send(id, { content: 'hi' });
    const events = await stream.untilDone(first.body.turnId as string);
    const models = events.find((e) => e.event === 'models')!;
    expect(models.data.current).toBe('demo-fast');
    expect((await h.api('POST', h.path(id, '/model'), {})).status).toBe(400);
    expect((await h.api('POST', h.path(id, '/model'), { model: 'nope' })).status).toBe(400);
    expect((await h.api('POST', h.path(id, '/model'), { model: 'demo-deep' })).status).toBe(200);
    const second = await h.send(id, { content: 'hi again' });
    const after = await stream.untilDone(second.body.turnId as string);
    expect(text(after)).toContain('(model: demo-deep)');
  });
});

describe('errors of POST messages', () => {
  it('400 without content, 400 with more than 8 attachments, 404 for an unknown conversation', async () => {
    const id = await h.conversation();
    const missing = await h.api('POST', h.path(id, '/messages'), { turnId: randomUUID() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'body_invalido' });
    const img = { mimeType: 'image/png', data: 'AAAA' };
    const many = await h.send(id, { content: 'x', images: Array.from({ length: 9 }, () => img) });
    expect(many.status).toBe(400);
    expect((await h.send(randomUUID(), { content: 'x' })).status).toBe(404);
  });

  it('503 reiniciando with Retry-After while draining; the same turnId then works once', async () => {
    const id = await h.conversation();
    const turnId = randomUUID();
    h.service.context.conversations.setDraining(true);
    try {
      const refused = await h.send(id, { content: 'hello', turnId });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'reiniciando' });
      expect(refused.headers.get('retry-after')).toBe('10');
    } finally {
      h.service.context.conversations.setDraining(false);
    }
    const stream = await h.events(id);
    const retry = await h.send(id, { content: 'hello', turnId });
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ turnId, repetido: false });
    await stream.untilDone(turnId);
    const again = await h.send(id, { content: 'hello', turnId });
    expect(again.body).toMatchObject({ turnId, repetido: true });
    const conv = await h.api<{ messages: unknown[] }>('GET', h.path(id));
    expect(conv.body.messages).toHaveLength(2);
  });
});

describe('idempotency', () => {
  it('20 concurrent POSTs with one turnId make one turn', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const turnId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.send(id, { content: 'only once', turnId })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(answers.every((a) => a.body.turnId === turnId)).toBe(true);
    expect(answers.filter((a) => a.body.repetido === false)).toHaveLength(1);
    expect(answers.filter((a) => a.body.repetido === true)).toHaveLength(19);
    await stream.untilDone(turnId);
    expect(stream.events.filter((e) => e.event === 'started')).toHaveLength(1);
    const conv = await h.api<{ messages: { role: string }[] }>('GET', h.path(id));
    expect(conv.body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('replay and resume', () => {
  it('a mid-turn reconnect with Last-Event-ID misses nothing and repeats nothing', async () => {
    const id = await h.conversation();
    const first = await h.events(id);
    await first.next(); // idle notice
    const res = await h.send(id, { content: 'wait 1' });
    const turnId = res.body.turnId as string;
    // Read until the wait tool runs, then drop the connection mid-turn.
    await first.nextNamed('tool', (d) => d.status === 'in_progress');
    first.close();
    const seen = first.events.slice(1);
    const resumed = await h.events(id, { lastEventId: seen.at(-1)!.id });
    const rest = await resumed.untilDone(turnId);
    // A fresh subscriber gets the whole current turn replayed (the turn may have ended: then the idle notice).
    const ids = [...seen, ...rest].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.map((i) => Number(i!.split('.').pop()))).toEqual(ids.map((_, n) => n + 1));
    expect(rest.at(-1)).toMatchObject({ event: 'done', data: { turnId } });
    expect(text([...seen, ...rest])).toContain('Done waiting 1 seconds.');
  });

  it('a subscriber joining mid-turn first gets what the turn already emitted', async () => {
    const id = await h.conversation();
    const res = await h.send(id, { content: 'wait 1' });
    const turnId = res.body.turnId as string;
    const watcher = await h.events(id);
    await watcher.nextNamed('tool', (d) => d.status === 'in_progress');
    const late = await h.events(id);
    const replayed = await late.untilDone(turnId);
    expect(replayed[0]).toMatchObject({ event: 'started', data: { turnId } });
    await watcher.untilDone(turnId);
    expect(replayed.map((e) => e.id)).toEqual(watcher.events.slice(0, replayed.length).map((e) => e.id));
  });
});

describe('injection, replacement and cancel', () => {
  it('a message to a running turn joins it and is answered in the same turn', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'wait 1' });
    const turnId = res.body.turnId as string;
    await stream.nextNamed('tool', (d) => d.status === 'in_progress');
    const joined = await h.send(id, { content: 'echo injected words' });
    expect(joined.status).toBe(202);
    expect(joined.body).toMatchObject({
      turnId,
      inyectado: true,
      reemplazoAnterior: false,
      estado: 'running',
    });
    const events = await stream.untilDone(turnId);
    const reply = text(events, turnId);
    expect(reply.indexOf('Done waiting 1 seconds.')).toBeLessThan(reply.indexOf('injected words'));
    expect(events.filter((e) => e.event === 'started')).toHaveLength(0); // no second turn
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { turnId, estado: 'done' } });
    const conv = await h.api<{ messages: { role: string }[] }>('GET', h.path(id));
    expect(conv.body.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('cancel is refused to another requester and stops the turn for its own', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'wait 30' });
    const turnId = res.body.turnId as string;
    await stream.nextNamed('tool', (d) => d.status === 'in_progress');
    const other = await h.secondClient();
    const refused = await h.api('POST', h.path(id, '/cancel'), undefined, other);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ detenido: false });
    const stopped = await h.api('POST', h.path(id, '/cancel'));
    expect(stopped.body).toMatchObject({ detenido: true });
    const events = await stream.untilDone(turnId);
    expect(events.at(-1)).toMatchObject({ data: { turnId, estado: 'stopped' } });
    const conv = await h.api<{ ultimoTurno: unknown }>('GET', h.path(id));
    expect(conv.body.ultimoTurno).toMatchObject({ turnId, estado: 'stopped' });
    expect((await h.api('POST', h.path(id, '/cancel'))).body).toMatchObject({ detenido: false });
  });
});

describe('agent failures', () => {
  it('a crash mid-turn gives an error event and state error; the next turn respawns the agent', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const crash = await h.send(id, { content: 'crash' });
    const events = await stream.untilDone(crash.body.turnId as string);
    expect(events.find((e) => e.event === 'error')?.data.message).toEqual(expect.any(String));
    expect(events.at(-1)).toMatchObject({ data: { estado: 'error' } });
    const list = await h.api<{ conversaciones: { id: string; ultimoTurno: { estado: string } }[] }>(
      'GET',
      h.path(),
    );
    expect(list.body.conversaciones.find((c) => c.id === id)?.ultimoTurno.estado).toBe('error');
    const next = await h.send(id, { content: 'are you back?' });
    const after = await stream.untilDone(next.body.turnId as string);
    expect(after.at(-1)).toMatchObject({ data: { estado: 'done' } });
    expect(text(after)).toContain('are you back?');
  });

  it('a prompt that fails ends in state error with its message', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'fail' });
    const events = await stream.untilDone(res.body.turnId as string);
    expect(events.find((e) => e.event === 'error')).toBeTruthy();
    expect(events.at(-1)).toMatchObject({ data: { estado: 'error' } });
  });
});
