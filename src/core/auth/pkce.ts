import * as oauth from 'oauth4webapi';
import { err, ok } from '../common/result';
import type { FetchLike, Result } from '../common/result';
import { serverBase, toAuthError, type AuthError } from './oauth-errors';
import { oauthEndpointPaths } from './oauth-endpoints';
import { rememberSecret } from '../log/redact';

/**
 * The OAuth 2.0 authorization-code + PKCE (S256) pieces, on oauth4webapi:
 * verifier, challenge, state, the authorize URL, and the token endpoint calls.
 */

export interface OAuthClientConfig {
  /** The service's base URL, e.g. `http://127.0.0.1:8787` or `https://api.example.com`. */
  baseUrl: string;
  /** The public client id (`agentdesk-desktop` on the local service). */
  clientId: string;
  /** Injected transport (Electron's `net.fetch`, a counting wrapper in tests). */
  fetch?: FetchLike;
  /** Epoch milliseconds; injected so expiry can be tested. */
  now?: () => number;
  /** How long a token, refresh or revoke request may wait for the server without a signal of its own. Default 30 s. */
  deadlineMs?: number;
}

/**
 * What the app keeps after signing in. `expiresAt` is epoch milliseconds. `refreshToken` is
 * optional (RFC 6749 §5.1): without it the person signs in again when the access token expires.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
  scope: string[];
}

export type { AuthError, AuthErrorCode } from './oauth-errors';
export { serverBase } from './oauth-errors';

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** A fresh random verifier (43 chars of base64url) and its S256 challenge. */
export async function createPkce(): Promise<PkcePair> {
  const verifier = oauth.generateRandomCodeVerifier();
  rememberSecret(verifier);
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier), method: 'S256' };
}

/** A fresh random `state` value binding the callback to this login attempt. */
export function createState(): string {
  return oauth.generateRandomState();
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLoopback(baseUrl: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(baseUrl).hostname);
}

export function authorizationServer(baseUrl: string): oauth.AuthorizationServer {
  const base = serverBase(baseUrl);
  const at = (path: string): string => new URL(`${base}${path}`).href;
  return {
    // RFC 9207: a server that sends `iss` on the callback names itself by its base URL.
    issuer: base,
    authorization_endpoint: at(oauthEndpointPaths.authorize),
    token_endpoint: at(oauthEndpointPaths.token),
    revocation_endpoint: at(oauthEndpointPaths.revoke),
    code_challenge_methods_supported: ['S256'],
  };
}

function requestOptions(config: OAuthClientConfig, signal?: AbortSignal): oauth.TokenEndpointRequestOptions {
  // A server that never answers must not hold a sign-out or a refresh (and every call behind it) forever.
  const options: oauth.TokenEndpointRequestOptions = {
    signal: signal ?? AbortSignal.timeout(config.deadlineMs ?? 30_000),
  };
  // Plain http is allowed only to this computer (the embedded service); anything else must be https.
  if (isLoopback(config.baseUrl)) options[oauth.allowInsecureRequests] = true;
  const fetchImpl = config.fetch;
  if (fetchImpl) options[oauth.customFetch] = (url, init) => fetchImpl(url, init as RequestInit);
  return options;
}

/**
 * Loads the authorize page once before the browser opens, so a wrong server address (a 404, a
 * server that is down) fails at once instead of after the sign-in timeout. Any 2xx or 3xx is fine:
 * a login page or a redirect to one.
 */
export async function checkAuthorizationEndpoint(
  config: OAuthClientConfig,
  url: URL,
  signal?: AbortSignal,
): Promise<Result<void, AuthError>> {
  const fetchImpl: FetchLike = config.fetch ?? ((input, init) => fetch(input, init));
  let response: Response;
  try {
    response = await fetchImpl(url.href, { redirect: 'manual', ...(signal ? { signal } : {}) });
    await response.body?.cancel();
  } catch (error) {
    return err(toAuthError(error, config.baseUrl));
  }
  if (response.status < 400) return ok(undefined);
  const page = `${url.origin}${url.pathname}`;
  if (response.status >= 500) {
    return err({
      code: 'server_error',
      message: `The server had a problem with its sign-in page ${page} (HTTP ${response.status}). Try again in a moment.`,
      status: response.status,
    });
  }
  return err({
    code: 'oauth_error',
    message: `The server refused its sign-in page ${page} (HTTP ${response.status}). Check the server address, including any path after the host, and the client id.`,
    status: response.status,
  });
}

