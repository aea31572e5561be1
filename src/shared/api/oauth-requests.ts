import { z } from 'zod';
import { Scope } from './common';

/** OAuth request parameters and bodies (authorize, token, revoke), as the spec names them. */

export const AuthorizeQuery = z.object({
  response_type: z.literal('code', { error: 'response_type must be "code"' }),
  client_id: z.string().min(1, { error: 'client_id is required' }),
  redirect_uri: z.string().min(1, { error: 'redirect_uri is required' }),
  /** Space-separated. */
  scope: z.string().optional(),
  state: z.string().min(1, { error: 'state is required' }),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'code_challenge must be BASE64URL(SHA256(code_verifier))' }),
  code_challenge_method: z.literal('S256', { error: 'code_challenge_method must be "S256"' }),
});
export type AuthorizeQuery = z.infer<typeof AuthorizeQuery>;

const ClientCredentials = {
  client_id: z.string().min(1, { error: 'client_id is required' }),
  /** Confidential clients; may also come as `Authorization: Basic`. */
  client_secret: z.string().optional(),
};

export const AuthorizationCodeGrant = z.object({
  grant_type: z.literal('authorization_code'),
  ...ClientCredentials,
  code: z.string().min(1, { error: 'code is required' }),
  redirect_uri: z.string().min(1, { error: 'redirect_uri is required' }),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, { error: 'code_verifier must be 43 to 128 unreserved characters' }),
});
export type AuthorizationCodeGrant = z.infer<typeof AuthorizationCodeGrant>;

export const RefreshTokenGrant = z.object({
  grant_type: z.literal('refresh_token'),
  ...ClientCredentials,
  refresh_token: z.string().min(1, { error: 'refresh_token is required' }),
});
export type RefreshTokenGrant = z.infer<typeof RefreshTokenGrant>;

/** POST /oauth2/token (form-urlencoded). A bad `grant_type` maps to 400 `unsupported_grant_type`. */
export const TokenRequest = z.discriminatedUnion('grant_type', [AuthorizationCodeGrant, RefreshTokenGrant], {
  error: 'grant_type must be "authorization_code" or "refresh_token"',
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const RevokeRequest = z.object({
  token: z.string().min(1, { error: 'token is required' }),
  client_id: z.string().min(1, { error: 'client_id is required' }),
  client_secret: z.string().optional(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});
export type RevokeRequest = z.infer<typeof RevokeRequest>;

/** Parses the space-separated `scope` string, keeping only known scopes (unknown ones are dropped). */
export function parseScopes(scope: string | undefined): Scope[] {
  if (!scope) return [];
  const known = new Set<string>(Scope.options);
  return [...new Set(scope.split(' ').filter((s) => known.has(s)))] as Scope[];
}
