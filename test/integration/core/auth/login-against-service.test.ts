import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../../src/core/api/api-client';
import { login, startLogin } from '../../../../src/core/auth/login-flow';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import { TokenManager } from '../../../../src/core/auth/token-manager';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  DESKTOP_CLIENT_ID,
  ensurePerson,
  startTestService,
} from '../../../support/local-service';
import type { TestService } from '../../../support/local-service';
import { walkSignIn } from '../support/browser-walk';
import type { PlainResponse } from '../support/http-get';
import { httpGet } from '../support/http-get';
import { recordingFetch } from '../support/recording-fetch';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The whole RFC 8252 sign-in against the real local service; the browser is plain HTTP requests. */

let service: TestService;
const THIRD_PARTY = 'third-party-notes';

beforeAll(async () => {
  service = await startTestService({
    config: {
      clients: [
        {
          client_id: THIRD_PARTY,
          name: 'Third-party notes',
          redirect_uris: ['http://127.0.0.1/callback'],
          scopes: 'profile agents:read',
        },
      ],
    },
  });
  await ensurePerson(service);
});
afterAll(async () => {
  await service.cleanup();
});

const account = { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD };

describe('sign-in against the local service', () => {
  it('signs in through the browser, exchanges the code, lands on the done page and closes the listener', async () => {
    const fetch = recordingFetch();
    let browsing: Promise<{ url: string; response: PlainResponse }[]> | undefined;
    const attempt = startLogin({
      baseUrl: service.url,
      clientId: DESKTOP_CLIENT_ID,
      scopes: ['profile', 'agents:read', 'agents:write', 'files'],
      fetch,
      openBrowser: (url) => {
        browsing = walkSignIn(url, account);
      },
    });
    const result = await attempt.result;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.scope).toEqual(['profile', 'agents:read', 'agents:write', 'files']);
    expect(result.value.expiresAt).toBeGreaterThan(Date.now() + 59 * 60 * 1000);

    // The browser went from the callback to the static done page.
    const hops = await browsing!;
    expect(hops.map((hop) => [new URL(hop.url).pathname, hop.response.status])).toEqual([
      ['/callback', 302],
      ['/signed-in', 200],
    ]);
    expect(hops[1]!.response.body).toMatch(/you can close this tab/i);
    await attempt.closed;
    await expect(httpGet(hops[0]!.url)).rejects.toThrow(/ECONNREFUSED/);

    // Exactly one token request: the code exchange, with PKCE and the exact redirect URI.
    const tokenCalls = fetch.calls.filter((call) => call.url.pathname === '/oauth2/token');
    expect(tokenCalls).toHaveLength(1);
    const form = new URLSearchParams(tokenCalls[0]!.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(form.get('redirect_uri')).toBe(hops[0]!.url.split('?')[0]);

    // The tokens work.
    const tokens = await TokenManager.open({
      store: createMemorySecretStore(),
      key: 'tokens:local',
      oauth: { baseUrl: service.url, clientId: DESKTOP_CLIENT_ID },
    });
    await tokens.signIn(result.value);
    const api = createApiClient({ baseUrl: service.url, auth: tokens });
    const agents = await api.listAgents();
    expect(agents.ok && agents.value.user.email).toBe(DEFAULT_EMAIL);
  });

  it('uses a registered port when it is free', async () => {
    const registered = await freePort();
    let port = 0;
    const result = await login({
      baseUrl: service.url,
      clientId: DESKTOP_CLIENT_ID,
      scopes: ['agents:read'],
      registeredPorts: [registered],
      openBrowser: async (url) => {
        port = Number(new URL(new URL(url).searchParams.get('redirect_uri')!).port);
        await walkSignIn(url, account);
      },
    });
    expect(result.ok).toBe(true);
    expect(port).toBe(registered);
  });

  it('reports a declined consent as "You declined access."', async () => {
    let browsing: Promise<{ url: string; response: PlainResponse }[]> | undefined;
    const result = await login({
      baseUrl: service.url,
      clientId: THIRD_PARTY,
      scopes: ['profile'],
      openBrowser: (url) => {
        browsing = walkSignIn(url, { ...account, decision: 'deny' });
      },
    });
    expect(result).toEqual({ ok: false, error: { code: 'access_denied', message: 'You declined access.' } });
    const hops = await browsing!;
    expect(new URL(hops.at(-1)!.url).pathname).toBe('/sign-in-failed');
    expect(hops.at(-1)!.response.body).toContain('You declined access.');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
