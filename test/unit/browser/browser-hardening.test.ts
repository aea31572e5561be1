import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachBridgeSocket, type BridgeSocket } from '../../../src/browser/bridge-socket';
import { serveRenderer, type StaticServer } from '../../../src/browser/static-server';
import { createBridgeDispatcher } from '../../../src/core/host/dispatch';
import { createFakeBridge } from './fake-bridge';

// Real HTTP servers and real WebSockets on 127.0.0.1; only the host behind the socket is a test double.

function rawGet(port: number, path: string, host = `127.0.0.1:${port}`): Promise<number> {
  return rawHead(port, path, host).then((res) => res.status);
}

function rawHead(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; cacheControl: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, cacheControl: res.headers['cache-control'] });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the page server', () => {
  let root: string;
  let pages: StaticServer;
  let port: number;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'agentdesk-pages-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><p>app</p>');
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'assets', 'index-Zr1aIbv-.js'), 'export {};');
    pages = await serveRenderer(root);
    port = Number(new URL(pages.url).port);
  });
  afterAll(async () => {
    await pages.close();
    await rm(root, { recursive: true, force: true });
  });

  it.each(['/%', '/%E0%A4%A', '/a%ZZb'])('answers %s with 400 and keeps running', async (path) => {
    expect(await rawGet(port, path)).toBe(400);
    expect(await rawGet(port, '/')).toBe(200);
  });

  it('answers only its loopback names with its port (DNS rebinding)', async () => {
    expect(await rawGet(port, '/', `evil.example:${port}`)).toBe(421);
    expect(await rawGet(port, '/', `127.0.0.1:${port + 1}`)).toBe(421);
    expect(await rawGet(port, '/', `localhost:${port}`)).toBe(200);
  });

  it('lets the browser keep a built asset (named by its hash) for good, and asks again for the page', async () => {
    expect(await rawHead(port, '/assets/index-Zr1aIbv-.js')).toEqual({
      status: 200,
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect((await rawHead(port, '/')).cacheControl).toBe('no-cache');
    expect((await rawHead(port, '/index.html')).cacheControl).toBe('no-cache');
    // An unknown path falls back to the page, never to a file kept for good.
    expect((await rawHead(port, '/assets/gone-12345678.js')).cacheControl).toBe('no-cache');
  });
});

describe('the bridge socket before the key', () => {
  const KEY = 'per-launch-key-for-this-test';
  let server: Server;
  let carrier: BridgeSocket;
  let origin: string;
  let url: string;
  let calls = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('page'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    url = `ws://127.0.0.1:${port}/desk`;
    const fake = createFakeBridge();
    const dispatcher = createBridgeDispatcher(fake.bridge);
    carrier = attachBridgeSocket({
      server,
      key: KEY,
      allowedOrigin: origin,
      dispatcher: {
        ...dispatcher,
        call: (...args: Parameters<typeof dispatcher.call>) => {
          calls += 1;
          return dispatcher.call(...args);
        },
      },
    });
  });
  afterAll(async () => {
    await carrier.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const open = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { origin } });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  const closed = (ws: WebSocket) =>
    new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const bigCall = (bytes: number) =>
    JSON.stringify({ type: 'call', id: 1, name: 'getSession', args: ['x'.repeat(bytes)] });

  it('refuses a big message from a page that has not shown the key, without running it', async () => {
    const ws = await open();
    const code = closed(ws);
    ws.send(bigCall(1024 * 1024));
    expect(await code).toBe(1009);
    expect(calls).toBe(0);
  });

  it('takes big messages once the key is shown', async () => {
    const ws = await open();
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(data.toString()));
    ws.send(JSON.stringify({ type: 'hello', key: KEY }));
    for (let i = 0; i < 200 && messages.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(messages[0] ?? '{}')).toEqual({ type: 'ready' });
    ws.send(bigCall(1024 * 1024));
    for (let i = 0; i < 300 && messages.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(messages[1] ?? '{}')).toMatchObject({ type: 'result', id: 1 });
    expect(calls).toBe(1);
    ws.close();
  });
});
