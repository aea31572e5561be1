import { err, ok } from '../common/result';
import type { Result } from '../common/result';
import type { AccessTokenSource, SessionError } from './access-token-source';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import { refreshTokens, revokeToken } from './pkce';
import type { AuthError, OAuthClientConfig, TokenSet } from './pkce';
import { rememberSecret } from '../log/redact';
import type { SecretStore } from './secret-store';

/**
 * Holds one profile's tokens. Invariants:
 * - at most one refresh request is in flight; every caller waiting for a token shares it;
 * - a rotated refresh token reaches the secret store before the new access token is handed out;
 * - `invalid_grant` on refresh (expired, revoked, or a reused rotated token) signs the person out;
 * - without a refresh token (the server need not issue one), an expired access token signs the person out;
 * - the token is refreshed when either clock says it is due: the wall clock (its `expiresAt`, kept across
 *   restarts; a day forward, or a machine waking from sleep) or the monotonic one (its life counted from
 *   when it came, so a clock set back an hour does not keep an expired token an hour longer).
 */

export type TokenManagerEvent =
  | { type: 'signed-in'; scopes: string[] }
  | { type: 'refreshed' }
  | { type: 'signed-out'; reason: 'user' | 'session_ended'; message: string }
  /** The secret store failed; tokens are only in memory until the next sign-in. */
  | { type: 'storage-warning'; message: string };

export interface TokenManagerOptions {
  store: SecretStore;
  /** The store key for this profile's tokens, e.g. `tokens:<profileId>`. */
  key: string;
  /** Service and client used to refresh and revoke. */
  oauth: OAuthClientConfig;
  /** Replaces the refresh call (defaults to the token endpoint via oauth4webapi). */
  refresh?: (refreshToken: string) => Promise<Result<TokenSet, AuthError>>;
  /** Epoch milliseconds; defaults to `oauth.now` or `Date.now`. */
  now?: () => number;
  /** A monotonic clock in milliseconds, for the token's life as a duration; defaults to `performance.now`. */
  monotonic?: () => number;
  /** Refresh this long before the access token expires. Defaults to 60 s. */
  refreshLeewayMs?: number;
  logger?: Logger;
}

export const SIGNED_OUT_MESSAGE = 'You are signed out. Please sign in.';
export const SESSION_ENDED_MESSAGE =
  'Your sign-in has expired or was revoked, so you have been signed out. Please sign in again.';
export const SESSION_EXPIRED_MESSAGE =
  "Your sign-in has expired and this server doesn't renew it, so you have been signed out. Please sign in again.";
const STORAGE_WARNING =
  "AgentDesk couldn't save your sign-in securely. It is kept in memory, so you will need to sign in again after restarting.";

function parseStored(text: string | undefined): TokenSet | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<TokenSet>;
    if (
      typeof value.accessToken === 'string' &&
      (value.refreshToken === undefined || typeof value.refreshToken === 'string') &&
      typeof value.expiresAt === 'number' &&
      Array.isArray(value.scope)
    ) {
      return value as TokenSet;
    }
  } catch {
    // fall through: unreadable entries are treated as absent
  }
  return undefined;
}

export class TokenManager implements AccessTokenSource {
  private tokens: TokenSet | undefined;
  /** When `tokens` expires on the monotonic clock. */
  private expiresAtMonotonic = 0;
  private inflight: Promise<Result<string, SessionError>> | undefined;
  private readonly listeners = new Set<(event: TokenManagerEvent) => void>();
  private readonly now: () => number;
  private readonly monotonic: () => number;
  private readonly leewayMs: number;
  private readonly logger: Logger;
  private readonly refresh: (refreshToken: string) => Promise<Result<TokenSet, AuthError>>;

  private constructor(private readonly options: TokenManagerOptions) {
    this.now = options.now ?? options.oauth.now ?? Date.now;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.leewayMs = options.refreshLeewayMs ?? 60_000;
    this.logger = options.logger ?? silentLogger;
    this.refresh = options.refresh ?? ((refreshToken) => refreshTokens(options.oauth, refreshToken));
  }

  /** Creates a manager and restores tokens saved by an earlier run, if any. */
  static async open(options: TokenManagerOptions): Promise<TokenManager> {
    const manager = new TokenManager(options);
    let stored: string | undefined;
    try {
      stored = await options.store.get(options.key);
    } catch (error) {
      manager.logger.warn(`Could not read saved sign-in (${(error as Error).message}).`);
    }
    manager.keep(parseStored(stored));
    if (manager.tokens) {
      rememberSecret(manager.tokens.accessToken);
      rememberSecret(manager.tokens.refreshToken);
    }
    return manager;
  }

  get signedIn(): boolean {
    return this.tokens !== undefined;
  }

