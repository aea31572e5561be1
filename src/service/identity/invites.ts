import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { randomSecret, sha256Hex } from '../security/token-hash';

/** How long an invitation can be used, unless `invite add --days` says otherwise. */
export const INVITE_LIFETIME_DAYS = 7;

/**
 * `invite add --days`: a whole number of days from 1 to 365, written in digits (Number() alone would also take
 * "", " 2", "1e2" and "0x10"); absent, the default. Null for anything else.
 */
export function inviteLifetimeDays(raw: string | undefined): number | null {
  if (raw === undefined) return INVITE_LIFETIME_DAYS;
  const days = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  return days >= 1 && days <= 365 ? days : null;
}

export interface Invite {
  email: string;
  expiresAt: number;
}

/**
 * One-time invitations to create an account on a public server, where no one may sign up alone. The code is
 * handed out as a link; only its hash is stored.
 */
export function createInviteStore(db: ServiceDatabase, clock: Clock) {
  const insert = prepare(
    db,
    'INSERT INTO invites (code_hash, email, expires_at, created_at) VALUES (?, ?, ?, ?)',
  );
  const select = prepare(
    db,
    'SELECT email, expires_at FROM invites WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
  );
  const take = prepare(
    db,
    'UPDATE invites SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
  );
  const giveBack = prepare(db, 'UPDATE invites SET used_at = NULL WHERE code_hash = ?');

  /** The invitation behind `code`, if it is still unused and unexpired. */
  async function find(code: string | undefined): Promise<Invite | null> {
    if (!code) return null;
    const row = (await select.get(sha256Hex(code), clock.now())) as
      { email: string; expires_at: number } | undefined;
    return row ? { email: row.email, expiresAt: row.expires_at } : null;
  }

  return {
    async create(email: string, lifetimeDays = INVITE_LIFETIME_DAYS): Promise<Invite & { code: string }> {
      const code = randomSecret('inv_');
      const expiresAt = clock.now() + lifetimeDays * 24 * 3600_000;
      await insert.run(sha256Hex(code), email.trim(), expiresAt, clock.now());
      return { code, email: email.trim(), expiresAt };
    },
    find,
    /**
     * Marks the invitation used (one statement, so two tabs cannot both use it) and runs `use`; when `use`
     * reports failure the invitation is usable again.
     */
    async redeem<T extends { ok: boolean }>(
      code: string,
      use: (invite: Invite) => Promise<T>,
    ): Promise<T | null> {
      const invite = await find(code);
      if (!invite || (await take.run(clock.now(), sha256Hex(code), clock.now())).changes !== 1) return null;
      const result = await use(invite);
      if (!result.ok) await giveBack.run(sha256Hex(code));
      return result;
    },
  };
}

export type InviteStore = ReturnType<typeof createInviteStore>;
