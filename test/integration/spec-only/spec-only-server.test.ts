/**
 * The spec-only proxy itself, in front of the real local service: it must really hide every
 * extension, or the tests that use it would prove nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAgentId, signIn, startTestService, type TestService } from '../../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../../support/spec-only-server';
import { openEvents } from '../../support/sse';

describe('the spec-only server', { timeout: 60_000 }, () => {
  let service: TestService;
  let spec: SpecOnlyServer;
  let token = '';
  let agentId = '';
  const call = (path: string, init: RequestInit = {}) =>
    fetch(spec.url + path, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });

  beforeAll(async () => {
    service = await startTestService();
    spec = await startSpecOnlyServer(service.url);
    token = (await signIn(service)).access_token;
    agentId = await firstAgentId(service, token);
    await fetch(`${service.url}/api/v2/agents/${agentId}/files/a.txt`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: 'alpha',
    });
  });
  afterAll(async () => {
    await spec.close();
    await service.cleanup();
  });

  it('answers 404 for extension routes, such as the OAuth metadata document', async () => {
    expect((await fetch(`${service.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    const hidden = await fetch(`${spec.url}/.well-known/oauth-authorization-server`);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ error: 'not_found' });
    expect(spec.refused).toContain('GET /.well-known/oauth-authorization-server');
  });

  it('lists files without sha256 or ETag, and never sends bytes', async () => {
    const listing = await call(`/api/v2/agents/${agentId}/files/`);
    expect(listing.headers.get('etag')).toBeNull();
    const body = (await listing.json()) as { files: Record<string, unknown>[] };
    expect(body.files).toEqual([{ path: 'a.txt', size: 5 }]);
    const bytes = await call(`/api/v2/agents/${agentId}/files/a.txt`, {
      headers: { Accept: 'application/octet-stream' },
    });
    expect(bytes.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await bytes.text()).not.toBe('alpha');
  });

  it('ignores If-Match, so a stale conditional write is not refused', async () => {
    const put = await call(`/api/v2/agents/${agentId}/files/a.txt`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream', 'If-Match': '"stale"' },
      body: 'beta',
    });
    expect(put.status).toBe(200);
  });

  it('streams events without ids or extension fields, and without Last-Event-ID resume', async () => {
    const created = await call(`/api/v2/me/agents/${agentId}/conversations`, { method: 'POST' });
    const { id } = (await created.json()) as { id: string };
    const events = await openEvents(
      `${spec.url}/api/v2/me/agents/${agentId}/conversations/${id}/events`,
      token,
      {
        lastEventId: 'anything.1',
      },
    );
    const sent = await call(`/api/v2/me/agents/${agentId}/conversations/${id}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'echo hi' }),
    });
    const { turnId } = (await sent.json()) as { turnId: string };
    const all = await events.untilDone(turnId);
    events.close();
    expect(all.every((event) => event.id === undefined)).toBe(true);
    expect(all.find((event) => event.event === 'done' && event.data.turnId === turnId)?.data).toEqual({
      turnId,
    });
    expect(all.find((event) => event.event === 'started')?.data).toEqual({});
  });
});