  /** Scopes granted at the last sign-in (frozen in the token). */
  get scopes(): string[] {
    return this.tokens ? [...this.tokens.scope] : [];
  }

  onEvent(listener: (event: TokenManagerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps the tokens from a completed login (stored first, then used). */
  async signIn(tokens: TokenSet): Promise<void> {
    rememberSecret(tokens.accessToken);
    rememberSecret(tokens.refreshToken);
    await this.persist(tokens);
    this.keep(tokens);
    this.emit({ type: 'signed-in', scopes: [...tokens.scope] });
  }

  /** Forgets the tokens here and asks the service to revoke them (best effort). */
  async signOut(): Promise<void> {
    const tokens = this.tokens;
    this.tokens = undefined;
    await this.forget();
    if (tokens) {
      // Revoking the refresh token ends its access tokens too; without one, revoke the access token.
      const revoked = await revokeToken(this.options.oauth, tokens.refreshToken ?? tokens.accessToken);
      if (!revoked.ok) this.logger.warn(`Could not revoke the sign-in: ${revoked.error.message}`);
    }
    this.emit({ type: 'signed-out', reason: 'user', message: 'You signed out.' });
  }

  /** The current access token, refreshed first when it expires within the leeway. */
  async getAccessToken(): Promise<Result<string, SessionError>> {
    const tokens = this.tokens;
    if (!tokens) return err({ code: 'signed_out', message: SIGNED_OUT_MESSAGE });
    const fresh =
      this.now() < tokens.expiresAt - this.leewayMs &&
      this.monotonic() < this.expiresAtMonotonic - this.leewayMs;
    return fresh ? ok(tokens.accessToken) : this.refreshOnce();
  }

  /** Holds `tokens`, their life left by the wall clock now counted on the monotonic one. */
  private keep(tokens: TokenSet | undefined): void {
    this.tokens = tokens;
    if (tokens) this.expiresAtMonotonic = this.monotonic() + (tokens.expiresAt - this.now());
  }

  async handleUnauthorized(rejectedToken: string): Promise<Result<string, SessionError>> {
    const tokens = this.tokens;
    if (!tokens) return err({ code: 'signed_out', message: SIGNED_OUT_MESSAGE });
    // Someone already replaced the rejected token: use theirs instead of refreshing again.
    if (tokens.accessToken !== rejectedToken) return this.getAccessToken();
    return this.refreshOnce();
  }

  private refreshOnce(): Promise<Result<string, SessionError>> {
    this.inflight ??= this.runRefresh().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async runRefresh(): Promise<Result<string, SessionError>> {
    const before = this.tokens;
    if (!before) return err({ code: 'signed_out', message: SIGNED_OUT_MESSAGE });
    if (!before.refreshToken)
      return this.endSession('No refresh token; signed out.', SESSION_EXPIRED_MESSAGE);
    this.logger.debug('Refreshing the access token.');
    const result = await this.refresh(before.refreshToken);
    if (this.tokens !== before) {
      // Signed out or in again while refreshing: the newer state wins.
      return this.tokens
        ? ok(this.tokens.accessToken)
        : err({ code: 'signed_out', message: SIGNED_OUT_MESSAGE });
    }
    if (!result.ok) {
      if (result.error.code === 'invalid_grant') {
        return this.endSession('Refresh token rejected (invalid_grant); signed out.', SESSION_ENDED_MESSAGE);
      }
      return err(result.error);
    }
    // The old refresh token is dead now: store the rotated one before anyone uses the new access token.
    await this.persist(result.value);
    this.keep(result.value);
    this.logger.debug(
      `Access token refreshed; it expires at ${new Date(result.value.expiresAt).toISOString()}.`,
    );
    this.emit({ type: 'refreshed' });
    return ok(result.value.accessToken);
  }

  private async endSession(logLine: string, message: string): Promise<Result<string, SessionError>> {
    this.tokens = undefined;
    await this.forget();
    this.logger.warn(logLine);
    this.emit({ type: 'signed-out', reason: 'session_ended', message });
    return err({ code: 'signed_out', message });
  }

  private async persist(tokens: TokenSet): Promise<void> {
    try {
      await this.options.store.set(this.options.key, JSON.stringify(tokens));
    } catch (error) {
      this.logger.warn(`Could not save tokens (${(error as Error).message}).`);
      // A stale, already rotated refresh token left in the store would revoke the family on next start.
      await this.forget();
      this.emit({ type: 'storage-warning', message: STORAGE_WARNING });
    }
  }

  private async forget(): Promise<void> {
    try {
      await this.options.store.delete(this.options.key);
    } catch (error) {
      this.logger.warn(`Could not delete saved tokens (${(error as Error).message}).`);
    }
  }

  private emit(event: TokenManagerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error('A token event listener failed.', error);
      }
    }
  }
}
