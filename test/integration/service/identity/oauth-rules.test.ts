import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/index';
import { SCOPE_DESCRIPTIONS } from '../../../../src/service/identity/scopes';
import {
  authorizeCode,
  codeGrant,
  CookieBrowser,
  ensurePerson,
  firstAgentId,
  refreshGrant,
  signIn,
  startTestService,
  type TestService,
} from '../../../support/local-service';

// Every rule of /oauth2/authorize and /oauth2/token, against a real service on 127.0.0.1 with a test clock.
const clock = createTestClock();
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ clock });
  await ensurePerson(service);
});
afterAll(() => service.cleanup());

async function apiStatus(accessToken: string): Promise<number> {
  const response = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  await response.body?.cancel();
  return response.status;
}

async function expectInvalidGrant(response: Response): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe('invalid_grant');
  expect(typeof body.error_description).toBe('string');
}

function authorizeUrl(params: Record<string, string>): string {
  const base = {
    response_type: 'code',
    client_id: 'agentdesk-desktop',
    redirect_uri: 'http://127.0.0.1:5000/callback',
    scope: 'agents:read',
    state: 'st4te',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  };
  return `${service.url}/oauth2/authorize?${new URLSearchParams({ ...base, ...params }).toString()}`;
}

describe('token endpoint success body', () => {
  it('is exactly the spec body, with no-store', async () => {
    const grant = await authorizeCode(service, { scopes: ['profile', 'agents:read'] });
    const response = await codeGrant(service, grant);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'profile agents:read' });
    expect(body.access_token).not.toBe(body.refresh_token);
  });
});

describe('authorization codes', () => {
  it('are single use, and reusing one revokes what it issued', async () => {
    const grant = await authorizeCode(service);
    const first = await codeGrant(service, grant);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    expect(await apiStatus(tokens.access_token)).toBe(200);

    await expectInvalidGrant(await codeGrant(service, grant));
    expect(await apiStatus(tokens.access_token)).toBe(401);
    await expectInvalidGrant(await refreshGrant(service, tokens.refresh_token));
  });

  it('are valid for 60 s and no longer', async () => {
    const late = await authorizeCode(service);
    clock.advance(60_000);
    await expectInvalidGrant(await codeGrant(service, late));

    const inTime = await authorizeCode(service);
    clock.advance(59_000);
    expect((await codeGrant(service, inTime)).status).toBe(200);
  });

  it('need the right PKCE verifier, and a wrong one spends the code', async () => {
    const grant = await authorizeCode(service);
    await expectInvalidGrant(await codeGrant(service, grant, { code_verifier: 'x'.repeat(43) }));
    await expectInvalidGrant(await codeGrant(service, grant));
  });

  it('need a verifier at all', async () => {
    const grant = await authorizeCode(service);
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: grant.redirectUri,
      client_id: grant.clientId,
    });
    await expectInvalidGrant(await fetch(`${service.url}/oauth2/token`, { method: 'POST', body }));
  });

  it('need the same redirect_uri as at authorize, even on another loopback port', async () => {
    const grant = await authorizeCode(service, { redirectUri: 'http://127.0.0.1:41000/callback' });
    await expectInvalidGrant(
      await codeGrant(service, grant, { redirect_uri: 'http://127.0.0.1:41001/callback' }),
    );
  });

  it('belong to the client they were issued to', async () => {
    const other = await service.context.identity.clients.create({
      name: 'Other app',
      redirectUris: ['http://127.0.0.1/callback'],
      scopes: 'agents:read',
    });
    const grant = await authorizeCode(service);
    await expectInvalidGrant(await codeGrant(service, grant, { client_id: other.client_id }));
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; reusing a rotated one revokes the whole family', async () => {
    const first = await signIn(service);
    const second = await refreshGrant(service, first.refresh_token);
    expect(second.status).toBe(200);
    const rotated = (await second.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.scope).toBe(first.scope);
    expect(await apiStatus(rotated.access_token)).toBe(200);

    await expectInvalidGrant(await refreshGrant(service, first.refresh_token));
    // The family is gone: the newest refresh token and the access tokens too.
    await expectInvalidGrant(await refreshGrant(service, rotated.refresh_token));
    expect(await apiStatus(rotated.access_token)).toBe(401);
    expect(await apiStatus(first.access_token)).toBe(401);
  });

  it('belong to their client', async () => {
    const tokens = await signIn(service);
    const other = await service.context.identity.clients.create({
      name: 'Third app',
      redirectUris: ['http://127.0.0.1/callback'],
      scopes: 'agents:read',
    });
    await expectInvalidGrant(await refreshGrant(service, tokens.refresh_token, other.client_id));
  });

  it('live 90 days while access tokens live 1 hour', async () => {
    const tokens = await signIn(service);
    clock.advance(3600_000 - 1000);
    expect(await apiStatus(tokens.access_token)).toBe(200);
    clock.advance(1000);
    expect(await apiStatus(tokens.access_token)).toBe(401);
    const refreshed = await refreshGrant(service, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { refresh_token: string };
    clock.advance(90 * 24 * 3600_000);
    await expectInvalidGrant(await refreshGrant(service, next.refresh_token));
  });
});

