import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachBridgeSocket, type BridgeSocket } from '../../../src/browser/bridge-socket';
import { createBridgeDispatcher } from '../../../src/core/host/dispatch';
import { createWebSocketBridge, type SocketLike } from '../../../src/renderer/bridge/websocket-bridge';
import type { ConversationUpdate, DeskBridge } from '../../../src/shared/bridge';
import { createFakeBridge, type FakeBridge } from './fake-bridge';

// A real HTTP server and real WebSockets on 127.0.0.1; only the host behind the socket is a test double.
const KEY = 'per-launch-key-for-this-test';
let server: Server;
let origin: string;
let socketUrl: string;
let fake: FakeBridge;
let carrier: BridgeSocket;
const cleanups: (() => void)[] = [];

function nodeSocket(url: string, headers: Record<string, string> = { origin }): SocketLike {
  return new WebSocket(url, { headers }) as unknown as SocketLike;
}

function client(key = KEY, openUrl?: (url: string) => void): DeskBridge {
  const made = createWebSocketBridge({
    url: socketUrl,
    key,
    createSocket: (u) => nodeSocket(u),
    retryMs: 20,
    ...(openUrl ? { openUrl } : {}),
  });
  cleanups.push(() => made.close());
  return made.bridge;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

beforeEach(async () => {
  server = createServer((_req, res) => res.end('page'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  socketUrl = `ws://127.0.0.1:${port}/desk`;
  fake = createFakeBridge();
  carrier = attachBridgeSocket({
    server,
    dispatcher: createBridgeDispatcher(fake.bridge),
    key: KEY,
    allowedOrigin: origin,
  });
});

afterEach(async () => {
  cleanups.splice(0).forEach((c) => c());
  await carrier.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('browser-mode bridge socket', () => {
  it('carries named calls and their results, and turns a thrown error into a plain value', async () => {
    const desk = client();
    const result = await desk.getConversation('agent-1', 'conv-1', { limit: 20 });
    expect(result).toEqual({
      ok: true,
      value: { name: 'getConversation', args: ['agent-1', 'conv-1', { limit: 20 }] },
    });
    const failed = await desk.getPlatform();
    expect(failed).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong while running "getPlatform".' },
    });
    expect(JSON.stringify(failed)).not.toContain('secret');
  });

  it('delivers subscription events until unsubscribed, and ends host subscriptions when the page goes', async () => {
    const desk = client();
    const seen: ConversationUpdate[] = [];
    const stop = desk.onConversationEvent('agent-1', 'conv-1', (update) => seen.push(update));
    await until(() => fake.subscriptions.length === 1);
    expect(fake.subscriptions[0]!.args).toEqual(['agent-1', 'conv-1']);
    fake.subscriptions[0]!.emit({ kind: 'connection', connection: { state: 'open' } });
    await until(() => seen.length === 1);
    stop();
    await until(() => fake.subscriptions[0]!.active === false);

    desk.onSessionChange(() => {});
    await until(() => fake.subscriptions.length === 2);
    cleanups.splice(0).forEach((c) => c());
    await until(() => fake.subscriptions[1]!.active === false);
  });

  it('refuses a wrong key without running anything', async () => {
    const ws = nodeSocket(socketUrl) as unknown as WebSocket;
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    await new Promise((r) => ws.on('open', r));
    ws.send(JSON.stringify({ type: 'call', id: 1, name: 'signOut', args: [] }));
    expect(await closed).toBe(4401);

    const desk = client('not-the-key');
    const result = await desk.signOut();
    expect(result).toMatchObject({ ok: false, error: { code: 'bridge_unavailable' } });
    expect(fake.calls).toEqual([]);
  });

  it('refuses a socket from another origin and unknown method names', async () => {
    const foreign = nodeSocket(socketUrl, { origin: 'http://evil.example' }) as unknown as WebSocket;
    const status = await new Promise<number | undefined>((r) => {
      foreign.on('unexpected-response', (_req, res) => r(res.statusCode));
      foreign.on('error', () => r(undefined));
    });
    expect(status).toBe(403);

    const ws = nodeSocket(socketUrl) as unknown as WebSocket;
    const messages: unknown[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((r) => ws.on('open', r));
    ws.send(JSON.stringify({ type: 'hello', key: KEY }));
    ws.send(JSON.stringify({ type: 'call', id: 7, name: 'constructor', args: [] }));
    await until(() => messages.length === 2);
    expect(messages[1]).toMatchObject({
      type: 'result',
      id: 7,
      result: { ok: false, error: { code: 'unknown_method' } },
    });
    ws.close();
  });

  it('asks the page that started sign-in to open the authorize URL', async () => {
    const opened: string[] = [];
    const desk = client(KEY, (url) => opened.push(url));
    await desk.signIn();
    expect(carrier.openUrl('http://127.0.0.1:1/oauth2/authorize?x=1')).toBe(true);
    await until(() => opened.length === 1);
    expect(opened[0]).toBe('http://127.0.0.1:1/oauth2/authorize?x=1');
  });

  it('reconnects after the socket drops and starts live subscriptions again', async () => {
    const desk = client();
    const seen: unknown[] = [];
    desk.onSessionChange((s) => seen.push(s));
    await until(() => fake.subscriptions.length === 1);
    await carrier.close();
    carrier = attachBridgeSocket({
      server,
      dispatcher: createBridgeDispatcher(fake.bridge),
      key: KEY,
      allowedOrigin: origin,
    });
    await until(() => fake.subscriptions.length === 2);
    fake.subscriptions[1]!.emit({ status: 'signed-out' });
    await until(() => seen.length === 1);
    expect((await desk.listAgents()).ok).toBe(true);
  });
});

describe('closing the bridge socket', () => {
  it('waits for a call the host is still answering, so nothing writes after close', async () => {
    let asked = false;
    let finished = false;
    let finish = () => {};
    const slow = attachBridgeSocket({
      server,
      dispatcher: {
        call: () => {
          asked = true;
          return new Promise((resolve) => {
            finish = () => {
              finished = true;
              resolve({ ok: true, value: null });
            };
          });
        },
        subscribe: () => ({ ok: true, value: () => {} }),
      },
      key: KEY,
      allowedOrigin: origin,
    });
    // Only the slow carrier answers upgrades now.
    await carrier.close();
    carrier = slow;
    void client().saveUiState({ sidebarWidth: 300 });
    await until(() => asked);
    let closed = false;
    const closing = slow.close().then(() => (closed = true));
    // The page's socket is closed at once; the call is still being answered.
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(finished).toBe(true);
  });
});
