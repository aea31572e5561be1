import { expect } from 'vitest';
import type { RunningService } from '../../src/service/index';
import { CookieBrowser, DEFAULT_EMAIL, DEFAULT_PASSWORD, ensurePerson } from './local-service';

/**
 * The person's browser, for tests of the host: given the sign-in address the host opens, it makes
 * sure the default person exists, walks the service's sign-in pages with a cookie-keeping HTTP
 * client, then calls the host's loopback callback as a browser would. It stands in for a real
 * browser, which cannot be driven from these tests. Each returned function keeps its cookie jar,
 * so its later sign-ins go through the live session.
 */
export function personBrowser(
  service: () => Pick<RunningService, 'context'>,
): (url: string) => Promise<void> {
  let browser: CookieBrowser | undefined;
  return async (url) => {
    const authorize = new URL(url);
    await ensurePerson(service());
    browser ??= new CookieBrowser(authorize.origin);
    const redirectUri = authorize.searchParams.get('redirect_uri')!;
    const state = authorize.searchParams.get('state')!;
    const code = await browser.authorize(
      authorize.pathname + authorize.search,
      { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD },
      redirectUri,
      state,
    );
    const done = await fetch(`${redirectUri}?${new URLSearchParams({ code, state })}`);
    expect(await done.text()).toMatch(/signed in/i);
  };
}