export interface AuthorizationRequest {
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  challenge: string;
}

export function buildAuthorizationUrl(config: OAuthClientConfig, request: AuthorizationRequest): URL {
  const url = new URL(authorizationServer(config.baseUrl).authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('scope', request.scopes.join(' '));
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', request.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url;
}

const client = (config: OAuthClientConfig): oauth.Client => ({
  client_id: config.clientId,
  token_endpoint_auth_method: 'none',
});

function toTokenSet(
  response: oauth.TokenEndpointResponse,
  now: number,
  previousRefreshToken?: string,
): Result<TokenSet, AuthError> {
  // A server may leave the refresh token out (RFC 6749 §5.1), or keep the old one on refresh.
  const refreshToken = response.refresh_token ?? previousRefreshToken;
  rememberSecret(response.access_token);
  rememberSecret(refreshToken);
  return ok({
    accessToken: response.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: now + (response.expires_in ?? 3600) * 1000,
    scope: (response.scope ?? '').split(' ').filter(Boolean),
  });
}

/** oauth4webapi wants callback parameters it has checked itself; `state` is checked by the caller in constant time. */
export function checkCallbackParameters(
  config: OAuthClientConfig,
  params: URLSearchParams,
): Result<URLSearchParams, { error: string; description?: string }> {
  try {
    return ok(
      oauth.validateAuthResponse(
        authorizationServer(config.baseUrl),
        client(config),
        params,
        oauth.skipStateCheck,
      ),
    );
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      return err({
        error: error.error,
        ...(error.error_description ? { description: error.error_description } : {}),
      });
    }
    return err({
      error: 'invalid_response',
      description: error instanceof Error ? error.message : String(error),
    });
  }
}

export interface CodeExchange {
  /** Parameters returned by `checkCallbackParameters`. */
  callback: URLSearchParams;
  redirectUri: string;
  verifier: string;
  signal?: AbortSignal;
}

/** Trades the authorization code for tokens (the code is valid 60 s, so this runs at once). */
export async function exchangeCode(
  config: OAuthClientConfig,
  exchange: CodeExchange,
): Promise<Result<TokenSet, AuthError>> {
  const as = authorizationServer(config.baseUrl);
  rememberSecret(exchange.callback.get('code'));
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client(config),
      oauth.None(),
      exchange.callback,
      exchange.redirectUri,
      exchange.verifier,
      requestOptions(config, exchange.signal),
    );
    const body = await oauth.processAuthorizationCodeResponse(as, client(config), response);
    return toTokenSet(body, (config.now ?? Date.now)());
  } catch (error) {
    return err(toAuthError(error, config.baseUrl));
  }
}

/** Uses a refresh token once; the answer carries the rotated refresh token. */
export async function refreshTokens(
  config: OAuthClientConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<Result<TokenSet, AuthError>> {
  const as = authorizationServer(config.baseUrl);
  try {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client(config),
      oauth.None(),
      refreshToken,
      requestOptions(config, signal),
    );
    const body = await oauth.processRefreshTokenResponse(as, client(config), response);
    return toTokenSet(body, (config.now ?? Date.now)(), refreshToken);
  } catch (error) {
    return err(toAuthError(error, config.baseUrl));
  }
}

/** Asks the service to forget a token (sign-out). The service answers 200 even for unknown tokens. */
export async function revokeToken(
  config: OAuthClientConfig,
  token: string,
): Promise<Result<void, AuthError>> {
  const as = authorizationServer(config.baseUrl);
  try {
    const response = await oauth.revocationRequest(
      as,
      client(config),
      oauth.None(),
      token,
      requestOptions(config),
    );
    await oauth.processRevocationResponse(response);
    return ok(undefined);
  } catch (error) {
    return err(toAuthError(error, config.baseUrl));
  }
}
