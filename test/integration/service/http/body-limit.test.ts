import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeUpload } from '../../../support/large-upload';
import { json, startHarness, type Harness } from '../agent-config/harness';

// A 100 MB body to a 10 MB route, over a real socket: the 413 must reach the client (no reset or EPIPE
// while it is still sending), and the service must stop reading long before 100 MB.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const HUNDRED_MB = 100 * 1024 * 1024;

describe('a body over the route cap', () => {
  for (const framing of ['content-length', 'chunked'] as const) {
    it(`is answered 413 and not read (${framing})`, async () => {
      // Several rounds: the reset this guards against was a race, lost one time in a few.
      for (let round = 0; round < 5; round++) {
        const answer = await largeUpload(h.service.url, {
          method: 'PUT',
          path: `/api/v2/agents/${h.agentId}/files/big.bin`,
          headers: { Authorization: `Bearer ${h.accessToken}`, 'Content-Type': 'application/octet-stream' },
          totalBytes: HUNDRED_MB,
          framing,
        });
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body)).toEqual({
          error: 'archivo demasiado grande',
          detalle: expect.any(String),
        });
        // What the client got through is an upper bound of what the service read: cap + socket buffers.
        expect(answer.bytesSent).toBeLessThan(32 * 1024 * 1024);
      }
      const listing = await json(await h.call(`/api/v2/agents/${h.agentId}/files/`));
      expect(listing.files.map((f: { path: string }) => f.path)).not.toContain('big.bin');
    });
  }

  it('is 413 on a JSON route too, in the error shape, and the service answers the next request', async () => {
    const answer = await largeUpload(h.service.url, {
      method: 'POST',
      path: `/api/v2/agents/${h.agentId}/try`,
      headers: { Authorization: `Bearer ${h.accessToken}`, 'Content-Type': 'application/json' },
      totalBytes: 8 * 1024 * 1024,
      framing: 'chunked',
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'body_demasiado_grande', detalle: expect.any(String) });
    expect((await h.call(`/api/v2/agents/${h.agentId}`)).status).toBe(200);
  });
});
