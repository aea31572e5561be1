import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestService, type TestService } from '../../../support/local-service';

// Malformed requests get the spec's 400 shapes (OAuthError on /oauth2, Error or a page elsewhere), never a 500.
let service: TestService;
let access: string;

beforeAll(async () => {
  service = await startTestService();
  access = (await signIn(service)).access_token;
});
afterAll(() => service.cleanup());

function tokenRequest(
  body: string | Buffer,
  contentType = 'application/x-www-form-urlencoded',
): Promise<Response> {
  return fetch(`${service.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
}

async function expectOAuthError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
}

/** Raw bytes over HTTP/1.1, for what fetch refuses to send (invalid header bytes, lying lengths). */
function raw(
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method: body ? 'POST' : 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('POST /oauth2/token', () => {
  it('missing fields → 400 invalid_request / 401 invalid_client', async () => {
    await expectOAuthError(await tokenRequest(''), 401, 'invalid_client');
    await expectOAuthError(await tokenRequest('client_id=agentdesk-desktop'), 400, 'invalid_request');
    await expectOAuthError(
      await tokenRequest('client_id=agentdesk-desktop&grant_type=authorization_code'),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('client_id=agentdesk-desktop&grant_type=refresh_token'),
      400,
      'invalid_request',
    );
  });

  it('wrong types → 400 invalid_request', async () => {
    const json = JSON.stringify({
      grant_type: 'refresh_token',
      client_id: 'agentdesk-desktop',
      refresh_token: 1,
    });
    await expectOAuthError(await tokenRequest(json, 'application/json'), 400, 'invalid_request');
    await expectOAuthError(await tokenRequest('grant_type=x', 'text/plain'), 400, 'invalid_request');
    const form = new FormData();
    form.set('grant_type', 'refresh_token');
    await expectOAuthError(
      await fetch(`${service.url}/oauth2/token`, { method: 'POST', body: form }),
      400,
      'invalid_request',
    );
    // A parameter given twice is an error (RFC 6749 §3.2).
    await expectOAuthError(
      await tokenRequest(
        'client_id=agentdesk-desktop&grant_type=refresh_token&grant_type=refresh_token&refresh_token=a',
      ),
      400,
      'invalid_request',
    );
  });

  it('huge bodies → 400 invalid_request, without reading them whole', async () => {
    const huge = `client_id=agentdesk-desktop&grant_type=refresh_token&refresh_token=${'a'.repeat(2 * 1024 * 1024)}`;
    await expectOAuthError(await tokenRequest(huge), 400, 'invalid_request');
    // Chunked, with no Content-Length to refuse early on.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 64; i++) controller.enqueue(new Uint8Array(16 * 1024).fill(97));
        controller.close();
      },
    });
    const chunked = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectOAuthError(chunked, 400, 'invalid_request');
  });

  it('bad UTF-8, raw or %-escaped → 400 invalid_request', async () => {
    const bytes = Buffer.concat([
      Buffer.from('client_id=agentdesk-desktop&grant_type=refresh_token&refresh_token='),
      Buffer.from([0xff, 0xfe]),
    ]);
    await expectOAuthError(await tokenRequest(bytes), 400, 'invalid_request');
    await expectOAuthError(
      await tokenRequest('client_id=agentdesk-desktop&grant_type=refresh_token&refresh_token=%FF%FE'),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('client_id=%E0%A4%A&grant_type=refresh_token'),
      400,
      'invalid_request',
    );
  });

  it('a garbled Basic header → 401 invalid_client', async () => {
    const response = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: 'Basic !!!not-base64', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    await expectOAuthError(response, 401, 'invalid_client');
  });
});

describe('forms and pages', () => {
  it('bad UTF-8 and huge bodies on the sign-in form → 400 page', async () => {
    const bad = await fetch(`${service.url}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from([0x65, 0x3d, 0xc3, 0x28]),
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    const huge = await fetch(`${service.url}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=' + 'a'.repeat(1024 * 1024),
      redirect: 'manual',
    });
    expect(huge.status).toBe(400);
  });

  it('authorize with broken %-escapes in the query → 400 page, not 500', async () => {
    const response = await fetch(`${service.url}/oauth2/authorize?client_id=%FF&redirect_uri=%E0%A4%A`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
  });
});

describe('/api/v2', () => {
  it('broken %-escapes in the path → 404, not 500', async () => {
    const response = await fetch(`${service.url}/api/v2/agents/%E0%A4%A/mcp`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(404);
  });

  it('non-ASCII or oversized Authorization headers → 401', async () => {
    const latin = await raw('/api/v2/me/agents', { Authorization: 'Bearer \u00e9\u00e9' });
    expect(latin.status).toBe(401);
    const long = await fetch(`${service.url}/api/v2/me/agents`, {
      headers: { Authorization: `Bearer ${'x'.repeat(8000)}` },
    });
    expect(long.status).toBe(401);
  });

  it('a body where none is expected is ignored', async () => {
    const response = await fetch(`${service.url}/api/v2/me/connectors`, {
      method: 'GET',
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(response.status).toBe(200);
    const junk = await raw(
      '/api/v2/me/connectors',
      { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' },
      Buffer.from([0xff, 0x00, 0x7b]),
    );
    // POST on a GET-only path: the method is wrong, whatever the body.
    expect(junk.status).toBe(405);
    expect(JSON.parse(junk.text)).toEqual({ error: 'method_not_allowed' });
  });
});
