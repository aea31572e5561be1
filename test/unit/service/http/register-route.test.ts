import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../../../src/service/http/app-env';
import { settleRefusedBodies } from '../../../../src/service/http/read-body';
import { honoPath, registerRoute } from '../../../../src/service/http/register-route';
import type { RouteSpec } from '../../../../src/shared/api';

// registerRoute on a real Hono app called in process (`app.request`, no socket: a refused body is cancelled).
const entry = {
  operationId: 'probe',
  method: 'POST',
  path: '/probe/{id}/items/{path}',
  tag: 'test',
  summary: 'A route of this test only',
  scope: null,
  credential: 'none',
  request: {
    params: z.object({ id: z.string().regex(/^\d+$/, { error: 'id must be digits' }), path: z.string() }),
    query: z.object({ n: z.coerce.number().int().optional() }),
    body: { kind: 'json', schema: z.object({ name: z.string() }), required: true, maxBytes: 64 },
  },
  responses: { 200: { description: 'ok', body: 'empty' } },
} as const satisfies RouteSpec;

function probeApp(before?: () => Response | null) {
  const app = new Hono<AppEnv>();
  app.use('*', settleRefusedBodies());
  registerRoute(app, entry, (c, { params, query, body }) => c.json({ params, query, body }), {
    ...(before && { before }),
  });
  return app;
}

const post = (app: Hono<AppEnv>, path: string, body: string) =>
  app.request(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('registerRoute', () => {
  it('turns a path template into the Hono path, a final {path} spanning segments', () => {
    expect(honoPath('/api/v2/agents/{id}/files/{path}')).toBe('/api/v2/agents/:id/files/*');
    expect(honoPath('/api/v2/me/agents/{agentId}/conversations/{sessionId}')).toBe(
      '/api/v2/me/agents/:agentId/conversations/:sessionId',
    );
  });

  it('hands the handler the parsed params, query and body', async () => {
    const res = await post(probeApp(), '/probe/7/items/a/b%20c.md?n=3', '{"name":"x"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      params: { id: '7', path: 'a/b c.md' },
      query: { n: 3 },
      body: { name: 'x' },
    });
  });

  it('answers bad params, query or body with 400 {error, detalle} before the handler runs', async () => {
    const app = probeApp();
    for (const [path, body, named] of [
      ['/probe/x/items/a', '{"name":"x"}', 'id'],
      ['/probe/7/items/a?n=1.5', '{"name":"x"}', 'n'],
      ['/probe/7/items/a', '{"name":5}', 'name'],
    ] as const) {
      const res = await post(app, path, body);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ error: 'body_invalido', detalle: expect.stringContaining(named) });
    }
  });

  it('answers a body over the entry’s cap with 413, declared or streamed', async () => {
    const app = probeApp();
    const declared = await app.request('/probe/7/items/a', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '100' },
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'body_demasiado_grande', detalle: expect.any(String) });
    const chunks = [new TextEncoder().encode('{"name":"'), new Uint8Array(100).fill(120)];
    const streamed = await app.request('/probe/7/items/a', {
      method: 'POST',
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('runs `before` first: its answer stands and no input is read', async () => {
    const app = probeApp(() => new Response('refused', { status: 409 }));
    const res = await post(app, '/probe/not-digits/items/a', 'not json');
    expect(res.status).toBe(409);
    expect(await res.text()).toBe('refused');
  });

  it('refuses to register a form route that is not read by its handler', () => {
    const form = {
      ...entry,
      request: { body: { kind: 'form', required: true } },
    } as const satisfies RouteSpec;
    expect(() => registerRoute(new Hono<AppEnv>(), form, (c) => c.text('x'))).toThrow(/unchecked/);
  });
});
