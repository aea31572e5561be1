/**
 * Another server behind a reverse proxy: when the proxy answers a bare 502 (its own "Bad Gateway" page,
 * no JSON), the person reads a gateway problem, not the spec's one meaning of 502 ("saved, but the
 * machine did not take it"), which belongs to PATCH agent alone. The API client against a real HTTP
 * server that answers every request as such a gateway does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';

describe('a gateway that answers 502', () => {
  let gateway: Server;
  let api: ApiClient;

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    await new Promise<void>((done) => gateway.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    api = createApiClient({ baseUrl: url, auth: staticTokenSource('a-token') });
  });
  afterAll(() => new Promise<void>((done) => gateway.close(() => done())));

  it('is said as the server failing to finish, on the library and on a schedule', async () => {
    const files = await api.listFiles();
    expect(files.ok).toBe(false);
    if (files.ok) return;
    expect(files.error.status).toBe(502);
    expect(files.error.message).toBe(
      'The server could not finish this (HTTP 502). Please try again in a moment.',
    );
    const scheduled = await api.scheduleTurn('agent-1', 'session-1', { prompt: 'later', inMinutes: 5 });
    expect(!scheduled.ok && scheduled.error.message).toBe(files.error.message);
  });

  it('keeps the spec meaning on PATCH agent: saved, but the machine did not take it', async () => {
    const patched = await api.updateAgentConfig('agent-1', { prompt: 'Be brief.' });
    expect(patched.ok).toBe(false);
    if (patched.ok) return;
    expect(patched.error.status).toBe(502);
    expect(patched.error.message).toBe(
      "The change was saved, but the agent's machine didn't take it. Try restarting the agent.",
    );
  });
});
