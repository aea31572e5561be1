import { describe, expect, it } from 'vitest';
import { addAdmin, dataDir, ProxyClient, PUBLIC_URL, SLOW, startServer } from './harness';

// A reverse proxy on this machine (the test, on 127.0.0.1) forwards the browser's name, scheme and address in
// X-Forwarded-*. One service trusts 127.0.0.1 as its proxy; the other trusts only an address the test never
// uses, so to it the same headers are a browser's claims and must change nothing.
async function twoServices(config: object = {}) {
  const trusting = await dataDir(config);
  const doubting = await dataDir(config);
  await Promise.all([addAdmin(trusting), addAdmin(doubting)]);
  const args = ['--public-url', PUBLIC_URL];
  return {
    trusting: await startServer(trusting, [...args, '--trusted-proxies', '127.0.0.1']),
    doubting: await startServer(doubting, [...args, '--trusted-proxies', '10.11.12.13']),
  };
}

describe('X-Forwarded-* from trusted proxies only', () => {
  it(
    'takes the name a browser used from X-Forwarded-Host only when the peer is a trusted proxy',
    async () => {
      const { trusting, doubting } = await twoServices();
      const status = async (url: string, headers: Record<string, string>) =>
        (await new ProxyClient(url, headers).get('/oauth2/proveedores')).status;

      // nginx's default: Host is the upstream address, the browser's name in X-Forwarded-Host.
      const upstream = (port: number, forwarded: string) => ({
        Host: `127.0.0.1:${port}`,
        'X-Forwarded-Host': forwarded,
      });
      expect(await status(trusting.url, upstream(trusting.port, 'agents.example.com'))).toBe(200);
      expect(await status(trusting.url, upstream(trusting.port, 'evil.example'))).toBe(421);
      expect(await status(doubting.url, upstream(doubting.port, 'evil.example'))).toBe(200);

      // A foreign Host cannot be laundered by a header the peer is not trusted to send.
      const laundered = { Host: 'evil.example', 'X-Forwarded-Host': 'agents.example.com' };
      expect(await status(trusting.url, laundered)).toBe(200);
      expect(await status(doubting.url, laundered)).toBe(421);
    },
    SLOW,
  );

  it(
    'sends a browser that reached the proxy over plain http to https, only when the proxy is trusted',
    async () => {
      const { trusting, doubting } = await twoServices();
      const headers = { Host: 'agents.example.com', 'X-Forwarded-Proto': 'http' };
      const redirected = await new ProxyClient(trusting.url, headers).get('/signin?next=%2Faccount');
      expect(redirected.status).toBe(308);
      expect(redirected.headers.location).toBe(`${PUBLIC_URL}/signin?next=%2Faccount`);
      const overHttps = await new ProxyClient(trusting.url, { ...headers, 'X-Forwarded-Proto': 'https' }).get(
        '/signin',
      );
      expect(overHttps.status).toBe(200);
      expect((await new ProxyClient(doubting.url, headers).get('/signin')).status).toBe(200);
    },
    SLOW,
  );

  it(
    "throttles sign-in by the browser's address from X-Forwarded-For only when the proxy is trusted",
    async () => {
      // One free failure per account, four per address, then a long wait: the address limit is what shows.
      const { trusting, doubting } = await twoServices({
        signInThrottle: { freeFailures: 1, firstDelaySeconds: 600 },
      });
      const attempt = async (url: string, n: number, address: string) => {
        const client = new ProxyClient(url, { Host: 'agents.example.com', 'X-Forwarded-For': address });
        return (await client.signIn(`guess${n}@example.test`, 'wrong password')).status;
      };
      for (const service of [trusting, doubting]) {
        // Five failures from one browser (each on another account) use up its address's allowance...
        for (let n = 0; n < 5; n++) expect(await attempt(service.url, n, '203.0.113.7')).toBe(401);
        expect(await attempt(service.url, 5, '203.0.113.7')).toBe(429);
      }
      // ...but a browser elsewhere is not held back, when the proxy is believed about who is who.
      expect(await attempt(trusting.url, 6, '198.51.100.20')).toBe(401);
      // Untrusted, X-Forwarded-For is a claim: every request is the proxy's own address, already held back.
      expect(await attempt(doubting.url, 6, '198.51.100.20')).toBe(429);
    },
    SLOW,
  );
});
