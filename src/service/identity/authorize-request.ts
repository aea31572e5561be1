import { CODE_CHALLENGE } from './authorization-codes';
import type { ClientStore, OAuthClient } from './clients';
import { narrowScopes, type Scope } from './scopes';

/** A checked authorization request. */
export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Requested scopes narrowed to the client's ceiling. */
  scopes: Scope[];
  /** The parameters as received, to carry through the sign-in and consent forms. */
  params: Record<string, string>;
}

export type AuthorizeCheck =
  /** Unknown client or redirect URI not registered: show a page, never redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'page'; title: string; sentence: string }
  /** Anything else: redirect back with `error` (and `state` when there is one). */
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: string; description: string }
  | { kind: 'ok'; request: AuthorizeRequest };

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

/**
 * `repeated` names parameters given more than once (RFC 6749 §3.1 forbids it): a repeated `client_id` or
 * `redirect_uri` leaves no address to trust, so it is a page; any other is `invalid_request` sent back.
 */
export async function checkAuthorizeRequest(
  clients: ClientStore,
  input: Record<string, string | undefined>,
  repeated: readonly string[] = [],
): Promise<AuthorizeCheck> {
  const ambiguous = repeated.find((name) => name === 'client_id' || name === 'redirect_uri');
  if (ambiguous) {
    return {
      kind: 'page',
      title: 'Ambiguous request',
      sentence: `The parameter ${ambiguous} is given more than once, so you are not sent anywhere.`,
    };
  }
  const client = input.client_id ? await clients.find(input.client_id) : null;
  if (!client) {
    return {
      kind: 'page',
      title: 'Unknown application',
      sentence: 'The application asking to sign you in is not registered here.',
    };
  }
  const redirectUri = input.redirect_uri;
  if (!redirectUri || !clients.redirectAllowed(client, redirectUri)) {
    return {
      kind: 'page',
      title: 'Wrong return address',
      sentence: `The return address given by ${client.name} is not one it registered, so you are not sent there.`,
    };
  }
  const state = input.state || undefined;
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    redirectUri,
    state,
    error,
    description,
  });
  const twice = repeated.find((name) => (PARAMS as readonly string[]).includes(name));
  if (twice) return fail('invalid_request', `${twice} is given more than once.`);
  if (input.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be "code".');
  if (!state) return fail('invalid_request', 'state is required.');
  if (input.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be "S256".');
  if (!input.code_challenge || !CODE_CHALLENGE.test(input.code_challenge)) {
    return fail('invalid_request', 'code_challenge must be BASE64URL(SHA256(code_verifier)).');
  }
  const params: Record<string, string> = {};
  for (const name of PARAMS) {
    const value = input[name];
    if (value !== undefined) params[name] = value;
  }
  return {
    kind: 'ok',
    request: {
      client,
      redirectUri,
      state,
      codeChallenge: input.code_challenge,
      scopes: narrowScopes(input.scope, client.scopes),
      params,
    },
  };
}

/** `redirect_uri` with `params` added to its query (existing query parameters kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
