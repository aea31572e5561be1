import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { CookieBrowser, hiddenFields } from './local-service';

/**
 * oidc-provider (a certified OpenID Connect / OAuth 2.0 server nobody here wrote) mounted under a
 * base path, with the API's OAuth route names. Its own development pages do the sign-in (any login
 * and password) and the consent. `refreshTokens: false` is its default for clients that do not ask
 * for `offline_access`: a token response without `refresh_token`.
 */

export const OIDC_CLIENT_ID = 'agentdesk-oidc-test';
export const OIDC_BASE_PATH = '/tenant';

export interface OidcServer {
  /** The server's base URL, path included: what a person types as "Another server". */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startOidcServer(options: { refreshTokens: boolean }): Promise<OidcServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}${OIDC_BASE_PATH}`;
  const provider = new Provider(baseUrl, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        application_type: 'native', // loopback redirect on any port (RFC 8252 §7.3)
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'offline_access', 'profile', 'agents:read', 'agents:write', 'files'],
    routes: { authorization: '/oauth2/authorize', token: '/oauth2/token', revocation: '/oauth2/revoke' },
    features: { revocation: { enabled: true } },
    issueRefreshToken: async () => options.refreshTokens,
    cookies: { keys: ['test-only-cookie-key'] },
  });
  const callback = provider.callback();
  http.on('request', (req: IncomingMessage & { originalUrl?: string }, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(OIDC_BASE_PATH)) return void res.writeHead(404).end('not here');
    // As a mounting framework would: the provider reads its mount path from originalUrl.
    req.originalUrl = url;
    req.url = url.slice(OIDC_BASE_PATH.length) || '/';
    void callback(req, res);
  });
  return {
    baseUrl,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** Follows the provider's pages (sign-in with any login, then consent) until it leaves for the app. */
export async function walkOidcPages(authorizeUrl: string): Promise<void> {
  const url = new URL(authorizeUrl);
  const browser = new CookieBrowser(url.origin);
  let response = await browser.get(url.pathname + url.search);
  for (let step = 0; step < 10; step += 1) {
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', url);
      if (location.origin !== url.origin) {
        await fetch(location.href); // the loopback listener, then the done page
        return;
      }
      response = await browser.get(location.pathname + location.search);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    const fields = hiddenFields(html);
    if (fields.prompt === 'login') Object.assign(fields, { login: 'person', password: 'any' });
    const target = new URL(action.replace(/&amp;/g, '&'), url);
    response = await browser.post(target.pathname + target.search, fields);
  }
  throw new Error('the provider pages did not lead back to the app');
}
