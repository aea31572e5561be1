/**
 * Forwarding a request to the process that holds the agent's lease (cluster/forward.ts), over real HTTP:
 * a real "holder" server and a real forwarding server on 127.0.0.1, the forwarding middleware as the
 * service mounts it. Checked: hop-by-hop headers stop at each hop both ways; the body crosses once,
 * streamed, and intact; an answer streams back as it comes (an event stream) and a caller that leaves
 * cancels it at the holder; a holder that does not answer, or a lease that cannot be read, is a 503 in the
 * API's error shape with Retry-After; only the cluster's secret marks a request as already forwarded.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FORWARDED_HEADER, forwardToHolder } from '../../../../src/service/cluster/forward';
import type { Claim } from '../../../../src/service/cluster/agent-leases';
import type { AppEnv } from '../../../../src/service/http/app-env';

const SECRET = 'cluster-secret-of-this-test';
const AGENT = '/api/v2/me/agents/agent-1';

async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<string> {
  const server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        (server as Server).closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The forwarding process: the middleware in front of a handler that says it answered here. */
async function forwarder(claim: () => Promise<Claim>, answerMs?: number): Promise<string> {
  const app = new Hono<AppEnv>();
  app.use('*', forwardToHolder({ claim, secret: SECRET, retryAfterSeconds: 4, answerMs }));
  app.all('*', (c) => c.json({ servedBy: 'forwarder' }));
  return listen(app.fetch);
}

/** Raw HTTP/1.1, so the test can send hop-by-hop headers fetch would refuse or rewrite. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('forwarding to the lease holder', { timeout: 60_000 }, () => {
  it('drops hop-by-hop headers both ways, keeps the rest, and marks the request with the secret', async () => {
    let seen: Headers | undefined;
    const holder = await listen((request) => {
      seen = request.headers;
      return new Response('{"servedBy":"holder"}', {
        headers: {
          'Content-Type': 'application/json',
          'X-Hop': 'one hop',
          'X-Kept': 'yes',
          Connection: 'X-Hop',
        },
      });
    });
    const front = await forwarder(async () => ({ mine: false, url: holder }));
    const answer = await raw(
      `${front}${AGENT}/restart?x=1`,
      'POST',
      {
        Authorization: 'Bearer caller-token',
        'Content-Type': 'application/json',
        Connection: 'keep-alive, X-Private-Hop',
        'X-Private-Hop': 'secret of this hop',
        'Proxy-Authorization': 'Basic cHJveHk6cHc=',
        TE: 'trailers',
        'X-End-To-End': 'kept',
        [FORWARDED_HEADER]: 'a guess',
      },
      '{}',
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ servedBy: 'holder' });
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.headers['x-hop']).toBeUndefined();
    expect(seen!.get('authorization')).toBe('Bearer caller-token');
    expect(seen!.get('x-end-to-end')).toBe('kept');
    expect(seen!.get(FORWARDED_HEADER)).toBe(SECRET);
    for (const name of ['x-private-hop', 'proxy-authorization', 'te']) expect(seen!.get(name)).toBeNull();
  });

  it('streams the body through once, intact, and the answer back as it comes; a caller that leaves cancels it', async () => {
    let received = 0;
    let cancelled!: () => void;
    const cancelledAtHolder = new Promise<void>((resolve) => (cancelled = resolve));
    const holder = await listen(async (request) => {
      if (request.method === 'PUT') {
        const bytes = new Uint8Array(await request.arrayBuffer());
        received = bytes.length;
        const intact = bytes.every((byte, i) => byte === i % 251);
        return Response.json({ received, intact });
      }
      // An answer that never ends by itself, as an event stream.
      const encoder = new TextEncoder();
      return new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(encoder.encode('event: started\ndata: {}\n\n')),
          cancel: () => cancelled(),
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      );
    });
    const front = await forwarder(async () => ({ mine: false, url: holder }));
    const body = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => i % 251);
    const put = await fetch(`${front}${AGENT}/files/big.bin`, { method: 'PUT', body });
    expect(await put.json()).toEqual({ received: body.length, intact: true });

    const leaving = new AbortController();
    const stream = await fetch(`${front}${AGENT}/models`, { method: 'POST', signal: leaving.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: started');
    leaving.abort();
    await cancelledAtHolder;
  });

  it('answers 503 reiniciando with Retry-After when the holder does not answer or the lease cannot be read', async () => {
    // A holder that takes the connection and never answers (a stalled process).
    const stalled = createServer(() => undefined);
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      stalled.closeAllConnections();
      stalled.close();
    });
    const stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => gone.close(() => resolve()));

    const cases: (() => Promise<Claim>)[] = [
      async () => ({ mine: false, url: stalledUrl }),
      async () => ({ mine: false, url: goneUrl }),
      async () => ({ mine: false, url: null }),
      async () => {
        throw new Error('connection to PostgreSQL lost');
      },
    ];
    for (const claim of cases) {
      const front = await forwarder(claim, 300);
      const answer = await fetch(`${front}${AGENT}/restart`, { method: 'POST' });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('4');
      expect(await answer.json()).toEqual({ error: 'reiniciando', detalle: expect.any(String) });
    }
  });

  it('serves here what this process holds, what is already forwarded, and reads any process serves', async () => {
    let asked = 0;
    const front = await forwarder(async () => {
      asked++;
      return { mine: false, url: 'http://127.0.0.1:9' };
    });
    const here = async (path: string, init: RequestInit = {}) =>
      (await (await fetch(`${front}${path}`, init)).json()) as { servedBy: string };
    expect(await here(`${AGENT}/conversations/c1/events`)).toEqual({ servedBy: 'forwarder' });
    expect(
      await here(`${AGENT}/restart`, { method: 'POST', headers: { [FORWARDED_HEADER]: SECRET } }),
    ).toEqual({ servedBy: 'forwarder' });
    expect(asked).toBe(0);
    const mine = await forwarder(async () => ({ mine: true }));
    expect(await (await fetch(`${mine}${AGENT}/restart`, { method: 'POST' })).json()).toEqual({
      servedBy: 'forwarder',
    });
  });
});
