import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, apiRoutes, routePath, routes, type RouteSpec } from '../../../../src/shared/api';
import { publishedOpenApi, rawRequest, type ExpectAsDocumented } from '../../../support/openapi-answers';
import { expectDocumentedAnswer } from '../../../support/route-call';
import { startHarness, type Harness } from '../agent-config/harness';

// The answers the service's guards give before any handler (foreign Origin, a Host that is not ours, dot
// segments, a query parameter given twice, a multipart body where raw bytes go), provoked on every route they
// reach of a real service over real HTTP, each checked against the /openapi.yaml that service publishes, so a
// client generated from it knows them.

let h: Harness;
let sessionId: string;
let expectAsDocumented: ExpectAsDocumented;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.call(`/api/v2/me/agents/${h.agentId}/conversations`, { method: 'POST' });
  sessionId = ((await created.json()) as { id: string }).id;
  expectAsDocumented = await publishedOpenApi(h.service.url);
}, 60_000);
afterAll(() => h?.close());

/** The route's path with ids the caller owns, so the guards are what stops the request. */
function ownPath(route: RouteSpec): string {
  const values: Record<string, string> = {
    agentId: h.agentId,
    sessionId,
    path: 'notes.txt',
    slug: 'a-skill',
  };
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const params = Object.fromEntries(
    names.map((name) => [
      name,
      values[name] ?? (name === 'id' && route.path.startsWith('/api/v2/agents/') ? h.agentId : 'item-1'),
    ]),
  );
  if (route.path.endsWith('/gs-mcp/{agentId}/{channel}')) params['channel'] = 'prueba';
  return routePath(route, params).replace(/%2F/g, '/');
}

const host = () => `127.0.0.1:${new URL(h.service.url).port}`;
const bearer = () => ({ Authorization: `Bearer ${h.accessToken}` });
const send = (route: RouteSpec, target: string, headers: Record<string, string>) =>
  rawRequest(h.service.url, { method: route.method, target, headers: { Host: host(), ...headers } });
const every = routes.map((route) => [`${route.method} ${route.path}`, route] as const);
const code = async (response: Response) => ((await response.clone().json()) as { error: string }).error;

describe('the guards’ answers are in /openapi.yaml, on every route they reach', { timeout: 60_000 }, () => {
  it.each(every)('%s: a foreign Origin is 403 origen_no_permitido', async (_, route) => {
    const answer = await send(route, ownPath(route), { ...bearer(), Origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(await code(answer)).toBe('origen_no_permitido');
    // The route table (which the fuzz test reads) says the same as the document built from it.
    await expectDocumentedAnswer(route, answer.clone());
    await expectAsDocumented(route, answer);
  });

  it.each(every)('%s: a Host that is not ours is 421 host_no_permitido', async (_, route) => {
    const answer = await send(route, ownPath(route), { ...bearer(), Host: 'agentdesk.evil.example' });
    expect(answer.status).toBe(421);
    expect(await code(answer)).toBe('host_no_permitido');
    await expectAsDocumented(route, answer);
  });

  const api = every.filter(([, route]) => route.path.startsWith(`${API_BASE}/`));
  it.each(api)('%s: a dot segment in the target is 400 ruta_invalida', async (_, route) => {
    const target = ownPath(route).replace(`${API_BASE}/`, `${API_BASE}/./`);
    const answer = await send(route, target, bearer());
    expect(answer.status).toBe(400);
    expect(await code(answer)).toBe('ruta_invalida');
    await expectAsDocumented(route, answer);
  });

  // authorize and the signed-file URL read their own query: a repeat gives their own documented answers.
  const ownQuery = new Set<RouteSpec>([
    apiRoutes.authorize,
    apiRoutes.downloadSignedFile,
    apiRoutes.downloadSignedFileOldPath,
  ]);
  const withQuery = every.filter(([, route]) => route.request.query);
  it.each(withQuery)('%s: a query parameter given twice is refused as documented', async (_, route) => {
    const name = Object.keys(route.request.query?.shape ?? {})[0]!;
    const answer = await send(route, `${ownPath(route)}?${name}=1&${name}=2`, bearer());
    if (!ownQuery.has(route)) {
      expect(answer.status).toBe(400);
      expect(await code(answer)).toBe('body_invalido');
    }
    await expectAsDocumented(route, answer);
  });

  const rawBytes = every.filter(([, route]) =>
    ['octet-stream', 'audio'].includes(route.request.body?.kind ?? ''),
  );
  it.each(rawBytes)('%s: a multipart body is 400 body_invalido', async (_, route) => {
    const form = '--b\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--b--\r\n';
    const answer = await rawRequest(h.service.url, {
      method: route.method,
      target: `${ownPath(route)}${route.request.query ? '?nombre=a.txt' : ''}`,
      headers: { Host: host(), ...bearer(), 'Content-Type': 'multipart/form-data; boundary=b' },
      body: form,
    });
    expect(answer.status).toBe(400);
    expect(await code(answer)).toBe('body_invalido');
    await expectAsDocumented(route, answer);
  });
});
