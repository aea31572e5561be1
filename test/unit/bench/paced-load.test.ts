import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pacedLoad } from '../../bench/paced-load';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A real HTTP server on loopback answering each request after `holdMs`, counting what it saw. */
async function serve(holdMs: number, status = 200, headers: http.OutgoingHttpHeaders = {}) {
  const seen: string[] = [];
  server = http.createServer((request, response) => {
    seen.push(String(request.headers['authorization']));
    setTimeout(() => response.writeHead(status, headers).end('[]'), holdMs);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/x`, seen };
}

describe('pacedLoad', () => {
  it('sends rate × duration requests with their headers and counts none failed', async () => {
    const { url, seen } = await serve(0);
    const result = await pacedLoad({
      url,
      headers: { Authorization: 'Bearer t' },
      rate: 200,
      durationS: 0.5,
      connections: 4,
    });
    expect(result.requests).toBe(100);
    expect(result.failures).toBe(0);
    expect(seen).toHaveLength(100);
    expect(new Set(seen)).toEqual(new Set(['Bearer t']));
    expect(result.latency.p50).toBeGreaterThan(0);
    expect(result.generatorCpuUs).toBeGreaterThan(0);
  });

  it('counts the time a request waited behind slow answers from when it was due (open loop)', async () => {
    // One connection, answers held 20 ms, a request due every 10 ms: the queue grows by one every 20 ms,
    // so the last of 50 requests (due at 490 ms) ends near 1,000 ms, about 500 ms after it was due.
    const { url } = await serve(20);
    const result = await pacedLoad({ url, headers: {}, rate: 100, durationS: 0.5, connections: 1 });
    expect(result.requests).toBe(50);
    expect(result.latency.max).toBeGreaterThan(400);
    // From when each was written, every answer took about the hold: the queue shows only from when it was due.
    expect(result.service.p50).toBeLessThan(result.latency.p50);
    expect(result.worstSendDelay).toBeGreaterThan(300);
  });

  it('opens a new connection when the server closes one after its answer', async () => {
    const { url, seen } = await serve(0, 200, { Connection: 'close', 'Content-Length': '2' });
    const result = await pacedLoad({
      url,
      headers: { Authorization: 'Bearer c' },
      rate: 200,
      durationS: 0.25,
      connections: 2,
    });
    expect(result.requests).toBe(50);
    expect(result.failures).toBe(0);
    expect(seen).toHaveLength(50);
  });

  it('counts answers other than 200 as failures', async () => {
    const { url } = await serve(0, 401);
    const result = await pacedLoad({ url, headers: {}, rate: 100, durationS: 0.2, connections: 2 });
    expect(result.requests).toBe(20);
    expect(result.failures).toBe(20);
  });
});
