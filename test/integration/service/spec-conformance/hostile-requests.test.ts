import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';
import { rawExchange, statusCodes } from './raw-socket';

// An outsider's requests at the HTTP level, against a real service on a real socket: a page in the person's
// browser (foreign Origin, preflights), framing tricks (request smuggling basics, absolute-form targets) and
// parameters given twice. Each answer is the spec's error shape, and nothing behind it runs.
let service: TestService;
let token: string;
let refresh: string;
let conversationPath: string;

beforeAll(async () => {
  service = await startTestService();
  const tokens = await signIn(service);
  token = tokens.access_token;
  refresh = tokens.refresh_token;
  const agentId = await firstAgentId(service, token);
  const created = await fetch(`${service.url}/api/v2/me/agents/${agentId}/conversations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  conversationPath = `/api/v2/me/agents/${agentId}/conversations/${((await created.json()) as { id: string }).id}`;
}, 60_000);
afterAll(() => service.cleanup());

const bearer = () => ({ Authorization: `Bearer ${token}` });
const hostLine = () => `Host: 127.0.0.1:${service.port}`;

async function expectError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
  expect(await response.json()).toEqual({ error, detalle: expect.any(String) });
}

describe('a page in the person’s browser (foreign Origin)', () => {
  it.each(['https://evil.example', 'http://evil.example:80', 'null'])(
    'refuses Origin %s on the API, the token endpoint and the sign-in form, with 403',
    async (origin) => {
      await expectError(
        await fetch(`${service.url}/api/v2/me/agents`, { headers: { ...bearer(), Origin: origin } }),
        403,
        'origen_no_permitido',
      );
      await expectError(
        await fetch(`${service.url}/oauth2/token`, {
          method: 'POST',
          headers: { Origin: origin },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refresh,
            client_id: 'agentdesk-desktop',
          }),
        }),
        403,
        'origen_no_permitido',
      );
      await expectError(
        await fetch(`${service.url}/signin`, {
          method: 'POST',
          headers: { Origin: origin },
          body: new URLSearchParams({ email: 'person@example.test', password: 'x' }),
        }),
        403,
        'origen_no_permitido',
      );
    },
  );

  it('the refused refresh token was not used: it still rotates once', async () => {
    const rotated = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: 'agentdesk-desktop',
      }),
    });
    expect(rotated.status).toBe(200);
    refresh = ((await rotated.json()) as { refresh_token: string }).refresh_token;
  });

  it('takes `Origin: null` from our own pages (no-referrer forms, Sec-Fetch-Site same-origin) only', async () => {
    const post = (site: string) =>
      fetch(`${service.url}/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Origin: 'null', 'Sec-Fetch-Site': site },
        body: new URLSearchParams({ email: 'person@example.test', password: 'x' }),
      });
    const own = await post('same-origin');
    expect(own.status).not.toBe(403); // past the guard: the form's own checks answer (no CSRF token here)
    await own.body?.cancel();
    for (const site of ['cross-site', 'same-site', 'none']) {
      await expectError(await post(site), 403, 'origen_no_permitido');
    }
  });

  it('answers a CORS preflight from a foreign page with 403 and no Access-Control-Allow-* header', async () => {
    const preflight = await fetch(`${service.url}/api/v2/me/agents`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'DELETE',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    const corsHeaders: string[] = [];
    preflight.headers.forEach((_, name) => {
      if (name.startsWith('access-control-')) corsHeaders.push(name);
    });
    expect(corsHeaders).toEqual([]);
    await expectError(preflight, 403, 'origen_no_permitido');
  });

  it('accepts the service’s own pages (a loopback Origin) and clients that send no Origin', async () => {
    for (const origin of [service.url, `http://localhost:${service.port}`]) {
      const answer = await fetch(`${service.url}/api/v2/me/agents`, {
        headers: { ...bearer(), Origin: origin },
      });
      expect(answer.status, origin).toBe(200);
    }
    expect((await fetch(`${service.url}/api/v2/me/agents`, { headers: bearer() })).status).toBe(200);
  });
});

describe('framing and targets (request smuggling basics)', () => {
  it('refuses Content-Length with Transfer-Encoding, and two Content-Lengths, without running a turn', async () => {
    const before = await turnCount();
    const common = `POST ${conversationPath}/messages HTTP/1.1\r\n${hostLine()}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n`;
    const smuggled = `GET /api/v2/me/agents HTTP/1.1\r\n${hostLine()}\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    const both = await rawExchange(
      service.url,
      `${common}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    );
    expect(statusCodes(both)).toEqual([400]);
    const twice = await rawExchange(
      service.url,
      `${common}Content-Length: 18\r\nContent-Length: 3\r\n\r\n{"content":"hi"}\r\n`,
    );
    expect(statusCodes(twice)).toEqual([400]);
    const obfuscated = await rawExchange(service.url, `${common}Transfer-Encoding: xchunked\r\n\r\n`);
    expect(statusCodes(obfuscated)).toEqual([400]);
    expect(await turnCount()).toBe(before);
  });

  it('takes the authority of an absolute-form target as the host name: a foreign one is 421', async () => {
    const foreign = await rawExchange(
      service.url,
      `GET http://evil.example:${service.port}/openapi.yaml HTTP/1.1\r\n${hostLine()}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusCodes(foreign)).toEqual([421]);
    expect(foreign).toContain('"error":"host_no_permitido"');
    const own = await rawExchange(
      service.url,
      `GET http://127.0.0.1:${service.port}/oauth2/proveedores HTTP/1.1\r\n${hostLine()}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusCodes(own)).toEqual([200]);
  });
});

