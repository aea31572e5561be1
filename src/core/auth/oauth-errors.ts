import * as oauth from 'oauth4webapi';

/** What a sign-in, refresh or revoke failure is, in a code and a plain sentence for the person. */

export type AuthErrorCode =
  | 'invalid_grant'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'oauth_error'
  | 'network'
  | 'cancelled'
  | 'invalid_response'
  | 'server_error';

export interface AuthError {
  code: AuthErrorCode;
  /** A plain sentence for the person. */
  message: string;
  status?: number;
}

/** The server's base URL without a trailing slash: `https://host/tenant/` -> `https://host/tenant`. */
export function serverBase(baseUrl: string): string {
  const base = new URL(baseUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
}

/** The OAuth endpoints under the server's base URL, path included (`https://host/tenant/oauth2/token`). */
const OAUTH_SENTENCES: Record<string, string> = {
  invalid_grant: 'Your sign-in is no longer valid. Please sign in again.',
  invalid_client: "The service doesn't recognise this app (unknown client id).",
  unsupported_grant_type: "The service doesn't support this kind of sign-in.",
};

export function toAuthError(error: unknown, baseUrl: string): AuthError {
  if (error instanceof oauth.ResponseBodyError) {
    const known = OAUTH_SENTENCES[error.error];
    const code = (known ? error.error : 'oauth_error') as AuthErrorCode;
    const message =
      known ?? error.error_description ?? `The service refused the sign-in request (${error.error}).`;
    return { code, message, status: error.status };
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return { code: 'invalid_client', message: OAUTH_SENTENCES.invalid_client!, status: error.status };
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return {
      code: 'network',
      message: `The service at ${serverBase(baseUrl)} did not answer in time.`,
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { code: 'cancelled', message: 'The sign-in request was cancelled.' };
  }
  if (error instanceof oauth.OperationProcessingError) {
    const response = error.cause instanceof Response ? error.cause : undefined;
    if (response && response.status >= 500) {
      return {
        code: 'server_error',
        message: `The service had a problem (HTTP ${response.status}). Try again in a moment.`,
        status: response.status,
      };
    }
    return {
      code: 'invalid_response',
      message: 'The service sent a sign-in response AgentDesk could not read.',
    };
  }
  // What to do next, as the API client's own network error says it.
  return {
    code: 'network',
    message: `Couldn't reach the service at ${serverBase(baseUrl)}. Check the address and that the server is running, then try again.`,
  };
}
