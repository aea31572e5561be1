import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserMode, type BrowserMode } from '../../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import type { HostMessage } from '../../../src/shared/bridge/wire';
import { personBrowser } from '../../support/person-browser';

// Browser mode as `npm run web` runs it (the built renderer, the bridge WebSocket, the host, the real local
// service), attacked as a page of another origin would: a foreign Origin, `Sec-Fetch-Site: cross-site`, a
// rebound DNS name (`evil.example:PORT`), a simple `text/plain` POST that needs no preflight, a WebSocket and an
// event stream from another origin. They get nothing and change nothing, and no token ever reaches the page.
// The only stand-ins: the OS keychain (a memory store, recorded so the test knows every secret) and the
// person's browser during sign-in (a cookie-keeping HTTP client, test/support/person-browser.ts).

const EVIL = 'http://evil.example';
let dataDir: string;
let mode: BrowserMode;
let port: number;
const secrets: string[] = [];
/** Every frame the host sent to the honest page. */
const frames: string[] = [];
let page: WebSocket;

function recordingStore(): SecretStore {
  const store = createMemorySecretStore();
  return {
    ...store,
    set: async (key, value) => {
      secrets.push(value);
      await store.set(key, value);
    },
  };
}

/** Connects as the app's page, shows the key, and hands back a caller. */
async function openPage(): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/desk`, { origin: mode.origin });
  ws.on('message', (data) => frames.push(String(data)));
  await new Promise((done) => ws.once('open', done));
  ws.send(JSON.stringify({ type: 'hello', key: new URL(mode.url).hash.replace('#key=', '') }));
  await nextMessage(ws, (m) => m.type === 'ready');
  return ws;
}

function nextMessage(ws: WebSocket, match: (m: HostMessage) => boolean): Promise<HostMessage> {
  return new Promise((done) => {
    const listen = (data: unknown) => {
      const message = JSON.parse(String(data)) as HostMessage;
      if (!match(message)) return;
      ws.off('message', listen);
      done(message);
    };
    ws.on('message', listen);
  });
}

let nextId = 0;
async function call(ws: WebSocket, name: string, ...args: unknown[]): Promise<unknown> {
  const id = ++nextId;
  const answer = nextMessage(ws, (m) => m.type === 'result' && m.id === id);
  ws.send(JSON.stringify({ type: 'call', id, name, args }));
  return ((await answer) as { result: unknown }).result;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-hostile-origin-'));
  mode = await startBrowserMode({
    dataDir,
    rendererDir: resolve(import.meta.dirname, '../../../out/renderer'),
    secrets: recordingStore(),
  });
  port = Number(new URL(mode.origin).port);
  page = await openPage();
  const browser = personBrowser(() => mode.service()!);
  page.on('message', (data) => {
    const message = JSON.parse(String(data)) as HostMessage;
    if (message.type === 'open-url') void browser(message.url);
  });
  await call(page, 'addLocalProfile');
  expect(await call(page, 'signIn')).toMatchObject({ ok: true, value: { status: 'signed-in' } });
}, 60_000);

afterAll(async () => {
  page?.close();
  await mode?.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  to = port,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: to, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A WebSocket handshake as an attacker writes it: the server's answer status, or 'open' if it upgraded. */
function foreignSocket(path: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((done) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.on('open', () => {
      ws.close();
      done('open');
    });
    ws.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
    ws.on('error', () => done(0));
  });
}

const own = () => ({ Host: `127.0.0.1:${port}` });

describe('a page of another origin', () => {
  it('cannot open the bridge WebSocket: foreign Origin, rebound Host, no Origin, Origin null, other paths', async () => {
    const attempts: [string, Record<string, string>][] = [
      ['/desk', { ...own(), Origin: `${EVIL}:${port}` }],
      ['/desk', { Host: `evil.example:${port}`, Origin: `${EVIL}:${port}` }],
      ['/desk', { Host: `evil.example:${port}`, Origin: mode.origin }],
      ['/desk', { ...own(), Origin: 'null' }],
      ['/desk', own()],
      ['/other', { ...own(), Origin: `${EVIL}:${port}` }],
    ];
    for (const [path, headers] of attempts) {
      const answer = await foreignSocket(path, headers);
      expect(answer, `${path} ${JSON.stringify(headers)}`).not.toBe('open');
      expect([403, 404], `${path} ${JSON.stringify(headers)}`).toContain(answer);
    }
    expect(mode.socket.connections).toBe(1);
  });

  it('cannot read the page server across sites, nor post to it, nor rebind its name', async () => {
    const answers = [
      await http('GET', '/', { Host: `evil.example:${port}` }),
      await http('GET', '/', {
        ...own(),
        'Sec-Fetch-Site': 'cross-site',
        'Sec-Fetch-Mode': 'cors',
        Origin: EVIL,
      }),
      await http('GET', '/', { ...own(), 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' }),
      await http('GET', '/', { ...own(), 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'no-cors' }),
      await http(
        'POST',
        '/desk',
        { ...own(), Origin: EVIL, 'Content-Type': 'text/plain' },
        '{"type":"call"}',
      ),
      await http('POST', '/', { ...own(), Origin: EVIL, 'Content-Type': 'text/plain' }, 'signOut'),
      await http('PUT', '/index.html', { ...own(), 'Content-Type': 'text/plain' }, 'replaced'),
    ];
    expect(answers.map((a) => a.status)).toEqual([421, 403, 403, 403, 405, 405, 405]);
    for (const answer of answers) {
      expect(answer.body).toBe('');
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('is not refused when the person opens the printed address, also from a link', async () => {
    const typed = await http('GET', '/', {
      ...own(),
      'Sec-Fetch-Site': 'none',
      'Sec-Fetch-Mode': 'navigate',
    });
    const linked = await http('GET', '/', {
      ...own(),
      'Sec-Fetch-Site': 'cross-site',
      'Sec-Fetch-Mode': 'navigate',
    });
    expect([typed.status, linked.status]).toEqual([200, 200]);
    expect(typed.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(typed.headers['x-frame-options']).toBe('DENY');
    expect(String(typed.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('cannot reach the local service behind it, nor its event stream', async () => {
    const service = mode.service()!;
    const servicePort = Number(new URL(service.url).port);
    const agents = await http(
      'GET',
      '/api/v2/me/agents',
      { Host: `127.0.0.1:${servicePort}`, Origin: EVIL },
      undefined,
      servicePort,
    );
    const rebound = await http(
      'GET',
      '/openapi.yaml',
      { Host: `evil.example:${servicePort}` },
      undefined,
      servicePort,
    );
    const stream = await http(
      'GET',
      '/api/v2/me/agents/x/conversations/y/events',
      { Host: `127.0.0.1:${servicePort}`, Origin: EVIL, Accept: 'text/event-stream' },
      undefined,
      servicePort,
    );
    const post = await http(
      'POST',
      '/api/v2/me/agents/x/conversations',
      { Host: `127.0.0.1:${servicePort}`, Origin: EVIL, 'Content-Type': 'text/plain' },
      '{}',
      servicePort,
    );
    expect([agents.status, rebound.status, stream.status, post.status]).toEqual([403, 421, 403, 403]);
    for (const answer of [agents, stream, post]) {
      expect(JSON.parse(answer.body)).toMatchObject({
        error: 'origen_no_permitido',
        detalle: expect.any(String),
      });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('changed nothing: the person is still signed in on the same profile', async () => {
    const session = (await call(page, 'getSession')) as { ok: boolean; value: { status: string } };
    expect(session.value.status).toBe('signed-in');
  });
});

describe('the honest page', () => {
  it('never receives a token, from any answer or event', async () => {
    for (const name of [
      'getSession',
      'listProfiles',
      'listAgents',
      'getSettings',
      'getAppInfo',
      'listFiles',
    ]) {
      await call(page, name);
    }
    const agents = (await call(page, 'listAgents')) as { value: { agents: { id: string }[] } };
    const agentId = agents.value.agents[0]!.id;
    await call(page, 'getAgentConfig', agentId);
    await call(page, 'listConversations', agentId);
    expect(secrets.length).toBeGreaterThan(0);
    expect(frames.length).toBeGreaterThan(8);
    const tokens = secrets.flatMap((value) => [value, ...(value.match(/[\w-]{20,}/g) ?? [])]);
    for (const frame of frames) {
      for (const token of tokens)
        expect(frame.includes(token), `a frame carried a secret: ${frame.slice(0, 200)}`).toBe(false);
      expect(frame).not.toMatch(/"(access_token|refresh_token)"|gat_[A-Za-z0-9]/);
    }
    const index = await http('GET', '/', own());
    for (const token of tokens) expect(index.body.includes(token)).toBe(false);
  });
});
