import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteSpec } from '../../../../src/shared/api';
import { agentParamOf } from '../../../../src/service/auth/bearer';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';

// The spec: "Responses are JSON with `Cache-Control: no-store`, except the event stream." Every route of the
// table (ours included), called with no body, an empty object and a body that is not JSON: whatever the
// status, a JSON answer is never cacheable. DELETE /me (the account itself) and restart (slow) are left out;
// their answers come from the same writers.
let service: TestService;
let token: string;
let agentId: string;
let sessionId: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service)).access_token;
  agentId = await firstAgentId(service, token);
  const created = await fetch(`${service.url}/api/v2/me/agents/${agentId}/conversations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  sessionId = ((await created.json()) as { id: string }).id;
}, 60_000);
afterAll(() => service.cleanup());

const swept = routes.filter(
  (route) => !(route.method === 'DELETE' && route.path === '/api/v2/me') && !route.path.endsWith('/restart'),
);

function pathFor(route: RouteSpec): string {
  const agentParam = agentParamOf(route);
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === agentParam) return agentId;
    if (name === 'sessionId') return sessionId;
    return name === 'path' ? 'notes.md' : name === 'slug' ? 'a-skill' : 'item-1';
  });
}

describe('Cache-Control on every JSON answer', () => {
  it.each(swept.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', async (_, route) => {
    for (const body of [undefined, '{}', 'not json']) {
      const answer = await fetch(service.url + pathFor(route), {
        method: route.method,
        redirect: 'manual',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(route.method === 'GET' || body === undefined ? {} : { body }),
      });
      const type = answer.headers.get('content-type') ?? '';
      await answer.body?.cancel();
      if (!type.startsWith('application/json')) continue;
      expect(answer.headers.get('cache-control'), `${answer.status} to body ${body}`).toBe('no-store');
    }
  });
});
