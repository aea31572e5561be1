import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLogin } from '../../../../src/core/auth/login-flow';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import { refreshTokens } from '../../../../src/core/auth/pkce';
import { SESSION_EXPIRED_MESSAGE, TokenManager } from '../../../../src/core/auth/token-manager';
import type { TokenManagerEvent } from '../../../../src/core/auth/token-manager';
import { OIDC_BASE_PATH, OIDC_CLIENT_ID, startOidcServer, walkOidcPages } from '../../../support/oidc-server';
import type { OidcServer } from '../../../support/oidc-server';
import { recordingFetch } from '../support/recording-fetch';

vi.setConfig({ testTimeout: 60_000 });

/**
 * The OAuth client against oidc-provider, a standards-compliant server nobody here wrote, served
 * under a base path (`/tenant`). The browser is plain HTTP: it walks the provider's own sign-in
 * and consent pages, then follows the redirect to the app's loopback listener.
 */

const servers: OidcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(refreshTokens: boolean): Promise<OidcServer> {
  const started = await startOidcServer({ refreshTokens });
  servers.push(started);
  return started;
}

async function signInTo(oidc: OidcServer, fetch = recordingFetch()) {
  let walked: Promise<void> = Promise.resolve();
  const attempt = startLogin({
    baseUrl: oidc.baseUrl,
    clientId: OIDC_CLIENT_ID,
    scopes: ['profile', 'agents:read', 'agents:write'],
    fetch,
    openBrowser: (url) => {
      walked = walkOidcPages(url).catch((error: unknown) => {
        attempt.cancel();
        throw error;
      });
    },
  });
  const result = await attempt.result;
  await walked; // a page the walk did not expect fails the test with its own words
  return result;
}

describe('sign-in against oidc-provider', () => {
  it('keeps the base path in every URL and signs in without a refresh token', async () => {
    const oidc = await server(false);
    const fetch = recordingFetch();
    const result = await signInTo(oidc, fetch);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.accessToken.length).toBeGreaterThan(20);
    expect(result.value.refreshToken).toBeUndefined();
    expect(result.value.scope).toEqual(expect.arrayContaining(['agents:read', 'agents:write']));
    const paths = fetch.calls.map((call) => call.url.pathname);
    expect(paths).toEqual([`${OIDC_BASE_PATH}/oauth2/authorize`, `${OIDC_BASE_PATH}/oauth2/token`]);
  });

  it('asks the person to sign in again when an access token without refresh token expires', async () => {
    const oidc = await server(false);
    const result = await signInTo(oidc);
    if (!result.ok) throw new Error(result.error.message);
    let now = Date.now();
    const store = createMemorySecretStore();
    const manager = await TokenManager.open({
      store,
      key: 'tokens:oidc',
      oauth: { baseUrl: oidc.baseUrl, clientId: OIDC_CLIENT_ID },
      now: () => now,
    });
    const events: TokenManagerEvent[] = [];
    manager.onEvent((event) => events.push(event));
    await manager.signIn(result.value);
    expect(await manager.getAccessToken()).toEqual({ ok: true, value: result.value.accessToken });

    now = result.value.expiresAt + 1;
    expect(await manager.getAccessToken()).toEqual({
      ok: false,
      error: { code: 'signed_out', message: SESSION_EXPIRED_MESSAGE },
    });
    expect(events.at(-1)).toEqual({
      type: 'signed-out',
      reason: 'session_ended',
      message: SESSION_EXPIRED_MESSAGE,
    });
    expect(await store.get('tokens:oidc')).toBeUndefined();
  });

  it('refreshes with rotation, and signing out revokes the sign-in at the provider', async () => {
    const oidc = await server(true);
    const result = await signInTo(oidc);
    if (!result.ok) throw new Error(result.error.message);
    const first = result.value;
    expect(first.refreshToken).toEqual(expect.any(String));
    let now = Date.now();
    const fetch = recordingFetch();
    const oauth = { baseUrl: oidc.baseUrl, clientId: OIDC_CLIENT_ID, fetch };
    const manager = await TokenManager.open({
      store: createMemorySecretStore(),
      key: 'tokens:oidc',
      oauth,
      now: () => now,
    });
    await manager.signIn(first);

    now = first.expiresAt + 1;
    const refreshed = await manager.getAccessToken();
    expect(refreshed.ok && refreshed.value).not.toBe(first.accessToken);
    expect(fetch.count(`${OIDC_BASE_PATH}/oauth2/token`)).toBe(1);

    await manager.signOut();
    expect(fetch.count(`${OIDC_BASE_PATH}/oauth2/revoke`)).toBe(1);
    // The rotated refresh token was revoked: the provider no longer refreshes with it.
    const stored = fetch.calls.find((call) => call.url.pathname.endsWith('/oauth2/revoke'))!;
    const revokedToken = new URLSearchParams(stored.body).get('token')!;
    expect(revokedToken).not.toBe(first.refreshToken); // the rotated one was stored and used
    const again = await refreshTokens(oauth, revokedToken);
    expect(again.ok).toBe(false);
    expect(!again.ok && again.error.code).toBe('invalid_grant');
  });
});
