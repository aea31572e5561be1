import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../agent-config/harness';
import { rawExchange, statusCodes } from '../spec-conformance/raw-socket';
import { expectStillAnswering, leakPatterns, rawRequest } from './hostile-input-support';

// Requests Node's HTTP parser refuses before the app sees them (a request line or headers over 16 KB, a broken
// request line, a control character in a header, conflicting framing), written byte for byte on a real socket
// to the real service. Each gets the status Node would give, now with the spec's `{error, detalle}` body,
// and the connection closed; nothing leaks, and the service keeps answering.

let h: Harness;
const logLines: string[] = [];
beforeAll(async () => {
  h = await startHarness({ log: (line) => logLines.push(line) });
}, 60_000);
afterAll(() => h?.close());

const host = () => `Host: 127.0.0.1:${h.service.port}\r\n`;

const CASES: [string, () => string, number][] = [
  [
    'a 20,000-character id',
    () =>
      `GET /api/v2/agents/${'a'.repeat(20_000)} HTTP/1.1\r\n${host()}Authorization: Bearer ${h.accessToken}\r\n\r\n`,
    431,
  ],
  [
    'a header block over 16 KB',
    () => `GET /api/v2/me/agents HTTP/1.1\r\n${host()}X-Pad: ${'p'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  ['a broken request line', () => `GET /api/v2/me/agents HTTP/1.1 extra\r\n${host()}\r\n`, 400],
  ['a request line with a space in the target', () => `GET /api/v2/me agents HTTP/1.1\r\n${host()}\r\n`, 400],
  ['a NUL in a header value', () => `GET /api/v2/me/agents HTTP/1.1\r\n${host()}X-A: a\u0000b\r\n\r\n`, 400],
  [
    'a header name with a space',
    () => `GET /api/v2/me/agents HTTP/1.1\r\n${host()}Bad Header: x\r\n\r\n`,
    400,
  ],
  [
    'Content-Length and Transfer-Encoding together',
    () =>
      `POST /api/v2/me/agents HTTP/1.1\r\n${host()}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    400,
  ],
  ['an unknown HTTP version', () => `GET /api/v2/me/agents HTTP/9.9\r\n${host()}\r\n`, 400],
];

describe('requests Node refuses before the app', () => {
  it.each(CASES)('%s → its status with {error, detalle}', async (_what, request, status) => {
    const answer = await rawExchange(h.service.url, request());
    expect(statusCodes(answer)).toEqual([status]);
    const [head, body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/content-type: application\/json/i);
    expect(head).toMatch(/connection: close/i);
    const parsed = JSON.parse(body) as { error?: unknown; detalle?: unknown };
    expect(typeof parsed.error).toBe('string');
    expect(typeof parsed.detalle).toBe('string');
    for (const pattern of leakPatterns(h.service.dataDir)) expect(body).not.toMatch(pattern);
    await expectStillAnswering(h.service.url, h.accessToken);
  });
});

describe('the request log', () => {
  it('keeps a hostile path on one inert line: no forged line, no terminal escape, no direction override', async () => {
    const targets = [
      '/a%0d%0aGET%20/forged%20200%201ms',
      '/s/%1b%5b31mred',
      '/api/v2/x%0Ay',
      '/a%E2%80%AEb',
      '/a%ed%a0%80b',
    ];
    logLines.length = 0;
    for (const target of targets) await rawRequest(h.service.url, { method: 'GET', target });
    const requests = logLines.filter((line) => line.startsWith('GET /'));
    expect(requests).toHaveLength(targets.length);
    for (const line of requests) {
      expect(line).not.toMatch(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u);
      expect(line).toMatch(/^GET \S+ \d{3} [\d.]+ms$/);
    }
    expect(requests[0]).toBe(
      `GET /a\\u000d\\u000aGET\\u0020/forged\\u0020200\\u00201ms 404 ${requests[0]!.split(' ').at(-1)}`,
    );
  });
});
