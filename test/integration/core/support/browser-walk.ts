import { CookieBrowser, hiddenField, hiddenFields } from '../../../support/local-service';
import type { PlainResponse } from './http-get';
import { followRedirects } from './http-get';

export interface WalkOptions {
  email: string;
  password: string;
  /** Answer on the consent page (third-party clients only). */
  decision?: 'allow' | 'deny';
}

/**
 * The browser step of a sign-in done with plain HTTP: opens the authorize URL on the service,
 * fills the sign-in form, answers consent if asked, and follows the redirect to the app's
 * loopback listener and on to the done page, as a browser would. Returns the hops after
 * leaving the service.
 */
export async function walkSignIn(
  authorizeUrl: string,
  options: WalkOptions,
): Promise<{ url: string; response: PlainResponse }[]> {
  const url = new URL(authorizeUrl);
  const browser = new CookieBrowser(url.origin);
  let response = await browser.get(url.pathname + url.search);
  for (let step = 0; step < 8; step += 1) {
    if (response.status === 302 || response.status === 303) {
      const location = new URL(response.headers.get('location') ?? '', url.origin);
      if (location.origin !== url.origin) return followRedirects(location.href);
      response = await browser.get(location.pathname + location.search);
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`the service answered ${response.status}: ${html.slice(0, 200)}`);
    if (html.includes('action="/signin"')) {
      response = await browser.post('/signin', {
        csrf: hiddenField(html, 'csrf'),
        next: hiddenField(html, 'next'),
        email: options.email,
        password: options.password,
      });
    } else if (html.includes('action="/oauth2/authorize"')) {
      response = await browser.post('/oauth2/authorize', {
        ...hiddenFields(html),
        decision: options.decision ?? 'allow',
      });
    } else {
      throw new Error(`unexpected page: ${html.slice(0, 200)}`);
    }
  }
  throw new Error('the sign-in walk did not finish');
}