describe('dot segments in the request target', () => {
  // Left to URL normalisation, `files/../x` would quietly become another path (here `/agents/{id}/x`, a 404);
  // the spec's answer for a workspace path with `..` is 400 invalid path.
  it.each(['../x', '%2e%2e/x', '.%2E/x', '..%5cx', './a.txt', 'dir/../../../../etc/passwd'])(
    'PUT …/files/%s → 400 ruta_invalida, nothing written',
    async (path) => {
      const target = `${agentPath()}/files/${path}`;
      const answer = await rawExchange(
        service.url,
        `PUT ${target} HTTP/1.1\r\n${hostLine()}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx`,
      );
      expect(statusCodes(answer)).toEqual([400]);
      expect(answer).toContain('"error":"ruta_invalida"');
      const listing = await fetch(`${service.url}${agentPath()}/files/`, { headers: bearer() });
      const files = ((await listing.json()) as { files: { path: string }[] }).files.map((file) => file.path);
      expect(files.filter((name) => name === 'x' || name.endsWith('passwd'))).toEqual([]);
    },
  );

  it('without a token the answer is still 401 (nothing about the path is told first)', async () => {
    const answer = await rawExchange(
      service.url,
      `GET ${agentPath()}/files/../x HTTP/1.1\r\n${hostLine()}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusCodes(answer)).toEqual([401]);
  });
});

describe('a parameter given twice', () => {
  const cases = {
    'GET a conversation ?limit twice': ['GET', () => `${conversationPath}?limit=1&limit=50`, 'limit'],
    'GET an agent ?full twice': ['GET', () => `${agentPath()}?full=1&full=1`, 'full'],
    'POST a library file ?nombre twice': [
      'POST',
      () => '/api/v2/me/files?nombre=a.txt&nombre=b.txt',
      'nombre',
    ],
  } as const;
  it.each(Object.keys(cases) as (keyof typeof cases)[])(
    '%s → 400 body_invalido naming it; nothing is stored',
    async (label) => {
      const [method, path, name] = cases[label];
      const filesBefore = await libraryCount();
      const answer = await fetch(service.url + path(), {
        method,
        headers: bearer(),
        ...(method === 'POST' ? { body: 'bytes' } : {}),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: string; detalle: string };
      expect(body).toEqual({ error: 'body_invalido', detalle: expect.stringContaining(name) });
      expect(await libraryCount()).toBe(filesBefore);
    },
  );

  it('authorize with a repeated redirect_uri shows a page and redirects nowhere (RFC 6749 §3.1)', async () => {
    const query = authorizeQuery();
    query.append('redirect_uri', 'http://127.0.0.1:6553/callback');
    const answer = await fetch(`${service.url}/oauth2/authorize?${query.toString()}`, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await answer.text()).toMatch(/more than once/);
  });

  it('authorize with a repeated state or scope redirects back with invalid_request', async () => {
    for (const name of ['state', 'scope', 'code_challenge']) {
      const query = authorizeQuery();
      query.append(name, 'other');
      const answer = await fetch(`${service.url}/oauth2/authorize?${query.toString()}`, {
        redirect: 'manual',
      });
      expect(answer.status, name).toBe(302);
      const location = new URL(answer.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe('http://127.0.0.1:6552/callback');
      expect(location.searchParams.get('error'), name).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });
});

const agentPath = () => conversationPath.replace(/^\/api\/v2\/me\/agents\/([^/]+)\/.*$/, '/api/v2/agents/$1');

function authorizeQuery(): URLSearchParams {
  const verifier = randomBytes(32).toString('base64url');
  return new URLSearchParams({
    response_type: 'code',
    client_id: 'agentdesk-desktop',
    redirect_uri: 'http://127.0.0.1:6552/callback',
    scope: 'agents:read',
    state: 'the-state',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
}

async function turnCount(): Promise<number> {
  const answer = await fetch(`${service.url}${conversationPath}`, { headers: bearer() });
  return ((await answer.json()) as { messages: unknown[] }).messages.length;
}

async function libraryCount(): Promise<number> {
  const answer = await fetch(`${service.url}/api/v2/me/files`, { headers: bearer() });
  return ((await answer.json()) as { archivos: unknown[] }).archivos.length;
}
