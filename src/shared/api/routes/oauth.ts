import { OAuthErrorBody } from '../errors';
import { AuthorizeQuery, RevokeRequest, TokenRequest } from '../oauth-requests';
import { ProveedoresResponse, RevokeResult, TokenResponse } from '../responses';
import { defineRoute, FORM_BODY_MAX, ok } from './define-route';

/** OAuth routes (no bearer). */
export const oauthSection = [
  defineRoute(
    {
      operationId: 'authorize',
      method: 'GET',
      path: '/oauth2/authorize',
      tag: 'oauth',
      summary: 'Authorization endpoint (code + PKCE S256)',
      description:
        'Shows sign-in and consent (first-party clients skip consent), then redirects to `redirect_uri` with `code` and `state`; the code is valid 60 s. On invalid parameters (our choice): an unknown `client_id` or an unregistered `redirect_uri` gives a 400 HTML error page and never redirects; any other invalid parameter redirects with `error=invalid_request` (or `unsupported_response_type`, `access_denied`) and `state` (RFC 6749 §4.1.2.1). Loopback redirect URIs on 127.0.0.1 accept any port (our choice, RFC 8252 §7.3).',
      scope: null,
      credential: 'none',
      request: { query: AuthorizeQuery },
      responses: {
        200: ok('The sign-in or consent page.', 'html'),
        302: {
          description: 'Redirect to `redirect_uri` with `code` and `state`, or with `error`.',
          body: 'empty',
          headers: { Location: { description: 'The redirect target.', type: 'string' } },
        },
        400: ok('Unknown client or redirect URI (our choice).', 'html'),
      },
    },
    { readsOwnQuery: true },
  ), // registered unchecked: answers a bad query with a page or a redirect
  defineRoute({
    operationId: 'token',
    method: 'POST',
    path: '/oauth2/token',
    tag: 'oauth',
    summary: 'Token endpoint',
    description:
      '`authorization_code` (with `code`, `redirect_uri` compared exactly, `code_verifier`) or `refresh_token` (rotates on every use; reusing a rotated one revokes the family). Confidential clients send `client_secret` in the body or as `Authorization: Basic`.',
    scope: null,
    credential: 'none',
    request: { body: { kind: 'form', schema: TokenRequest, required: true, maxBytes: FORM_BODY_MAX } },
    responses: {
      200: ok('Tokens.', TokenResponse),
      400: ok('`invalid_grant`, `unsupported_grant_type` or `invalid_request`.', OAuthErrorBody),
      401: ok('`invalid_client`.', OAuthErrorBody),
    },
  }),
  defineRoute({
    operationId: 'revoke',
    method: 'POST',
    path: '/oauth2/revoke',
    tag: 'oauth',
    summary: 'Revoke a token',
    description:
      'Always 200, even if the token does not exist or the form is incomplete; the body is `{}` (our choice). Only a token of the authenticated client is revoked; revoking a refresh token revokes its family (our choice).',
    scope: null,
    credential: 'none',
    request: { body: { kind: 'form', schema: RevokeRequest, required: true, maxBytes: FORM_BODY_MAX } },
    responses: { 200: ok('Done, whatever the token or client.', RevokeResult) },
  }),
  defineRoute({
    operationId: 'listLoginProviders',
    method: 'GET',
    path: '/oauth2/proveedores',
    tag: 'oauth',
    summary: 'List active login providers',
    description:
      'Public. The spec does not show the body; ours is `{proveedores: [{id, nombre, tipo}]}` (our choice).',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('Providers.', ProveedoresResponse) },
  }),
] as const;
