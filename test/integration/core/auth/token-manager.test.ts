import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../../src/core/api/api-client';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import type { TokenSet } from '../../../../src/core/auth/pkce';
import type { SecretStore } from '../../../../src/core/auth/secret-store';
import { SESSION_ENDED_MESSAGE, TokenManager } from '../../../../src/core/auth/token-manager';
import type { TokenManagerEvent } from '../../../../src/core/auth/token-manager';
import { DESKTOP_CLIENT_ID, refreshGrant, signIn, startTestService } from '../../../support/local-service';
import type { TestService } from '../../../support/local-service';
import { recordingFetch } from '../support/recording-fetch';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The token manager against the real local service's token endpoint and API. */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.cleanup();
});

const KEY = 'tokens:local';

async function freshTokens(): Promise<TokenSet> {
  const body = await signIn(service);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + body.expires_in * 1000,
    scope: body.scope.split(' '),
  };
}

async function setup(options: { store?: SecretStore; now?: () => number } = {}) {
  const fetch = recordingFetch();
  const store = options.store ?? createMemorySecretStore();
  const manager = await TokenManager.open({
    store,
    key: KEY,
    oauth: { baseUrl: service.url, clientId: DESKTOP_CLIENT_ID, fetch },
    ...(options.now ? { now: options.now } : {}),
  });
  const events: TokenManagerEvent[] = [];
  manager.onEvent((event) => events.push(event));
  const api = createApiClient({ baseUrl: service.url, auth: manager, fetch });
  return { fetch, store, manager, events, api };
}

describe('token manager against the local service', () => {
  it('turns 50 parallel 401s into exactly one refresh, and every request then succeeds', async () => {
    const { fetch, manager, api } = await setup();
    const tokens = await freshTokens();
    // An access token the service no longer accepts, with a refresh token it does.
    await manager.signIn({ ...tokens, accessToken: 'revoked-access-token-0123456789' });

    const results = await Promise.all(Array.from({ length: 50 }, () => api.listAgents()));

    expect(results.every((result) => result.ok)).toBe(true);
    expect(fetch.count('/oauth2/token')).toBe(1);
    const agentCalls = fetch.calls.filter((call) => call.url.pathname === '/api/v2/me/agents');
    expect(agentCalls.filter((call) => call.status === 401)).toHaveLength(50);
    expect(agentCalls.filter((call) => call.status === 200)).toHaveLength(50);
  });

  it('refreshes about 60 s before expiry, not earlier', async () => {
    let now = Date.now();
    const { fetch, manager } = await setup({ now: () => now });
    const tokens = await freshTokens();
    await manager.signIn(tokens);

    now = tokens.expiresAt - 120_000;
    expect(await manager.getAccessToken()).toEqual({ ok: true, value: tokens.accessToken });
    expect(fetch.count('/oauth2/token')).toBe(0);

    now = tokens.expiresAt - 30_000;
    const refreshed = await manager.getAccessToken();
    expect(refreshed.ok && refreshed.value).not.toBe(tokens.accessToken);
    expect(fetch.count('/oauth2/token')).toBe(1);
  });

  it('stores the rotated refresh token before the new access token is used', async () => {
    const log: string[] = [];
    const inner = createMemorySecretStore();
    const store: SecretStore = {
      kind: 'memory',
      get: (key) => inner.get(key),
      delete: (key) => inner.delete(key),
      set: async (key, value) => {
        const saved = JSON.parse(value) as TokenSet;
        log.push(`stored refresh ${saved.refreshToken} with access ${saved.accessToken}`);
        await inner.set(key, value);
      },
    };
    const { fetch, manager, api } = await setup({ store });
    const tokens = await freshTokens();
    await manager.signIn({ ...tokens, accessToken: 'revoked-access-token-0123456789' });
    log.length = 0;

    const agents = await api.listAgents();
    expect(agents.ok).toBe(true);
    const retry = fetch.calls.find(
      (call) => call.url.pathname === '/api/v2/me/agents' && call.status === 200,
    )!;
    const newAccess = retry.authorization!.replace('Bearer ', '');
    const saved = JSON.parse((await inner.get(KEY))!) as TokenSet;
    expect(saved.accessToken).toBe(newAccess);
    expect(saved.refreshToken).not.toBe(tokens.refreshToken);
    // The only write happened before the retried request carried the new token.
    expect(log).toEqual([`stored refresh ${saved.refreshToken} with access ${newAccess}`]);
    const refreshCall = fetch.calls.findIndex((call) => call.url.pathname === '/oauth2/token');
    expect(fetch.calls.indexOf(retry)).toBeGreaterThan(refreshCall);
  });

  it('ends in a clean signed-out state when its refresh token was already rotated elsewhere', async () => {
    const { fetch, manager, events, store, api } = await setup();
    const tokens = await freshTokens();
    await manager.signIn({ ...tokens, expiresAt: Date.now() - 1 });
    // Another copy of the same refresh token is used first (simulated theft or a second app instance).
    const elsewhere = await refreshGrant(service, tokens.refreshToken!);
    expect(elsewhere.status).toBe(200);
    const rotated = ((await elsewhere.json()) as { refresh_token: string }).refresh_token;

    const result = await api.listAgents();

    expect(result).toEqual({
      ok: false,
      error: { code: 'signed_out', status: 401, message: SESSION_ENDED_MESSAGE },
    });
    expect(manager.signedIn).toBe(false);
    expect(await store.get(KEY)).toBeUndefined();
    expect(events.at(-1)).toEqual({
      type: 'signed-out',
      reason: 'session_ended',
      message: SESSION_ENDED_MESSAGE,
    });
    expect(fetch.count('/api/v2/me/agents')).toBe(0);
    // The reuse revoked the whole family at the service, so the other copy is dead too.
    expect((await refreshGrant(service, rotated)).status).toBe(400);
    // Later calls fail at once, without network.
    const again = await api.listAgents();
    expect(!again.ok && again.error.code).toBe('signed_out');
    expect(fetch.count('/oauth2/token')).toBe(1);
  });

  it('restores tokens saved by an earlier run', async () => {
    const store = createMemorySecretStore();
    const first = await setup({ store });
    await first.manager.signIn(await freshTokens());
    const second = await setup({ store });
    expect(second.manager.signedIn).toBe(true);
    expect((await second.api.listAgents()).ok).toBe(true);
  });

  it('signs out: forgets the tokens and revokes them at the service', async () => {
    const { manager, store, events } = await setup();
    const tokens = await freshTokens();
    await manager.signIn(tokens);
    await manager.signOut();
    expect(manager.signedIn).toBe(false);
    expect(await store.get(KEY)).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'signed-out', reason: 'user', message: 'You signed out.' });
    expect((await refreshGrant(service, tokens.refreshToken!)).status).toBe(400);
  });

  it('warns, and leaves no stale refresh token behind, when the secret store fails', async () => {
    const inner = createMemorySecretStore();
    let broken = false;
    const store: SecretStore = {
      kind: 'flaky',
      get: (key) => inner.get(key),
      delete: (key) => inner.delete(key),
      set: async (key, value) => {
        if (broken) throw new Error('keychain locked');
        await inner.set(key, value);
      },
    };
    const { manager, events, api } = await setup({ store });
    const tokens = await freshTokens();
    await manager.signIn({ ...tokens, accessToken: 'revoked-access-token-0123456789' });
    broken = true;
    expect((await api.listAgents()).ok).toBe(true);
    expect(events.map((event) => event.type)).toContain('storage-warning');
    expect(await inner.get(KEY)).toBeUndefined();
    expect(manager.signedIn).toBe(true);
  });
});
