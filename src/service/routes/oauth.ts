import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  apiRoutes,
  type OAuthErrorCode,
  type ProveedoresResponse,
  type RevokeResult,
  type RouteSpec,
} from '../../shared/api';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { csrfValid, currentSession, ensureSession } from '../http/browser-session';
import { readForm } from '../http/form-body';
import { registerRoute, type RouteHandler } from '../http/register-route';
import { decideAuthorize } from '../identity/authorize-decision';
import { ALL_SCOPES } from '../identity/scopes';
import { consentPage, continuePage } from '../pages/consent-page';
import { errorPage } from '../pages/error-page';
import { PAGE_HEADERS } from '../pages/layout';
import { firstRunPage, signInPage } from '../pages/sign-in-page';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** `/oauth2/*`: authorize (+ consent), token, revoke, providers; and the RFC 8414 metadata document. */
export function oauthRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // On their route entries, unchecked: OAuth answers bad input with its own pages and error shape.
  const on = <R extends RouteSpec>(route: R, handler: RouteHandler<R>) =>
    registerRoute(app, route, handler, { unchecked: true });
  const { identity } = ctx;

  /** Shared by GET (first arrival, after sign-in) and POST (consent answer): the decision as a page or redirect. */
  async function authorize(
    c: Context,
    input: Record<string, string | undefined>,
    decision?: 'allow' | 'deny',
    repeated: readonly string[] = [],
  ): Promise<Response> {
    const session = await currentSession(ctx, c);
    const step = await decideAuthorize(identity, input, session, decision, repeated);
    switch (step.kind) {
      case 'error_page':
        return c.html(errorPage(step.title, step.sentence), 400, PAGE_HEADERS);
      case 'redirect':
        return redirect(c, step.location);
      case 'sign_in': {
        const csrf = (await ensureSession(ctx, c)).csrf;
        const page = step.firstRun
          ? firstRunPage({ csrf, next: step.next })
          : signInPage({ csrf, next: step.next, clientName: step.clientName });
        return c.html(page, 200, PAGE_HEADERS);
      }
      case 'continue':
      case 'consent': {
        const csrf = (session ?? (await ensureSession(ctx, c))).csrf;
        const page =
          step.kind === 'consent' ? consentPage({ csrf, ...step }) : continuePage({ csrf, ...step });
        return c.html(page, 200, PAGE_HEADERS);
      }
    }
  }

  on(apiRoutes.authorize, (c) => {
    const repeated = Object.entries(c.req.queries())
      .filter(([, values]) => values.length > 1)
      .map(([name]) => name);
    return authorize(c, c.req.query(), undefined, repeated);
  });

  // The consent page's form: a page of ours, not a route of the API.
  app.post(apiRoutes.authorize.path, async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok) return c.html(errorPage('Bad form', form.detail), 400, PAGE_HEADERS);
    const { csrf, decision, ...params } = form.fields;
    if (!csrfValid(await currentSession(ctx, c), csrf)) {
      return c.html(
        errorPage('This form has expired', 'Start again from the application that sent you here.'),
        400,
        PAGE_HEADERS,
      );
    }
    return authorize(c, params, decision === 'allow' ? 'allow' : 'deny');
  });

  on(apiRoutes.token, async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok) return oauthError(c, 400, 'invalid_request', form.detail);
    const fields = form.fields;

    const basic = parseBasic(c.req.header('Authorization'));
    if (basic === 'malformed')
      return oauthError(c, 401, 'invalid_client', 'The Basic credentials are malformed.');
    if (basic && fields.client_secret !== undefined) {
      return oauthError(c, 400, 'invalid_request', 'Use one client authentication method, not two.');
    }
    if (basic && fields.client_id !== undefined && fields.client_id !== basic.id) {
      return oauthError(c, 400, 'invalid_request', 'client_id differs from the Basic credentials.');
    }
    const clientId = basic ? basic.id : fields.client_id;
    const secret = basic ? basic.secret : fields.client_secret;
    const client = clientId ? await identity.clients.authenticate(clientId, secret) : null;
    if (!client) return oauthError(c, 401, 'invalid_client', 'Unknown client or wrong client credentials.');

    const grantType = fields.grant_type;
    if (!grantType) return oauthError(c, 400, 'invalid_request', 'grant_type is required.');

    if (grantType === 'authorization_code') {
      if (!fields.code) return oauthError(c, 400, 'invalid_request', 'code is required.');
      const result = await identity.codes.redeem(
        fields.code,
        client.id,
        fields.redirect_uri,
        fields.code_verifier,
      );
      if (!result.ok) {
        // A code presented twice: whatever the first presentation issued is revoked too.
        if (result.reusedFamily) await identity.tokens.revokeFamily(result.reusedFamily);
        return oauthError(c, 400, 'invalid_grant', INVALID_GRANT);
      }
      const { grant } = result;
      return c.json(
        await identity.tokens.issuePair(grant.familyId, grant.clientId, grant.personId, grant.scope),
        200,
        NO_STORE,
      );
    }
    if (grantType === 'refresh_token') {
      if (!fields.refresh_token) return oauthError(c, 400, 'invalid_request', 'refresh_token is required.');
      const result = await identity.tokens.refresh(fields.refresh_token, client.id);
      if (!result.ok) return oauthError(c, 400, 'invalid_grant', INVALID_GRANT);
      return c.json(result.tokens, 200, NO_STORE);
    }
    return oauthError(
      c,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token.',
    );
  });

  /** RFC 7009 and the spec: always 200, whatever the token or client; a matching client's token is revoked. */
  on(apiRoutes.revoke, async (c) => {
    const form = await readForm(c.req.raw);
    if (form.ok) {
      const basic = parseBasic(c.req.header('Authorization'));
      const fields = form.fields;
      const clientId = basic && basic !== 'malformed' ? basic.id : fields.client_id;
      const secret = basic && basic !== 'malformed' ? basic.secret : fields.client_secret;
      const client = clientId ? await identity.clients.authenticate(clientId, secret) : null;
      if (client && fields.token) await identity.tokens.revoke(fields.token, client.id);
    }
    const body: RevokeResult = {};
    return c.json(body, 200, NO_STORE);
  });

  /** Only e-mail and password here; an identity provider would add an `oidc` entry. */
  on(apiRoutes.listLoginProviders, (c) => {
    const body: ProveedoresResponse = {
      proveedores: [{ id: 'email', nombre: 'E-mail and password', tipo: 'password' }],
    };
    return c.json(body, 200, NO_STORE);
  });

  /** RFC 8414 metadata, so OAuth libraries can discover the endpoints. */
  on(apiRoutes.oauthServerMetadata, (c) => {
    const issuer = ctx.baseUrl; // from the service's own address, never from the request's Host
    return c.json(
      {
        issuer,
        authorization_endpoint: `${issuer}${apiRoutes.authorize.path}`,
        token_endpoint: `${issuer}${apiRoutes.token.path}`,
        revocation_endpoint: `${issuer}${apiRoutes.revoke.path}`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        scopes_supported: ALL_SCOPES,
      },
      200,
      NO_STORE,
    );
  });

  return app;
}

/** The cause is deliberately not told apart (spec, "Errors"). */
const INVALID_GRANT = 'The grant is invalid, expired, already used, or does not match this request.';

function oauthError(c: Context, status: 400 | 401, error: OAuthErrorCode, description: string): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="agentdesk"';
  return c.json({ error, error_description: description }, status, headers);
}

function redirect(c: Context, location: string): Response {
  return c.body(null, 302, {
    Location: location,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
}

/** `Authorization: Basic` client credentials (RFC 6749 §2.3.1: both parts form-urlencoded). */
function parseBasic(header: string | undefined): { id: string; secret: string } | 'malformed' | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return 'malformed';
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}
