import { Agent, createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackListener } from '../../../../src/core/auth/loopback-listener';
import type { LoopbackListener } from '../../../../src/core/auth/loopback-listener';
import { httpGet } from '../support/http-get';

const pages = { signedIn: '<h1>signed in</h1>', failed: '<p>{{reason}}</p>' };

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

function occupy(): Promise<Server & { port: number }> {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => res.end());
    server.listen(0, '127.0.0.1', () => {
      opened.push({ close: () => new Promise((r) => server.close(r)) });
      resolve(Object.assign(server, { port: (server.address() as { port: number }).port }));
    });
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function start(
  options: Partial<Parameters<typeof startLoopbackListener>[0]> = {},
): Promise<LoopbackListener> {
  const listener = await startLoopbackListener({ pages, ...options });
  opened.push(listener);
  return listener;
}

describe('loopback listener', () => {
  it('tries the registered ports in order, skipping busy ones', async () => {
    const busy = await occupy();
    const free = await freePort();
    const listener = await start({ ports: [busy.port, free] });
    expect(listener.port).toBe(free);
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${free}/callback`);
  });

  it('falls back to an ephemeral port when no registered port is free', async () => {
    const busy = await occupy();
    const listener = await start({ ports: [busy.port] });
    expect(listener.port).not.toBe(busy.port);
    expect(listener.port).toBeGreaterThan(0);
  });

  it('answers 404 to everything but one GET on the callback path', async () => {
    const listener = await start({ callbackPath: '/cb' });
    const base = `http://127.0.0.1:${listener.port}`;
    expect((await httpGet(`${base}/`)).status).toBe(404);
    expect((await httpGet(`${base}/favicon.ico`)).status).toBe(404);
    expect((await httpGet(`${base}/callback?code=x&state=y`)).status).toBe(404);
    expect((await httpGet(`${base}/signed-in`)).status).toBe(404);
    expect((await httpGet(`${base}/cb?code=x&state=y`, { method: 'POST' })).status).toBe(404);

    const first = httpGet(`${base}/cb?code=abc&state=s1`);
    const received = await listener.callback;
    expect(received.params.get('code')).toBe('abc');
    // While the first one is held open, another callback is refused.
    expect((await httpGet(`${base}/cb?code=evil&state=s1`)).status).toBe(404);
    received.finish({ ok: true });
    const redirect = await first;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/signed-in');
  });

  it('refuses a request whose Host is not the loopback address (DNS rebinding)', async () => {
    const listener = await start();
    const response = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: listener.port,
          path: '/callback?code=a&state=b',
          headers: { host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(response).toBe(404);
  });

  it('serves the signed-in page once, then closes every connection, keep-alive ones included', async () => {
    const listener = await start();
    const base = `http://127.0.0.1:${listener.port}`;
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    opened.push({ close: () => keepAlive.destroy() });
    // An idle keep-alive socket, as a browser would leave one.
    expect((await httpGet(`${base}/nothing`, { agent: keepAlive })).status).toBe(404);
    const idleSocketClosed = new Promise<void>((resolve) => {
      const sockets = Object.values(keepAlive.freeSockets).flat();
      expect(sockets.length).toBe(1);
      sockets[0]!.once('close', () => resolve());
    });

    const pending = httpGet(`${base}/callback?code=c&state=s`);
    (await listener.callback).finish({ ok: true });
    expect((await pending).headers.location).toBe('/signed-in');
    const page = await httpGet(`${base}/signed-in`);
    expect(page.status).toBe(200);
    expect(page.body).toBe(pages.signedIn);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");

    await listener.closed;
    await idleSocketClosed;
    await expect(httpGet(`${base}/signed-in`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('shows the failure reason escaped on the failure page', async () => {
    const listener = await start();
    const base = `http://127.0.0.1:${listener.port}`;
    const pending = httpGet(`${base}/callback?error=access_denied&state=s`);
    (await listener.callback).finish({ ok: false, reason: 'You declined <b>access</b>.' });
    expect((await pending).headers.location).toBe('/sign-in-failed');
    expect((await httpGet(`${base}/signed-in`)).status).toBe(404);
    const page = await httpGet(`${base}/sign-in-failed`);
    expect(page.body).toBe('<p>You declined &#60;b&#62;access&#60;/b&#62;.</p>');
    await listener.closed;
  });

  it('closes on its own if the browser never fetches the done page', async () => {
    const listener = await start({ lingerMs: 50 });
    const pending = httpGet(`http://127.0.0.1:${listener.port}/callback?code=c&state=s`);
    (await listener.callback).finish({ ok: true });
    await pending;
    await listener.closed;
  });

  it('rejects the pending callback when closed before the browser came back', async () => {
    const listener = await start();
    await listener.close();
    await expect(listener.callback).rejects.toThrow(/closed before the browser came back/);
    await listener.closed;
  });
});
