import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_TIMEOUT_MS,
  loadDonePages,
  login,
  sameState,
  startLogin,
} from '../../../../src/core/auth/login-flow';
import type { LoginOptions } from '../../../../src/core/auth/login-flow';
import { followRedirects, httpGet } from '../support/http-get';

/**
 * Sign-in failures that never reach a token endpoint: the "browser" is plain HTTP requests
 * sent to the real loopback listener. (The full sign-in runs against the local service and
 * oidc-provider elsewhere.) The server is a bare HTTP server whose only page is the authorize
 * page under a base path, `/tenant/oauth2/authorize`: the flow loads it once before the browser.
 */

// Stands in for a server's sign-in page; it has no token endpoint, so no test here can get tokens.
const authorizePage = createServer((req, res) => {
  const found = new URL(req.url ?? '/', 'http://x').pathname === '/tenant/oauth2/authorize';
  res.writeHead(found ? 200 : 404, { 'content-type': 'text/html' }).end(found ? '<form></form>' : 'nope');
});
let serverUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => authorizePage.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(authorizePage.address() as AddressInfo).port}/tenant`;
});
afterAll(() => new Promise<void>((resolve) => authorizePage.close(() => resolve())));

const aborts: AbortController[] = [];
afterEach(() => {
  for (const controller of aborts.splice(0)) controller.abort();
});

function options(openBrowser: LoginOptions['openBrowser'], extra: Partial<LoginOptions> = {}): LoginOptions {
  return {
    baseUrl: serverUrl,
    clientId: 'agentdesk-desktop',
    scopes: ['profile', 'agents:read'],
    openBrowser,
    ...extra,
  };
}

describe('login flow failures', () => {
  it('builds an S256 authorize URL with a fresh state and verifier each time', async () => {
    const urls: URL[] = [];
    for (let i = 0; i < 2; i += 1) {
      const controller = new AbortController();
      aborts.push(controller);
      const attempt = startLogin(
        options(
          (url) => {
            urls.push(new URL(url));
            controller.abort();
          },
          { signal: controller.signal },
        ),
      );
      await attempt.result;
      await attempt.closed;
    }
    const [a, b] = urls as [URL, URL];
    // The server's base path is kept.
    expect(a.pathname).toBe('/tenant/oauth2/authorize');
    expect(a.searchParams.get('response_type')).toBe('code');
    expect(a.searchParams.get('client_id')).toBe('agentdesk-desktop');
    expect(a.searchParams.get('code_challenge_method')).toBe('S256');
    expect(a.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.searchParams.get('scope')).toBe('profile agents:read');
    expect(a.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(a.searchParams.get('state')).not.toBe(b.searchParams.get('state'));
    expect(a.searchParams.get('code_challenge')).not.toBe(b.searchParams.get('code_challenge'));
  });

  it.each([
    ['a wrong state', '?code=stolen-code&state=not-the-state'],
    ['no state', '?code=abc'],
  ])('ignores a callback with %s (400) and keeps waiting for the real one', async (_, query) => {
    let browsing: ReturnType<typeof followRedirects> | undefined;
    const attempt = startLogin(
      options((url) => {
        browsing = followRedirects(`${new URL(url).searchParams.get('redirect_uri')}${query}`);
      }),
    );
    const hops = await new Promise<Awaited<NonNullable<typeof browsing>>>((resolve, reject) => {
      const poll = setInterval(() => {
        if (!browsing) return;
        clearInterval(poll);
        browsing.then(resolve, reject);
      }, 5);
    });
    expect(hops.at(-1)!.response.status).toBe(400);
    expect(hops.at(-1)!.response.body).toContain("didn't come from the sign-in AgentDesk started");
    attempt.cancel();
    const result = await attempt.result;
    expect(!result.ok && result.error.code).toBe('cancelled');
    await attempt.closed;
  });

  it('turns error=access_denied into a plain sentence, in the app and in the browser', async () => {
    let browsing: ReturnType<typeof followRedirects> | undefined;
    const attempt = startLogin(
      options((url) => {
        const params = new URL(url).searchParams;
        browsing = followRedirects(
          `${params.get('redirect_uri')}?error=access_denied&state=${encodeURIComponent(params.get('state')!)}`,
        );
      }),
    );
    const result = await attempt.result;
    expect(result).toEqual({ ok: false, error: { code: 'access_denied', message: 'You declined access.' } });
    const hops = await browsing!;
    await attempt.closed;
    expect(hops.map((hop) => hop.response.status)).toEqual([302, 200]);
    expect(new URL(hops[1]!.url).pathname).toBe('/sign-in-failed');
    expect(hops[1]!.response.body).toContain('You declined access.');
  });

  it('uses the error_description for an error it has no sentence for', async () => {
    const result = await login(
      options(async (url) => {
        const params = new URL(url).searchParams;
        await followRedirects(
          `${params.get('redirect_uri')}?error=odd_error&error_description=Something+odd&state=${params.get('state')}`,
        );
      }),
    );
    expect(result).toEqual({ ok: false, error: { code: 'authorization_error', message: 'Something odd' } });
  });

  it('times out when the browser never comes back, and closes the listener', async () => {
    let redirectUri = '';
    const attempt = startLogin(
      options(
        (url) => {
          redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        },
        // Long enough for the listener and the authorize page check on a busy machine.
        { timeoutMs: 2000 },
      ),
    );
    const result = await attempt.result;
    expect(!result.ok && result.error.code).toBe('timeout');
    expect(!result.ok && result.error.message).toMatch(/timed out/);
    await attempt.closed;
    await expect(httpGet(redirectUri)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('can be cancelled through an AbortSignal or cancel()', async () => {
    const controller = new AbortController();
    const viaSignal = startLogin(options(() => controller.abort(), { signal: controller.signal }));
    expect(await viaSignal.result).toEqual({
      ok: false,
      error: { code: 'cancelled', message: 'Sign-in was cancelled.' },
    });
    await viaSignal.closed;

    const viaCancel = startLogin(options(() => viaCancel.cancel()));
    expect(!(await viaCancel.result).ok).toBe(true);
    await viaCancel.closed;
  });

  it('reports a browser that could not be opened', async () => {
    const result = await login(
      options(() => {
        throw new Error('no display');
      }),
    );
    expect(result).toEqual({
      ok: false,
      error: { code: 'browser_failed', message: 'AgentDesk could not open the browser (no display).' },
    });
  });

  it('says at once when the authorize page is missing, and never opens the browser', async () => {
    const opened: string[] = [];
    const started = Date.now();
    const attempt = startLogin(
      options((url) => void opened.push(url), { baseUrl: serverUrl.replace('/tenant', '/elsewhere') }),
    );
    const result = await attempt.result;
    await attempt.closed;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('authorize_failed');
    expect(!result.ok && result.error.message).toContain('/elsewhere/oauth2/authorize (HTTP 404)');
    expect(opened).toEqual([]);
    expect(Date.now() - started).toBeLessThan(LOGIN_TIMEOUT_MS);
  });

  it('says at once when nothing answers at the server address', async () => {
    const result = await login(options(() => undefined, { baseUrl: 'http://127.0.0.1:9/tenant' }));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'authorize_failed',
        message:
          "Couldn't reach the service at http://127.0.0.1:9/tenant. Check the address and that the server is running, then try again.",
      },
    });
  });

  it('compares states in constant time over equal-length digests', () => {
    expect(sameState('abc', 'abc')).toBe(true);
    expect(sameState('abc', 'abd')).toBe(false);
    expect(sameState('abc', 'abcd')).toBe(false);
    expect(sameState('abc', null)).toBe(false);
  });

  it('finds the done pages in resources/', async () => {
    const pages = await loadDonePages();
    expect(pages.signedIn).toMatch(/you can close this tab/i);
    expect(pages.failed).toContain('{{reason}}');
  });
});
