import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLogin } from '../../../../src/core/auth/login-flow';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  DESKTOP_CLIENT_ID,
  ensurePerson,
  startTestService,
  type TestService,
} from '../../../support/local-service';
import { walkSignIn } from '../support/browser-walk';
import { httpGet } from '../support/http-get';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// The real local service and the real loopback listener; the browser is plain HTTP requests. Another page or
// process on this computer can reach the listener too: its stray callback must not end the sign-in.
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  await ensurePerson(service);
});
afterAll(() => service.cleanup());

describe('a stray request to the loopback listener', () => {
  it('is refused and the person still finishes signing in', async () => {
    const stray: number[] = [];
    const attempt = startLogin({
      baseUrl: service.url,
      clientId: DESKTOP_CLIENT_ID,
      scopes: ['profile', 'agents:read'],
      openBrowser: async (url) => {
        const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        for (const query of ['?code=x&state=guessed', '?code=x', '?error=access_denied&state=nope']) {
          stray.push((await httpGet(`${redirectUri}${query}`)).status);
        }
        void walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD });
      },
    });
    const result = await attempt.result;
    expect(stray).toEqual([400, 400, 400]);
    expect(result.ok).toBe(true);
    await attempt.closed;
  });
});
