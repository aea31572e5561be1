import { describe, expect, it } from 'vitest';
import { lookupRoute, matchRoute, routes, routesForPath } from '../../../../src/shared/api';
import { SPEC_ROUTE_PAIRS } from './spec-route-pairs';

const key = (method: string, path: string) => `${method} ${path}`;

describe('route table', () => {
  it('has exactly the spec method+path pairs, plus marked extensions', () => {
    const ours = routes.filter((r) => !r.extension).map((r) => key(r.method, r.path));
    expect([...ours].sort()).toEqual(SPEC_ROUTE_PAIRS.map(([m, p]) => key(m, p)).sort());
    expect(new Set(ours).size).toBe(ours.length);
  });

  it('gives each spec route its scope and credential kind', () => {
    for (const [method, path, scope, credential] of SPEC_ROUTE_PAIRS) {
      const route = routes.find((r) => r.method === method && r.path === path);
      expect({ scope: route?.scope, credential: route?.credential }, key(method, path)).toEqual({
        scope,
        credential,
      });
    }
  });

  it('has unique operation ids, a path-params schema for every placeholder, and 401/403 on bearer routes', () => {
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length);
    for (const route of routes) {
      const placeholders = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(route.request.params?.shape ?? {}).sort(), route.operationId).toEqual(placeholders);
      if (route.credential !== 'none') {
        expect(route.responses[401]?.body, route.operationId).toBe('text');
        expect(route.responses[403]?.body, route.operationId).toBe('text');
      }
      const success = Object.keys(route.responses).filter((s) => Number(s) < 400);
      expect(success.length, route.operationId).toBeGreaterThan(0);
    }
  });

  it('marks what the spec leaves open as our choice', () => {
    const ours = (operationId: string) =>
      routes.find((r) => r.operationId === operationId)?.description ?? '';
    for (const id of [
      'sharedConversationPage',
      'listLoginProviders',
      'authorize',
      'unregisterDevice',
      'revoke',
    ]) {
      expect(ours(id), id).toContain('(our choice)');
    }
    expect(ours('getAgentFiles')).toContain('application/octet-stream');
  });
});

describe('matchRoute / routesForPath / lookupRoute', () => {
  it('matches concrete paths and decodes parameters', () => {
    const m = matchRoute('POST', '/api/v2/me/agents/a%201/conversations/s1/messages');
    expect(m?.route.operationId).toBe('postMessage');
    expect(m?.params).toEqual({ agentId: 'a 1', sessionId: 's1' });
    expect(matchRoute('DELETE', '/api/v2/me/agents/a/conversations/s/schedule/p9')?.params).toEqual({
      agentId: 'a',
      sessionId: 's',
      id: 'p9',
    });
    expect(matchRoute('GET', '/api/v2/me/agents/a/conversations/s')?.route.operationId).toBe(
      'getConversation',
    );
    expect(matchRoute('GET', '/s/abc')?.route.operationId).toBe('sharedConversationPage');
    expect(matchRoute('HEAD', '/openapi.yaml')?.route.operationId).toBe('openapi');
  });

  it('lets a workspace {path} span segments or be empty', () => {
    expect(matchRoute('PUT', '/api/v2/agents/x/files/notes/a%20b.md')?.params).toEqual({
      id: 'x',
      path: 'notes/a b.md',
    });
    expect(matchRoute('GET', '/api/v2/agents/x/files')?.params).toEqual({ id: 'x', path: '' });
    expect(matchRoute('GET', '/api/v2/agents/x/files/')?.params).toEqual({ id: 'x', path: '' });
  });

  it('reports the methods of a known path for 405, and unknown paths', () => {
    expect(
      routesForPath('/api/v2/me/devices')
        .map((r) => r.method)
        .sort(),
    ).toEqual(['DELETE', 'POST']);
    expect(lookupRoute('GET', '/api/v2/me/devices')).toEqual({
      kind: 'wrong_method',
      allow: ['POST', 'DELETE'],
    });
    expect(lookupRoute('GET', '/api/v2/nope')).toEqual({ kind: 'unknown' });
    expect(lookupRoute('GET', '/api/v2/agents/a/skills')).toMatchObject({
      kind: 'found',
      params: { id: 'a' },
    });
    expect(matchRoute('GET', '/api/v2/agents/%E0%A4%A/skills')).toBeNull();
  });
});
