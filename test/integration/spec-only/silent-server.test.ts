/**
 * Another server that takes the connection and never answers must not leave a screen waiting forever:
 * a call with no signal of its own ends at its deadline with plain words, and is not sent again; a call
 * that brings its own signal (uploads, try, sync) keeps its own deadline; a sign-out's revoke and a token
 * refresh end at theirs. The API client against a real
 * HTTP server that holds every request open.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { refreshTokens, revokeToken } from '../../../src/core/auth/pkce';

describe('a server that never answers', () => {
  let silent: Server;
  let url = '';
  const received: IncomingMessage[] = [];

  beforeAll(async () => {
    silent = createServer((req) => received.push(req)); // holds every request, answers none
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((done) => silent.close(() => done()));
  });

  it('ends a call at its deadline, says so plainly, and does not send it again', async () => {
    const api = createApiClient({ baseUrl: url, auth: staticTokenSource('a-token'), deadlineMs: 2_000 });
    const before = received.length;
    const started = Date.now();
    const listed = await api.listConversations('agent-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(listed.ok).toBe(false);
    if (listed.ok) return;
    expect(listed.error.code).toBe('timeout');
    expect(listed.error.message).toBe(
      'The server did not answer within 2 seconds. Check that it is running, then try again.',
    );
    expect(received.length - before).toBe(1);
  });

  it('leaves a call that brings its own signal to that signal', async () => {
    const api = createApiClient({ baseUrl: url, auth: staticTokenSource('a-token') });
    const own = new AbortController();
    const waiting = api.listFiles({ signal: own.signal });
    const outcome = await Promise.race([
      waiting.then(() => 'ended'),
      new Promise((done) => setTimeout(() => done('still waiting'), 600)),
    ]);
    expect(outcome).toBe('still waiting');
    own.abort();
    const cancelled = await waiting;
    expect(!cancelled.ok && cancelled.error.code).toBe('cancelled');
  });

  it('ends a sign-out’s revoke and a token refresh at their deadline, in plain words', async () => {
    const oauth = { baseUrl: url, clientId: 'agentdesk-desktop', deadlineMs: 1_000 };
    const started = Date.now();
    const [revoked, refreshed] = await Promise.all([
      revokeToken(oauth, 'a-refresh-token'),
      refreshTokens(oauth, 'a-refresh-token'),
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const outcome of [revoked, refreshed]) {
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code).toBe('network');
      expect(outcome.error.message).toBe(`The service at ${url} did not answer in time.`);
    }
  });
});
