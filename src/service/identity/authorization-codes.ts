import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { throttled } from '../db/throttle';
import { randomSecret, safeEqual, sha256Hex } from '../security/token-hash';

/** Authorization codes are single use and live 60 s. */
export const CODE_LIFETIME_MS = 60_000;

export interface IssuedCode {
  clientId: string;
  personId: string;
  redirectUri: string;
  scope: string;
  familyId: string;
}

interface CodeRow {
  client_id: string;
  person_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  family_id: string;
  expires_at: number;
  used_at: number | null;
}

export type RedeemResult =
  | { ok: true; grant: IssuedCode }
  /** `reused` tells the caller to revoke what the code already issued. */
  | { ok: false; reusedFamily?: string };

export function createCodeStore(db: ServiceDatabase, clock: Clock) {
  const insert = prepare(
    db,
    `INSERT INTO authorization_codes
       (code_hash, client_id, person_id, redirect_uri, scope, code_challenge, family_id, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = prepare(db, 'SELECT * FROM authorization_codes WHERE code_hash = ?');
  const markUsed = prepare(
    db,
    'UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL',
  );
  const purgeStmt = prepare(db, 'DELETE FROM authorization_codes WHERE expires_at < ?');
  // Expired codes are useless after a day even for reuse detection; sweep them now and then.
  const purge = throttled(clock, 60_000, () => purgeStmt.run(clock.now() - 86_400_000));

  return {
    async issue(input: Omit<IssuedCode, 'familyId'> & { codeChallenge: string }): Promise<string> {
      const code = randomSecret();
      await purge();
      await insert.run(
        sha256Hex(code),
        input.clientId,
        input.personId,
        input.redirectUri,
        input.scope,
        input.codeChallenge,
        randomUUID(),
        clock.now() + CODE_LIFETIME_MS,
      );
      return code;
    },
    /** Checks everything the token endpoint must check; every failure looks the same to the caller. */
    async redeem(
      code: string,
      clientId: string,
      redirectUri: string | undefined,
      verifier: string | undefined,
    ): Promise<RedeemResult> {
      const hash = sha256Hex(code);
      const row = (await select.get(hash)) as CodeRow | undefined;
      if (!row || row.client_id !== clientId) return { ok: false };
      if (row.used_at !== null) return { ok: false, reusedFamily: row.family_id };
      // Mark used before any other check: a code is spent by its first presentation.
      if ((await markUsed.run(clock.now(), hash)).changes !== 1)
        return { ok: false, reusedFamily: row.family_id };
      if (clock.now() >= row.expires_at) return { ok: false };
      if (redirectUri === undefined || redirectUri !== row.redirect_uri) return { ok: false };
      if (verifier === undefined || !verifierMatches(verifier, row.code_challenge)) return { ok: false };
      return {
        ok: true,
        grant: {
          clientId: row.client_id,
          personId: row.person_id,
          redirectUri: row.redirect_uri,
          scope: row.scope,
          familyId: row.family_id,
        },
      };
    },
  };
}

export type CodeStore = ReturnType<typeof createCodeStore>;

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** PKCE S256 (RFC 7636 §4.6). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return safeEqual(computed, challenge);
}
