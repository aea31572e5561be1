/**
 * Issue 26, item 6: /openapi.yaml documents every answer the service gives, checked against the
 * document a running service publishes (real HTTP): the 409 `agente_no_acp` of every route on one
 * conversation of a `house-lite` agent (GET …/conversations/{sessionId} among them), and a library
 * file at its signed link, served under the file's own type (text/plain, PNG), which the document
 * lists (by name, or as OpenAPI's media range for any type).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiRoutes, type RouteSpec } from '../../../../src/shared/api';
import { DEFAULT_EMAIL, signIn, startTestService, type TestService } from '../../../support/local-service';

interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

let service: TestService;
let token: string;
let doc: Doc;
beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service, { scopes: ['agents:read', 'agents:write', 'files'] })).access_token;
  doc = parse(await (await fetch(`${service.url}/openapi.yaml`)).text()) as Doc;
});
afterAll(async () => {
  await service?.cleanup();
});

/** Whether the document lists this status, and this content type (a media range counts, as in OpenAPI). */
function expectDocumented(route: RouteSpec, response: Response): void {
  const documented = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(response.status)];
  const where = `${route.method} ${route.path} answered ${response.status}`;
  expect(documented, `${where}, which /openapi.yaml does not list`).toBeDefined();
  const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const listed = Object.keys(documented!.content ?? {});
  const [type] = media.split('/');
  expect(
    listed.includes(media) || listed.includes(`${type}/*`) || listed.includes('*/*'),
    `${where} as ${media}, listed: ${listed.join(', ')}`,
  ).toBe(true);
}

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('/openapi.yaml documents every answer', () => {
  it('409 agente_no_acp from each route on one conversation of a house-lite agent', async () => {
    const me = (await service.context.identity.persons.findByEmail(DEFAULT_EMAIL))!;
    const lite = await service.context.identity.agents.create(me.id, {
      name: 'Lite',
      engine: 'house-lite',
      protocol: 'http',
    });
    const one = `/api/v2/me/agents/${lite.id}/conversations/s1`;
    const routes: [RouteSpec, string, unknown?][] = [
      [apiRoutes.getConversation, one],
      [apiRoutes.renameConversation, one, { title: 'x' }],
      [apiRoutes.archiveConversation, one],
      [apiRoutes.getShare, `${one}/share`],
      [apiRoutes.cancelTurn, `${one}/cancel`],
      [apiRoutes.setModel, `${one}/model`, { model: 'x' }],
      [apiRoutes.listSchedule, `${one}/schedule`],
    ];
    for (const [route, path, body] of routes) {
      expect(route.path.replace(/\{[^}]+\}/g, 'x'), 'the path belongs to the route').toBe(
        path.replace(lite.id, 'x').replace('/s1', '/x'),
      );
      const answer = await call(route.method, path, body);
      expect(answer.status, `${route.method} ${path}`).toBe(409);
      expectDocumented(route, answer);
      expect(await answer.json()).toEqual({ error: 'agente_no_acp', motor: 'house-lite' });
    }
  });

  it('a library file at its signed link, under its own type', async () => {
    for (const [nombre, type, bytes] of [
      ['notes.txt', 'text/plain', Buffer.from('plain words')],
      ['pixel.png', 'image/png', Buffer.from('89504e470d0a1a0a', 'hex')],
      ['blob.bin', 'application/octet-stream', Buffer.from([0, 1, 2])],
    ] as const) {
      const stored = await fetch(`${service.url}/api/v2/me/files?nombre=${nombre}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body: bytes,
      });
      expect(stored.status).toBe(200);
      const { url } = (await stored.json()) as { url: string };
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')!.split(';')[0]).toBe(type);
      expectDocumented(apiRoutes.downloadSignedFile, served);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    }
  });
});
