import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { Clock } from '../clock';
import { PAGE_HEADERS, layout } from '../pages/layout';
import { errorPage } from '../pages/error-page';
import { safeEqual, sha256Hex } from '../security/token-hash';

/**
 * A small OAuth 2.0 provider of our own, on its own loopback port (a different origin from the service),
 * so the demo connector makes the same browser round trip a real provider does: authorize → consent
 * page → redirect with `code` → token exchange (PKCE) → and, on disconnect, revocation. It keeps its
 * state in memory: a restart forgets its grants, as a real provider's outage would not, but that is
 * enough for a demo with no network.
 */
export interface DemoProvider {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  /** `GET` with the bearer: `{sub, nombre}`, or 401 once revoked. */
  userinfoEndpoint: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
}

const CODE_TTL_MS = 60_000;
const TOKEN_TTL_S = 3600;

export async function startDemoProvider(clock: Clock): Promise<DemoProvider> {
  const clientId = 'agentdesk-local-service';
  const clientSecret = randomBytes(24).toString('base64url');
  const codes = new Map<string, PendingCode>();
  /** Live tokens by hash; revocation deletes both tokens of the grant. */
  const tokens = new Map<string, { grant: string; kind: 'access' | 'refresh'; expiresAt: number }>();
  /** One CSRF value per consent page shown, single use, so another site cannot post a consent. */
  const consents = new Map<string, number>();
  const app = new Hono();

  const checkClient = (id: string | undefined, secret: string | undefined) =>
    id === clientId && typeof secret === 'string' && safeEqual(secret, clientSecret);

  app.get('/authorize', (c) => {
    const q = c.req.query();
    if (q['client_id'] !== clientId || !q['redirect_uri']) {
      return c.html(
        errorPage('Unknown application', 'This demo provider does not know that application.'),
        400,
        PAGE_HEADERS,
      );
    }
    if (
      q['response_type'] !== 'code' ||
      q['code_challenge_method'] !== 'S256' ||
      !q['code_challenge'] ||
      !q['state']
    ) {
      return c.html(errorPage('Bad request', 'The authorization request is incomplete.'), 400, PAGE_HEADERS);
    }
    const csrf = randomBytes(16).toString('base64url');
    consents.set(csrf, clock.now() + 10 * 60_000);
    const fields = {
      redirect_uri: q['redirect_uri'],
      state: q['state'],
      code_challenge: q['code_challenge'],
      scope: q['scope'] ?? 'demo.read',
    };
    return c.html(
      layout(
        'Demo provider',
        html`<h1>Connect the demo provider to AgentDesk?</h1>
          <p>
            This is the local demo provider built into the AgentDesk service. Allowing it lets AgentDesk read
            your demo data (<code>${fields.scope}</code>).
          </p>
          <form method="post" action="/authorize">
            <input type="hidden" name="csrf" value="${csrf}" />
            ${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
            <button type="submit" name="decision" value="allow">Allow</button>
            <button type="submit" name="decision" value="deny">Deny</button>
          </form>`,
      ),
      200,
      PAGE_HEADERS,
    );
  });

  app.post('/authorize', async (c) => {
    const form = await c.req.parseBody();
    const get = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const csrfExpiry = consents.get(get('csrf'));
    consents.delete(get('csrf'));
    if (!csrfExpiry || csrfExpiry <= clock.now() || !get('redirect_uri') || !get('state')) {
      return c.html(errorPage('Bad request', 'The consent form is incomplete or stale.'), 400, PAGE_HEADERS);
    }
    const target = new URL(get('redirect_uri'));
    target.searchParams.set('state', get('state'));
    target.searchParams.set('iss', issuer);
    if (get('decision') !== 'allow') {
      target.searchParams.set('error', 'access_denied');
      return c.redirect(target.toString(), 302);
    }
    const code = randomBytes(24).toString('base64url');
    codes.set(sha256Hex(code), {
      redirectUri: get('redirect_uri'),
      codeChallenge: get('code_challenge'),
      scope: get('scope'),
      expiresAt: clock.now() + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
    return c.redirect(target.toString(), 302);
  });

  app.post('/token', async (c) => {
    const form = await c.req.parseBody();
    const get = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
    if (!checkClient(get('client_id'), get('client_secret'))) return c.json({ error: 'invalid_client' }, 401);
    if (get('grant_type') !== 'authorization_code') return c.json({ error: 'unsupported_grant_type' }, 400);
    const key = sha256Hex(get('code') ?? '');
    const pending = codes.get(key);
    codes.delete(key);
    const verifier = get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      !pending ||
      pending.expiresAt <= clock.now() ||
      pending.redirectUri !== get('redirect_uri') ||
      !safeEqual(challenge, pending.codeChallenge)
    ) {
      return c.json({ error: 'invalid_grant' }, 400);
    }
    const grant = randomBytes(8).toString('hex');
    const access = randomBytes(32).toString('base64url');
    const refresh = randomBytes(32).toString('base64url');
    tokens.set(sha256Hex(access), { grant, kind: 'access', expiresAt: clock.now() + TOKEN_TTL_S * 1000 });
    tokens.set(sha256Hex(refresh), { grant, kind: 'refresh', expiresAt: Number.MAX_SAFE_INTEGER });
    return c.json(
      {
        access_token: access,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_S,
        refresh_token: refresh,
        scope: pending.scope,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });

  // RFC 7009: 200 whether or not the token was known; the whole grant goes.
  app.post('/revoke', async (c) => {
    const form = await c.req.parseBody();
    const get = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
    if (!checkClient(get('client_id'), get('client_secret'))) return c.json({ error: 'invalid_client' }, 401);
    const found = tokens.get(sha256Hex(get('token') ?? ''));
    if (found) for (const [hash, t] of tokens) if (t.grant === found.grant) tokens.delete(hash);
    return c.body(null, 200);
  });

  app.get('/userinfo', (c) => {
    const token = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    const found = tokens.get(sha256Hex(token));
    if (!found || found.kind !== 'access' || found.expiresAt <= clock.now()) {
      return c.json({ error: 'invalid_token' }, 401);
    }
    return c.json({ sub: `demo-${found.grant}`, nombre: 'Demo account' });
  });

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    authorizationEndpoint: `${issuer}/authorize`,
    tokenEndpoint: `${issuer}/token`,
    revocationEndpoint: `${issuer}/revoke`,
    userinfoEndpoint: `${issuer}/userinfo`,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