describe('scopes', () => {
  it('are narrowed to the client ceiling without failing, and unknown ones are dropped', async () => {
    const client = await service.context.identity.clients.create({
      name: 'Reader',
      redirectUris: ['https://reader.example/cb'],
      scopes: 'profile agents:read',
    });
    const tokens = await signIn(service, {
      clientId: client.client_id,
      redirectUri: 'https://reader.example/cb',
      scopes: ['agents:read', 'agents:write', 'files', 'admin'],
    });
    expect(tokens.scope).toBe('agents:read');
  });

  it('are the whole ceiling when none is asked for, and empty when nothing asked is allowed', async () => {
    const noScope = await signIn(service, { scopes: [] });
    expect(noScope.scope).toBe('profile agents:read agents:write files');
    const nothing = await signIn(service, { scopes: ['admin'] });
    expect(nothing.scope).toBe('');
    expect(await apiStatus(nothing.access_token)).toBe(403);
  });

  it('are frozen in the token', async () => {
    const tokens = await signIn(service, { scopes: ['profile'] });
    const refreshed = (await (await refreshGrant(service, tokens.refresh_token)).json()) as { scope: string };
    expect(refreshed.scope).toBe('profile');
  });
});

describe('redirect URIs', () => {
  it('accept any port on the 127.0.0.1 loopback for the desktop client', async () => {
    for (const port of [1024, 41234, 65535]) {
      const tokens = await signIn(service, { redirectUri: `http://127.0.0.1:${port}/callback` });
      expect(tokens.token_type).toBe('Bearer');
    }
  });

  it('show an error page, never a redirect, for anything else', async () => {
    for (const redirect of [
      'http://localhost:5000/callback',
      'http://127.0.0.1:5000/callback/',
      'http://127.0.0.1:5000/callback/extra',
      'http://127.0.0.1:5000/other',
      'http://127.0.0.1:5000/callback?x=1',
      'https://127.0.0.1:5000/callback',
      'http://[::1]:5000/callback',
      'http://user@127.0.0.1:5000/callback',
      'http://127.0.0.1:5000/x/../callback',
    ]) {
      const response = await fetch(authorizeUrl({ redirect_uri: redirect }), { redirect: 'manual' });
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('Wrong return address');
    }
  });

  it('are compared exactly for non-loopback URIs', async () => {
    const client = await service.context.identity.clients.create({
      name: 'Web app',
      redirectUris: ['https://app.example/cb'],
      scopes: 'agents:read',
    });
    const exact = await signIn(service, {
      clientId: client.client_id,
      redirectUri: 'https://app.example/cb',
    });
    expect(exact.scope).toBe('agents:read');
    for (const redirect of [
      'https://app.example/cb/',
      'https://app.example/cb?next=1',
      'https://app.example/cb/deeper',
      'https://APP.example/cb',
      'https://app.example:443/cb',
      'https://app.example:8443/cb',
      'http://app.example/cb',
    ]) {
      const response = await fetch(authorizeUrl({ client_id: client.client_id, redirect_uri: redirect }), {
        redirect: 'manual',
      });
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('a client registered with a loopback URI that names a port gets exact matching', async () => {
    const client = await service.context.identity.clients.create({
      name: 'Fixed port',
      redirectUris: ['http://127.0.0.1:7000/cb'],
      scopes: 'agents:read',
    });
    const other = await fetch(
      authorizeUrl({ client_id: client.client_id, redirect_uri: 'http://127.0.0.1:7001/cb' }),
      { redirect: 'manual' },
    );
    expect(other.status).toBe(400);
  });
});

describe('authorize errors', () => {
  it('show a page for an unknown client', async () => {
    const response = await fetch(authorizeUrl({ client_id: 'nobody' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it('redirect with error and state for everything else (RFC 6749 §4.1.2.1)', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const response = await fetch(authorizeUrl(params), { redirect: 'manual' });
      expect(response.status, JSON.stringify(params)).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe('http://127.0.0.1:5000/callback');
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('st4te');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('redirect without state when state is missing', async () => {
    const url = new URL(authorizeUrl({}));
    url.searchParams.delete('state');
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.has('state')).toBe(false);
  });
});

describe('client authentication at the token endpoint', () => {
  it('answers 401 invalid_client for an unknown client', async () => {
    const response = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'nobody' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('answers 400 unsupported_grant_type for other grants', async () => {
    for (const grantType of [
      'client_credentials',
      'password',
      'implicit',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]) {
      const response = await fetch(`${service.url}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: grantType, client_id: 'agentdesk-desktop' }),
      });
      expect(response.status, grantType).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
    }
  });

  it('lets a confidential client use client_secret_post or HTTP Basic, and refuses a wrong secret', async () => {
    const created = await service.context.identity.clients.create({
      name: 'Backend',
      redirectUris: ['https://backend.example/cb'],
      scopes: 'agents:read',
      confidential: true,
    });
    const secret = created.client_secret as string;
    const options = { clientId: created.client_id, redirectUri: 'https://backend.example/cb' };

    const viaPost = await authorizeCode(service, options);
    expect((await codeGrant(service, viaPost, { client_secret: secret })).status).toBe(200);

    const viaBasic = await authorizeCode(service, options);
    const basic = Buffer.from(
      `${encodeURIComponent(created.client_id)}:${encodeURIComponent(secret)}`,
    ).toString('base64');
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: viaBasic.code,
      redirect_uri: viaBasic.redirectUri,
      code_verifier: viaBasic.verifier,
    });
    const basicResponse = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}` },
      body,
    });
    expect(basicResponse.status).toBe(200);

    const wrong = await authorizeCode(service, options);
    const wrongResponse = await codeGrant(service, wrong, { client_secret: 'not-it' });
    expect(wrongResponse.status).toBe(401);
    expect(await wrongResponse.json()).toMatchObject({ error: 'invalid_client' });

    const missing = await authorizeCode(service, options);
    expect((await codeGrant(service, missing)).status).toBe(401);
  });
});

describe('consent', () => {
  it('is shown to third-party clients, listing the scopes; denying redirects with access_denied', async () => {
    const client = await service.context.identity.clients.create({
      name: 'Third <b>party</b>',
      redirectUris: ['https://third.example/cb'],
      scopes: 'agents:read files',
    });
    const browser = new CookieBrowser(service.url);
    const signInPage = await browser.get(
      new URL(
        authorizeUrl({
          client_id: client.client_id,
          redirect_uri: 'https://third.example/cb',
          scope: 'files agents:read',
        }),
      ).href.slice(service.url.length),
    );
    const signInHtml = await signInPage.text();
    expect(signInHtml).toContain('Third &lt;b&gt;party&lt;/b&gt;');
    const next = /name="next" value="([^"]*)"/.exec(signInHtml)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const csrf = /name="csrf" value="([^"]*)"/.exec(signInHtml)?.[1] ?? '';
    const signedIn = await browser.post('/signin', {
      csrf,
      next,
      email: 'person@example.test',
      password: 'correct horse battery staple',
    });
    expect(signedIn.status).toBe(303);
    const consent = await browser.get(signedIn.headers.get('location') ?? '');
    const html = await consent.text();
    // Each asked scope in plain words, its id only in an attribute.
    expect(html).toContain(`<li data-scope="agents:read">${SCOPE_DESCRIPTIONS['agents:read']}</li>`);
    expect(html).toContain(`<li data-scope="files">${SCOPE_DESCRIPTIONS.files}</li>`);
    expect(html).not.toContain(SCOPE_DESCRIPTIONS['agents:write']);
    expect(html).not.toContain('<code>');
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)].map((m) => [
        m[1],
        (m[2] as string).replace(/&amp;/g, '&'),
      ]),
    ) as Record<string, string>;
    const denied = await browser.post('/oauth2/authorize', { ...fields, decision: 'deny' });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st4te');

    const forged = await browser.post('/oauth2/authorize', { ...fields, csrf: 'forged', decision: 'allow' });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('lists no scopes for first-party clients, but a signed-in browser still clicks for a loopback redirect', async () => {
    const browser = new CookieBrowser(service.url);
    await browser.signInPage('person@example.test', 'correct horse battery staple');
    const response = await browser.get(authorizeUrl({}).slice(service.url.length));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Continue to AgentDesk as person@example.test');
    expect(html).not.toContain('asks to:');
  });
});

describe('revoke and providers', () => {
  it('revoke answers 200 always and ends the grant of a real token', async () => {
    for (const body of [
      new URLSearchParams({ token: 'unknown', client_id: 'agentdesk-desktop' }),
      new URLSearchParams({ token: 'unknown', client_id: 'nobody' }),
      new URLSearchParams({}),
    ]) {
      const response = await fetch(`${service.url}/oauth2/revoke`, { method: 'POST', body });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    const tokens = await signIn(service);
    await fetch(`${service.url}/oauth2/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: 'agentdesk-desktop' }),
    });
    expect(await apiStatus(tokens.access_token)).toBe(401);
    await expectInvalidGrant(await refreshGrant(service, tokens.refresh_token));
  });

  it('answer 405 to another method', async () => {
    const response = await fetch(`${service.url}/oauth2/token`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: 'method_not_allowed' });
  });

  it('lists the e-mail provider', async () => {
    const response = await fetch(`${service.url}/oauth2/proveedores`);
    expect(await response.json()).toEqual({
      proveedores: [{ id: 'email', nombre: 'E-mail and password', tipo: 'password' }],
    });
  });
});

describe('sign-in pages', () => {
  it('set an HttpOnly, SameSite=Lax session cookie and refuse a form without its CSRF token', async () => {
    const page = await fetch(`${service.url}/signin`, { redirect: 'manual' });
    const cookie = page.headers.getSetCookie()[0] ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const response = await fetch(`${service.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie.split(';')[0] ?? '', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'person@example.test', password: 'correct horse battery staple' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('say so on a wrong password and never redirect elsewhere than our own pages', async () => {
    const browser = new CookieBrowser(service.url);
    const page = await browser.get('/signin?next=https%3A%2F%2Fevil.example%2F');
    const html = await page.text();
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(html).toContain('name="next" value="/account"');
    const wrong = await browser.post('/signin', {
      csrf,
      next: '/account',
      email: 'person@example.test',
      password: 'nope',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong e-mail or password.');
    const ok = await browser.post('/signin', {
      csrf,
      next: '//evil.example/',
      email: 'person@example.test',
      password: 'correct horse battery staple',
    });
    expect(ok.headers.get('location')).toBe('/account');
  });

  it('the agent list of a person signed in through the pages is the same as through the API', async () => {
    const tokens = await signIn(service);
    const id = await firstAgentId(service, tokens.access_token);
    const browser = new CookieBrowser(service.url);
    await browser.signInPage('person@example.test', 'correct horse battery staple');
    expect(await (await browser.get('/account')).text()).toContain(id);
  });
});
