import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../src/core/common/result';
import type { AccessTokenSource } from '../../../../src/core/auth/access-token-source';
import { LOST_TURN_MESSAGE, subscribeEvents } from '../../../../src/core/events/sse-client';
import type {
  ConnectionState,
  EventSubscription,
  StreamError,
  StreamEvent,
  SubscribeOptions,
} from '../../../../src/core/events/sse-client';
import { startScriptedServer } from '../support/scripted-server';
import type { Handler, ScriptedRequest } from '../support/scripted-server';
import { waitFor } from '../support/wait-for';

/**
 * The SSE client against a scripted real HTTP server on 127.0.0.1, for what the local service
 * does not do on demand (go silent, send a broken event, answer 503). The restart test against
 * the real service lives in sse-restart.test.ts.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function countingTokens(): AccessTokenSource & { gets: number; refreshes: number } {
  let current = 1;
  const source = {
    gets: 0,
    refreshes: 0,
    getAccessToken: async () => {
      source.gets += 1;
      return ok(`token-${current}`);
    },
    handleUnauthorized: async () => {
      source.refreshes += 1;
      current += 1;
      return ok(`token-${current}`);
    },
  };
  return source;
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
}

function send(res: ServerResponse, id: string | undefined, event: string, data: unknown): void {
  res.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function setup(script: Handler[], extra: Partial<SubscribeOptions> = {}) {
  let index = 0;
  const server = await startScriptedServer((req, res) => {
    const handler = script[Math.min(index, script.length - 1)]!;
    index += 1;
    return handler(req, res);
  });
  cleanups.push(() => server.close());
  const events: StreamEvent[] = [];
  const states: ConnectionState[] = [];
  const errors: StreamError[] = [];
  const waits: number[] = [];
  const auth = countingTokens();
  const subscription: EventSubscription = subscribeEvents({
    url: `${server.url}/events`,
    auth,
    onEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    onError: (error) => errors.push(error),
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 1,
    ...extra,
  });
  cleanups.push(() => subscription.close());
  return { server, events, states, errors, waits, auth, subscription };
}

const requestsOf = (requests: ScriptedRequest[]) =>
  requests.map((r) => ({ auth: r.headers.authorization, lastEventId: r.headers['last-event-id'] }));

describe('sse client', () => {
  it('parses events with the shared schemas and reports its state', async () => {
    const { events, states, subscription, server } = await setup([
      (req, res) => {
        expect(req.headers.accept).toBe('text/event-stream');
        openStream(res);
        send(res, 't1.1', 'started', { turnId: 't1' });
        send(res, 't1.2', 'chunk', { text: 'Hola', turnId: 't1' });
        res.write(': ping\n\n');
        send(res, 't1.3', 'done', { turnId: 't1' });
      },
    ]);
    await waitFor(() => events.length === 3);
    expect(events).toEqual([
      { id: 't1.1', event: 'started', data: { turnId: 't1' } },
      { id: 't1.2', event: 'chunk', data: { text: 'Hola', turnId: 't1' } },
      { id: 't1.3', event: 'done', data: { turnId: 't1' } },
    ]);
    expect(subscription.lastEventId).toBe('t1.3');
    subscription.close();
    await waitFor(() => states.at(-1) === 'closed');
    expect(states).toEqual(['connecting', 'open', 'closed']);
    expect(server.requests).toHaveLength(1);
  });

  it('reconnects when the server ends the stream, with a fresh bearer, Last-Event-ID and no repeats', async () => {
    const { events, server, auth, states } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, 't1.1', 'chunk', { text: 'a', turnId: 't1' });
        send(res, 't1.2', 'chunk', { text: 'b', turnId: 't1' });
        res.end();
      },
      (_req, res) => {
        openStream(res);
        // A server that replays a little too much: the repeated id must not reach the app.
        send(res, 't1.2', 'chunk', { text: 'b', turnId: 't1' });
        send(res, 't1.3', 'chunk', { text: 'c', turnId: 't1' });
      },
    ]);
    await waitFor(() => events.length === 3);
    expect(events.map((e) => e.id)).toEqual(['t1.1', 't1.2', 't1.3']);
    expect(requestsOf(server.requests)).toEqual([
      { auth: 'Bearer token-1', lastEventId: undefined },
      { auth: 'Bearer token-1', lastEventId: 't1.2' },
    ]);
    expect(auth.gets).toBe(2);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
  });

  it('reconnects when the stream goes quiet for 2.5 heartbeats', async () => {
    const { events, errors, server } = await setup(
      [
        (_req, res) => {
          openStream(res);
          send(res, 't1.1', 'status', { phase: 'thinking' });
          // ...and then nothing, not even a heartbeat.
        },
        (_req, res) => {
          openStream(res);
          send(res, 't1.2', 'status', { phase: 'idle' });
        },
      ],
      { heartbeatMs: 40, watchdogFactor: 2.5 },
    );
    await waitFor(() => events.length === 2);
    expect(errors.map((e) => e.code)).toContain('stalled');
    expect(server.requests[1]!.headers['last-event-id']).toBe('t1.1');
  });

  it('ends a turn that never finished when the stream comes back idle (a restarted server)', async () => {
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'started', { turnId: 't1' });
        send(res, undefined, 'chunk', { text: 'half', turnId: 't1' });
        res.end();
      },
      (_req, res) => {
        openStream(res);
        // This server forgot the turn and only says it is idle.
        send(res, undefined, 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 5);
    expect(events.slice(2)).toEqual([
      { event: 'error', data: { message: LOST_TURN_MESSAGE, code: 'turn_lost', turnId: 't1' } },
      { event: 'done', data: { turnId: 't1' } },
      { event: 'done', data: { idle: true } },
    ]);
  });

  it('ends the turn when a restarted server says idle under the id its earlier run gave its idle notice', async () => {
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        // Idle at first (a conversation that never ran a turn in this run of the server)...
        send(res, 'reposo.0', 'done', { reposo: true });
        send(res, 't1.1', 'started', { turnId: 't1' });
        send(res, 't1.2', 'chunk', { text: 'half', turnId: 't1' });
        res.end();
      },
      (_req, res) => {
        openStream(res);
        // ...and idle again after a restart, under the same id: not a repeat, the turn is lost.
        send(res, 'reposo.0', 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 6);
    expect(events.slice(3)).toEqual([
      { event: 'error', data: { message: LOST_TURN_MESSAGE, code: 'turn_lost', turnId: 't1' } },
      { event: 'done', data: { turnId: 't1' } },
      { id: 'reposo.0', event: 'done', data: { idle: true } },
    ]);
  });

  it("hands events on in our words: the wire's tool {detalle}, done {estado} and done {reposo} are read once here", async () => {
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'started', { turnId: 't1' });
        send(res, undefined, 'tool', {
          id: 'k1',
          title: 'Read a.txt',
          status: 'completed',
          detalle: 'line 1',
        });
        send(res, undefined, 'done', { turnId: 't1', estado: 'stopped' });
        send(res, undefined, 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 4);
    expect(events.slice(1)).toEqual([
      { event: 'tool', data: { id: 'k1', title: 'Read a.txt', status: 'completed', detail: 'line 1' } },
      { event: 'done', data: { turnId: 't1', state: 'stopped' } },
      { event: 'done', data: { idle: true } },
    ]);
  });

  it('without event ids, skips the replay of what it already delivered after a reconnect', async () => {
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'started', { turnId: 't1' });
        send(res, undefined, 'chunk', { text: 'a', turnId: 't1' });
        res.end();
      },
      (_req, res) => {
        openStream(res);
        // The spec's replay: the current turn from its start, then what is new.
        send(res, undefined, 'started', { turnId: 't1' });
        send(res, undefined, 'chunk', { text: 'a', turnId: 't1' });
        send(res, undefined, 'chunk', { text: 'a', turnId: 't1' });
        send(res, undefined, 'done', { turnId: 't1' });
      },
    ]);
    await waitFor(() => events.some((e) => e.event === 'done'));
    expect(events.map((e) => (e.event === 'chunk' ? e.data.text : e.event))).toEqual([
      'started',
      'a',
      'a',
      'done',
    ]);
  });

  it('hands on a long turn at a steady cost per event (20,000 chunks in seconds, not minutes)', async () => {
    const pieces = 20_000;
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'started', { turnId: 't1' });
        for (let i = 0; i < pieces; i++) send(res, undefined, 'chunk', { text: 'word', turnId: 't1' });
        send(res, undefined, 'done', { turnId: 't1' });
      },
    ]);
    // A few seconds on a busy machine; a cost per event that grew with the turn took minutes (a copy of the turn each).
    await waitFor(() => events.some((e) => e.event === 'done'), 45_000);
    expect(events).toHaveLength(pieces + 2);
  });

  it('passes an idle notice through untouched when no turn runs', async () => {
    const { events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'done', { reposo: true });
        send(res, undefined, 'started', { turnId: 't2' });
        send(res, undefined, 'done', { turnId: 't2' });
        send(res, undefined, 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 4);
    expect(events.map((e) => e.event)).toEqual(['done', 'started', 'done', 'done']);
  });

  it('honours Retry-After on 503 and the jittered backoff otherwise', async () => {
    const { events, waits } = await setup([
      (_req, res) => {
        res.writeHead(503, { 'retry-after': '10', 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'reiniciando' }));
      },
      (_req, res) => void res.socket?.destroy(),
      (_req, res) => void res.socket?.destroy(),
      (_req, res) => {
        openStream(res);
        send(res, undefined, 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 1);
    expect(waits).toEqual([10_000, 2000, 4000]);
  });

  it('uses the server retry: field as the backoff step', async () => {
    const { events, waits } = await setup([
      (_req, res) => {
        openStream(res);
        res.write('retry: 300\n\n');
        res.end();
      },
      (_req, res) => {
        openStream(res);
        send(res, 'x.1', 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 1);
    expect(waits).toEqual([300]);
  });

  it('refreshes the token after a 401 and reconnects at once', async () => {
    const { events, server, auth } = await setup([
      (_req, res) => {
        res.writeHead(401);
        res.end('expired');
      },
      (_req, res) => {
        openStream(res);
        send(res, 'x.1', 'done', { reposo: true });
      },
    ]);
    await waitFor(() => events.length === 1);
    expect(auth.refreshes).toBe(1);
    expect(requestsOf(server.requests).map((r) => r.auth)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('stops for good on 404 and says why', async () => {
    const { errors, states, server } = await setup([
      (_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'not_found' }));
      },
    ]);
    await waitFor(() => states.at(-1) === 'closed');
    expect(errors).toEqual([
      {
        code: 'not_found',
        status: 404,
        fatal: true,
        message: "That wasn't found. It may have been deleted, or it isn't yours.",
      },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports an event that breaks the contract and keeps streaming', async () => {
    const { events, errors } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, 't.1', 'chunk', { nope: true });
        send(res, 't.2', 'mystery', {});
        send(res, 't.3', 'chunk', { text: 'ok', turnId: 't' });
      },
    ]);
    await waitFor(() => events.length === 1);
    expect(events[0]!.id).toBe('t.3');
    expect(errors.map((e) => [e.code, e.fatal])).toEqual([
      ['invalid_event', false],
      ['invalid_event', false],
    ]);
  });

  it('closing ends the connection on the server side too', async () => {
    let serverSawClose = false;
    const { subscription, events } = await setup([
      (_req, res) => {
        openStream(res);
        send(res, 'a.1', 'done', { reposo: true });
        res.on('close', () => {
          serverSawClose = true;
        });
      },
    ]);
    await waitFor(() => events.length === 1);
    subscription.close();
    await waitFor(() => serverSawClose);
    await waitFor(() => subscription.state === 'closed');
  });
});
