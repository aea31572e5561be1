import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { SCOPE_DESCRIPTIONS } from '../../src/service/identity/scopes';
import { startTestService, type TestService } from '../support/local-service';

// The whole authorization code + PKCE flow against the local service: oauth4webapi drives the protocol from test
// code, Chromium (Playwright) fills in the service's first-run and consent pages, and a loopback listener on
// 127.0.0.1 takes the redirect, as the desktop app does (RFC 8252).

let service: TestService;
let callback: Server;
let callbackUrl: string;
let received: (url: URL) => void;
let nextCallback: Promise<URL>;

function expectCallback(): void {
  nextCallback = new Promise((resolve) => (received = resolve));
}

test.beforeAll(async () => {
  service = await startTestService();
  callback = createServer((request, response) => {
    received(new URL(request.url ?? '/', callbackUrl));
    response
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end('<p id="done">Signed in.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => callback.close(() => resolve()));
  await service.cleanup();
});

test('a third-party client signs a new person in with PKCE, refreshes and revokes', async ({ page }) => {
  const issuer = new URL(service.url);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
  );
  const registered = await service.context.identity.clients.create({
    name: 'Notes app',
    redirectUris: ['http://127.0.0.1/callback'],
    scopes: 'profile agents:read',
  });
  const client: oauth.Client = { client_id: registered.client_id };
  const options = { [oauth.allowInsecureRequests]: true };

  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorizationUrl = new URL(as.authorization_endpoint as string);
  authorizationUrl.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: callbackUrl,
    scope: 'profile agents:read agents:write',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();

  // No account yet: the first-run page creates it.
  expectCallback();
  await page.goto(authorizationUrl.href);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('E-mail').fill('maria@example.test');
  await page.getByLabel('Password (at least 8 characters)').fill('a good long password');
  await page.getByLabel('Repeat the password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();

  // A third party always sees consent, with the scopes it gets (narrowed to its ceiling), in words.
  await expect(page.getByRole('heading', { name: 'Allow Notes app to use your account?' })).toBeVisible();
  const asked = page.getByRole('listitem');
  await expect(asked).toHaveText([SCOPE_DESCRIPTIONS.profile, SCOPE_DESCRIPTIONS['agents:read']]);
  await expect(page.getByText(SCOPE_DESCRIPTIONS['agents:write'])).toHaveCount(0);
  await expect(page.getByText('agents:read')).toHaveCount(0);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.locator('#done')).toBeVisible();

  const params = oauth.validateAuthResponse(as, client, await nextCallback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      callbackUrl,
      verifier,
      options,
    ),
  );
  expect(tokens.token_type).toBe('bearer');
  expect(tokens.expires_in).toBe(3600);
  expect(tokens.scope).toBe('profile agents:read');

  const me = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  expect(me.status).toBe(200);
  const body = (await me.json()) as { usuario: { email: string }; agentes: unknown[] };
  expect(body.usuario.email).toBe('maria@example.test');
  expect(body.agentes).toHaveLength(1);

  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token as string, options),
  );
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

  // Reusing the rotated refresh token is refused, and it revokes the family.
  const reuse = await oauth.refreshTokenGrantRequest(
    as,
    client,
    oauth.None(),
    tokens.refresh_token as string,
    options,
  );
  await expect(oauth.processRefreshTokenResponse(as, client, reuse)).rejects.toMatchObject({
    error: 'invalid_grant',
  });
  const afterReuse = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${refreshed.access_token}` },
  });
  expect(afterReuse.status).toBe(401);

  // Signed in already in this browser: a second authorization only asks for consent again.
  expectCallback();
  const secondState = oauth.generateRandomState();
  const secondVerifier = oauth.generateRandomCodeVerifier();
  authorizationUrl.searchParams.set('state', secondState);
  authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(secondVerifier));
  await page.goto(authorizationUrl.href);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.locator('#done')).toBeVisible();
  const second = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      oauth.validateAuthResponse(as, client, await nextCallback, secondState),
      callbackUrl,
      secondVerifier,
      options,
    ),
  );
  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, oauth.None(), second.refresh_token as string, options),
  );
  const afterRevoke = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${second.access_token}` },
  });
  expect(afterRevoke.status).toBe(401);
});

test('the desktop client skips consent; a bad redirect_uri shows an error page', async ({ page }) => {
  const verifier = oauth.generateRandomCodeVerifier();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'agentdesk-desktop',
    redirect_uri: callbackUrl,
    scope: 'agents:read',
    state: 'desk',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  expectCallback();
  await page.goto(`${service.url}/oauth2/authorize?${query.toString()}`);
  // Signed out in this new browser context: the sign-in page, then straight back to the app.
  await page.getByLabel('E-mail').fill('maria@example.test');
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('#done')).toBeVisible();
  expect((await nextCallback).searchParams.get('code')).toBeTruthy();

  query.set('redirect_uri', 'http://localhost:1/callback');
  await page.goto(`${service.url}/oauth2/authorize?${query.toString()}`);
  await expect(page.getByRole('heading', { name: 'Wrong return address' })).toBeVisible();
});
