import { describe, expect, it } from 'vitest';
import { API_BASE, apiRoutes, routePath, routes } from '../../../../src/shared/api';

describe('routePath: a path built from a route entry', () => {
  it('fills each parameter as one encoded segment', () => {
    expect(routePath(apiRoutes.restartAgent, { id: 'ag 1/x' })).toBe('/api/v2/agents/ag%201%2Fx/restart');
  });

  it('adds a query in the order given, and no "?" without one', () => {
    expect(routePath(apiRoutes.authorize, {}, { client_id: 'a b', state: 's&t' })).toBe(
      '/oauth2/authorize?client_id=a+b&state=s%26t',
    );
    expect(routePath(apiRoutes.authorize)).toBe('/oauth2/authorize');
  });

  it('refuses to build a path with a parameter missing', () => {
    expect(() => routePath(apiRoutes.downloadSignedFile)).toThrow('needs {id}');
  });

  it('API_BASE is where every bearer route of the table lives', () => {
    const bearer = routes.filter((route) => route.credential !== 'none');
    expect(bearer.length).toBeGreaterThan(20);
    expect(bearer.every((route) => route.path.startsWith(`${API_BASE}/`))).toBe(true);
  });
});
