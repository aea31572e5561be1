import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, routes, type RouteSpec, type Scope } from '../../../../src/shared/api';
import { agentParamOf } from '../../../../src/service/auth/bearer';
import { createTestClock } from '../../../../src/service/index';
import {
  createAgentToken,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../../support/local-service';

// Every /api/v2 route of the contract's table × the credentials that must be turned away, against a real
// service. The guard answers before any handler, so routes other areas have not written yet are covered too.
const apiRoutes = routes.filter((route) => route.path.startsWith('/api/v2/'));
const clock = createTestClock();
let service: TestService;
let expired: string;
let full: string;
const lacking = new Map<Scope, string>();
let ownAgent: string;
let secondAgent: string;
let secondAgentToken: string;
let ownAgentToken: string;
let foreignAgent: string;

beforeAll(async () => {
  service = await startTestService({ clock });
  expired = (await signIn(service)).access_token;
  clock.advance(3600_000 + 1);
  full = (await signIn(service)).access_token;
  ownAgent = await firstAgentId(service, full);
  const person = await ensurePerson(service);
  secondAgent = (
    await service.context.identity.agents.create(person.id, {
      name: 'Second',
      engine: 'house-lite',
      protocol: 'sse',
    })
  ).id;
  secondAgentToken = await createAgentToken(service, secondAgent);
  ownAgentToken = await createAgentToken(service, ownAgent);
  for (const scope of ALL_SCOPES) {
    lacking.set(
      scope,
      (await signIn(service, { scopes: ALL_SCOPES.filter((s) => s !== scope) })).access_token,
    );
  }
  const other = await signIn(service, { email: 'other@example.test' });
  foreignAgent = await firstAgentId(service, other.access_token);
}, 60_000);
afterAll(() => service.cleanup());

/** A concrete URL path for a route, naming `agentId` wherever the route names an agent. */
function pathFor(route: RouteSpec, agentId: string): string {
  const agentParam = agentParamOf(route);
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === agentParam) return encodeURIComponent(agentId);
    if (name === 'path') return 'notes/today.md';
    if (name === 'slug') return 'my-skill';
    if (name === 'sessionId') return 'session-1';
    return 'item-1';
  });
}

async function call(route: RouteSpec, path: string, token?: string): Promise<Response> {
  return fetch(service.url + path, {
    method: route.method,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

async function expectText(response: Response, status: 401 | 403): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  await response.body?.cancel();
}

async function expectNotFound(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toMatchObject({ error: 'not_found' });
}

const name = (route: RouteSpec) => `${route.method} ${route.path}`;

describe.each(apiRoutes.map((route) => [name(route), route] as const))('%s', (_label, route) => {
  const agentParam = agentParamOf(route);

  it('no token → 401', async () => {
    await expectText(await call(route, pathFor(route, ownAgent)), 401);
  });

  it('malformed Authorization → 401', async () => {
    const response = await fetch(service.url + pathFor(route, ownAgent), {
      method: route.method,
      headers: { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    await expectText(response, 401);
  });

  it('expired token → 401', async () => {
    await expectText(await call(route, pathFor(route, ownAgent), expired), 401);
  });

  it('token without the scope → 403', async () => {
    expect(route.scope).not.toBeNull();
    await expectText(await call(route, pathFor(route, ownAgent), lacking.get(route.scope as Scope)), 403);
  });

  if (agentParam) {
    it("another person's agent → 404", async () => {
      await expectNotFound(await call(route, pathFor(route, foreignAgent), full));
    });

    it('an agent that does not exist → 404', async () => {
      await expectNotFound(await call(route, pathFor(route, 'no-such-agent'), full));
    });
  }

  if (route.credential === 'agent-or-oauth') {
    it("another agent's agent token → 404", async () => {
      await expectNotFound(await call(route, pathFor(route, ownAgent), secondAgentToken));
    });
    if (route.method === 'GET') {
      it('its own agent token passes the guard', async () => {
        const response = await call(route, pathFor(route, ownAgent), ownAgentToken);
        expect([401, 403]).not.toContain(response.status);
        await response.body?.cancel();
      });
    }
  } else {
    it('an agent token on an OAuth-only route → 401', async () => {
      await expectText(await call(route, pathFor(route, secondAgent), secondAgentToken), 401);
    });
  }
});

describe('known paths with a wrong method', () => {
  const byPath = new Map<string, RouteSpec[]>();
  for (const route of apiRoutes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  const cases = [...byPath].flatMap(([path, list]) => {
    const methods = list.map((route) => route.method);
    const wrong = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).find((m) => !methods.includes(m));
    return wrong ? [[`${wrong} ${path}`, list[0] as RouteSpec, wrong, methods] as const] : [];
  });

  it.each(cases)('%s → 405 method_not_allowed with Allow', async (_label, route, method, methods) => {
    const response = await fetch(service.url + pathFor(route, ownAgent), {
      method,
      headers: { Authorization: `Bearer ${full}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual([...methods].sort());
    expect(await response.json()).toEqual({ error: 'method_not_allowed' });
  });

  it('unknown /api/v2 paths are 404 not_found (after the token check)', async () => {
    await expectText(await fetch(`${service.url}/api/v2/nothing/here`), 401);
    await expectNotFound(
      await fetch(`${service.url}/api/v2/nothing/here`, { headers: { Authorization: `Bearer ${full}` } }),
    );
  });
});
