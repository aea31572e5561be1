import { err, ok } from '../common/result';
import type { Result } from '../common/result';

/** Why no usable token could be had: `signed_out` means the person must sign in again. */
export interface SessionError {
  code: 'signed_out' | 'invalid_grant' | 'invalid_client' | 'network' | 'server_error' | string;
  /** A plain sentence for the person. */
  message: string;
}

/**
 * What the API and SSE clients need from whoever holds the tokens: the current bearer,
 * and a fresh one after the service rejected the current one with 401.
 */
export interface AccessTokenSource {
  getAccessToken(): Promise<Result<string, SessionError>>;
  /** Called with the token the service just rejected; returns a newer one or an error. */
  handleUnauthorized(rejectedToken: string): Promise<Result<string, SessionError>>;
}

/** A fixed bearer, e.g. an agent token (`gat_…`), which cannot be refreshed. */
export function staticTokenSource(token: string): AccessTokenSource {
  return {
    getAccessToken: async () => ok(token),
    handleUnauthorized: async () =>
      err({ code: 'signed_out', message: 'The service no longer accepts this token. Create a new one.' }),
  };
}
