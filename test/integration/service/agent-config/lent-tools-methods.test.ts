import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lentToolsServer } from '../../../../src/service/agent-config/lent-tools';
import { startHarness, type Harness } from './harness';

// The lent tools' MCP server (/gs-mcp/{agentId}/{channel}) called with each HTTP method over real HTTP: POST
// and DELETE get the MCP SDK's answers; GET a 405, as MCP asks of a server that offers no stream (a stateless
// one), so clients stop asking for it; any other method the same 405 with an `Allow` that names exactly the
// methods served, and only to the holder of the channel's bearer.
describe('/gs-mcp methods', { timeout: 60_000 }, () => {
  let h: Harness;
  let entry: { url: string; headers: Record<string, string> };

  beforeAll(async () => {
    h = await startHarness();
    entry = lentToolsServer(h.service.url, h.service.context.agentConfig.signingKey, h.agentId, 'prueba');
  });
  afterAll(() => h?.close());

  it.each(['GET', 'PUT', 'PATCH', 'OPTIONS'])(
    '%s is 405 with Allow: POST, DELETE and the SDK’s JSON-RPC error',
    async (method) => {
      const answer = await fetch(entry.url, { method, headers: entry.headers });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST, DELETE');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringMatching(/not allowed/i) },
        id: null,
      });
    },
  );

  it('every method that Allow names is served: none of them is 405', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const post = await fetch(entry.url, {
      method: 'POST',
      headers: {
        ...entry.headers,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(list),
    });
    expect(post.status).toBe(200);
    expect(((await post.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const refused = await fetch(entry.url, { method: 'PUT', headers: entry.headers });
    expect(refused.status).toBe(405);
    const allowed = refused.headers.get('allow')!.split(', ');
    expect(allowed).toEqual(['POST', 'DELETE']);
    for (const method of allowed.filter((m) => m !== 'POST')) {
      const answer = await fetch(entry.url, { method, headers: entry.headers });
      expect(answer.status, method).not.toBe(405);
      await answer.body?.cancel();
    }
  });

  it('without the channel’s bearer a wrong method is 401: nothing about the route is told first', async () => {
    for (const headers of [{}, { Authorization: 'Bearer forged' }] as Record<string, string>[]) {
      const answer = await fetch(entry.url, { method: 'PUT', headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('allow')).toBeNull();
    }
  });
});
