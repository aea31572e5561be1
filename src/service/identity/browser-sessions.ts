import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { throttled } from '../db/throttle';
import { randomSecret, sha256Hex } from '../security/token-hash';

/** Browser sessions of the sign-in, consent and account pages. */
export const SESSION_LIFETIME_MS = 12 * 3600 * 1000;

export interface BrowserSession {
  /** The cookie value; only its hash is stored. */
  secret: string;
  personId: string | null;
  csrf: string;
}

interface SessionRow {
  person_id: string | null;
  csrf: string;
  expires_at: number;
}

export function createBrowserSessionStore(db: ServiceDatabase, clock: Clock) {
  const insert = prepare(
    db,
    'INSERT INTO browser_sessions (id_hash, person_id, csrf, expires_at, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const select = prepare(db, 'SELECT person_id, csrf, expires_at FROM browser_sessions WHERE id_hash = ?');
  const remove = prepare(db, 'DELETE FROM browser_sessions WHERE id_hash = ?');
  const purgeStmt = prepare(db, 'DELETE FROM browser_sessions WHERE expires_at < ?');
  const purge = throttled(clock, 60_000, () => purgeStmt.run(clock.now()));

  return {
    /** A new session; signing in always starts a new one, so a planted cookie never becomes signed in. */
    async create(personId: string | null): Promise<BrowserSession> {
      await purge();
      const session = { secret: randomSecret(), personId, csrf: randomSecret('', 24) };
      await insert.run(
        sha256Hex(session.secret),
        personId,
        session.csrf,
        clock.now() + SESSION_LIFETIME_MS,
        clock.now(),
      );
      return session;
    },
    async find(secret: string | undefined): Promise<BrowserSession | null> {
      if (!secret) return null;
      const row = (await select.get(sha256Hex(secret))) as SessionRow | undefined;
      if (!row || clock.now() >= row.expires_at) return null;
      return { secret, personId: row.person_id, csrf: row.csrf };
    },
    async end(secret: string): Promise<void> {
      await remove.run(sha256Hex(secret));
    },
  };
}

export type BrowserSessionStore = ReturnType<typeof createBrowserSessionStore>;
