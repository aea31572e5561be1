import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';
import { throttled } from '../db/throttle';
import { randomSecret, sha256Hex } from '../security/token-hash';
import type { TokenCache } from './token-cache';

export const ACCESS_TOKEN_LIFETIME_S = 3600;
export const REFRESH_TOKEN_LIFETIME_MS = 90 * 24 * 3600 * 1000;

/** The token endpoint's success body, exactly as the spec gives it. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Who an access token speaks for. */
export interface AccessGrant {
  personId: string;
  email: string;
  clientId: string;
  scopes: string[];
}

interface TokenRow {
  kind: 'access' | 'refresh';
  family_id: string;
  client_id: string;
  person_id: string;
  email: string;
  scope: string;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

export type RefreshResult = { ok: true; tokens: TokenResponse } | { ok: false };

export function createOAuthTokenStore(db: ServiceDatabase, clock: Clock, cache: TokenCache) {
  const insert = prepare(
    db,
    `INSERT INTO oauth_tokens (token_hash, kind, family_id, client_id, person_id, scope, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // With the person's e-mail (it never changes): the cached grant carries it, so GET /me/agents reads no more.
  const select = prepare(
    db,
    'SELECT t.*, p.email FROM oauth_tokens t JOIN persons p ON p.id = t.person_id WHERE t.token_hash = ?',
  );
  const rotate = prepare(
    db,
    'UPDATE oauth_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL',
  );
  const revokeFamilyStmt = prepare(
    db,
    'UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL',
  );
  const purgeStmt = prepare(db, 'DELETE FROM oauth_tokens WHERE expires_at < ?');
  // Long-dead rows (a day past expiry) no longer help reuse detection; sweep them now and then.
  const purge = throttled(clock, 60_000, () => purgeStmt.run(clock.now() - 86_400_000));

  async function issuePair(
    familyId: string,
    clientId: string,
    personId: string,
    scope: string,
    on: Executor = db,
  ): Promise<TokenResponse> {
    const now = clock.now();
    const access = randomSecret();
    const refresh = randomSecret();
    await insert
      .on(on)
      .run(
        sha256Hex(access),
        'access',
        familyId,
        clientId,
        personId,
        scope,
        now + ACCESS_TOKEN_LIFETIME_S * 1000,
        now,
      );
    await insert
      .on(on)
      .run(
        sha256Hex(refresh),
        'refresh',
        familyId,
        clientId,
        personId,
        scope,
        now + REFRESH_TOKEN_LIFETIME_MS,
        now,
      );
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_S,
      scope,
    };
  }

  /** Inside a transaction (`on`), the caller forgets the cache once it committed. */
  async function revokeFamily(familyId: string, on: Executor = db): Promise<void> {
    await revokeFamilyStmt.on(on).run(clock.now(), familyId);
    if (on === db) cache.forgetAll();
  }

  return {
    issuePair,
    revokeFamily,
    /** Rotates a refresh token. Presenting one that was already rotated revokes its whole family. */
    refresh: async (refreshToken: string, clientId: string): Promise<RefreshResult> => {
      let revoked = false;
      const result = await db.transaction().execute(async (trx): Promise<RefreshResult> => {
        const hash = sha256Hex(refreshToken);
        const row = (await select.on(trx).get(hash)) as TokenRow | undefined;
        if (!row || row.kind !== 'refresh' || row.client_id !== clientId) return { ok: false };
        if (row.revoked_at !== null) return { ok: false };
        // Rotated before, or by a request racing this one (the update waits for it, then finds it rotated).
        if (row.rotated_at !== null || (await rotate.on(trx).run(clock.now(), hash)).changes !== 1) {
          await revokeFamily(row.family_id, trx);
          revoked = true;
          return { ok: false };
        }
        if (clock.now() >= row.expires_at) return { ok: false };
        return {
          ok: true,
          tokens: await issuePair(row.family_id, row.client_id, row.person_id, row.scope, trx),
        };
      });
      if (revoked) cache.forgetAll();
      await purge();
      return result;
    },
    /** A live access token's grant, or null (unknown, expired, revoked). */
    async resolveAccess(token: string): Promise<AccessGrant | null> {
      const hash = sha256Hex(token);
      const known = cache.get<AccessGrant>(hash);
      if (known) return known;
      const readAt = cache.generation();
      const row = (await select.get(hash)) as TokenRow | undefined;
      if (!row || row.kind !== 'access' || row.revoked_at !== null || clock.now() >= row.expires_at)
        return null;
      const grant: AccessGrant = {
        personId: row.person_id,
        email: row.email,
        clientId: row.client_id,
        scopes: row.scope.split(' ').filter(Boolean),
      };
      cache.set(hash, grant, row.expires_at, readAt);
      return grant;
    },
    /** The grant family (one sign-in of one client; it survives refreshes) of a known token, or null. */
    async familyOf(token: string): Promise<string | null> {
      const row = (await select.get(sha256Hex(token))) as TokenRow | undefined;
      return row ? row.family_id : null;
    },
    /** RFC 7009: revoking either token of a grant ends the whole grant. Unknown tokens are ignored. */
    async revoke(token: string, clientId: string): Promise<void> {
      const row = (await select.get(sha256Hex(token))) as TokenRow | undefined;
      if (row && row.client_id === clientId) await revokeFamily(row.family_id);
    },
    newFamilyId: (): string => randomUUID(),
  };
}

export type OAuthTokenStore = ReturnType<typeof createOAuthTokenStore>;
