import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { throttled } from '../db/throttle';
import { sha256Hex } from '../security/token-hash';

/** Tuning from config.json's `signInThrottle`; the defaults suit a service on the internet. */
export interface SignInThrottleConfig {
  /** Failures per account allowed at full speed (per address: four times as many). Default 5. */
  freeFailures?: number;
  /** The first wait once they are used up, doubling after each further failure. Default 1. */
  firstDelaySeconds?: number;
}

const MAX_DELAY_MS = 15 * 60_000;
/** A key with no failure for this long starts afresh, and its row is purged. */
const FORGET_AFTER_MS = 24 * 3600_000;

export type ThrottleCheck = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Slows down password guessing (OWASP ASVS 2.2.1): per account and per client address, failures beyond a few
 * make every next attempt wait, doubling up to 15 minutes. While waiting, attempts are refused unchecked, so
 * even the right password waits; once the delay passes, the right password works and clears its account.
 * Kept in the database (keys hashed), so a restart forgets nothing and every process on it shares the count;
 * each change is one statement, atomic against another process's.
 * The waits are instants of the wall clock (every process shares them), so a clock moved back would
 * stretch one by the jump: a wait further off than its count asks is brought back to that (issue 38).
 */
export function createSignInThrottle(db: ServiceDatabase, clock: Clock, config: SignInThrottleConfig = {}) {
  const freeAccount = positive(config.freeFailures, 5);
  const firstDelayMs = positive(config.firstDelaySeconds, 1) * 1000;
  const keys = (email: string, address: string) => [
    { key: sha256Hex(`account:${email.trim().toLowerCase()}`), free: freeAccount },
    { key: sha256Hex(`address:${address}`), free: freeAccount * 4 },
  ];
  const delayFor = (over: number) => Math.min(MAX_DELAY_MS, firstDelayMs * 2 ** Math.min(over - 1, 30));
  const waitsOf = prepare(
    db,
    'SELECT key_hash, failures, wait_until FROM sign_in_failures WHERE key_hash IN (?, ?) AND wait_until > ?',
  );
  // A row idle for FORGET_AFTER_MS counts from 1 again, even before the purge removes it.
  const count = prepare(
    db,
    `INSERT INTO sign_in_failures (key_hash, failures, wait_until, last_at) VALUES (?, 1, 0, ?)
     ON CONFLICT (key_hash) DO UPDATE SET
       failures = CASE WHEN sign_in_failures.last_at < ? THEN 1 ELSE sign_in_failures.failures + 1 END,
       last_at = excluded.last_at
     RETURNING failures`,
  );
  // Two processes counting at once each set the wait their own count asks; the longer one stays.
  const setWait = prepare(
    db,
    'UPDATE sign_in_failures SET wait_until = ? WHERE key_hash = ? AND wait_until < ?',
  );
  const shortenWait = prepare(
    db,
    'UPDATE sign_in_failures SET wait_until = ? WHERE key_hash = ? AND wait_until > ?',
  );
  const forget = prepare(db, 'DELETE FROM sign_in_failures WHERE key_hash = ?');
  const purgeStmt = prepare(db, 'DELETE FROM sign_in_failures WHERE last_at < ?');
  const purge = throttled(clock, 60_000, () => purgeStmt.run(clock.now() - FORGET_AFTER_MS));

  return {
    /** Whether an attempt for this account from this address may be checked now. */
    async check(email: string, address: string): Promise<ThrottleCheck> {
      const now = clock.now();
      const [account, client] = keys(email, address);
      const free = new Map([account!, client!].map(({ key, free }) => [key, free]));
      const rows = (await waitsOf.all(account!.key, client!.key, now)) as {
        key_hash: string;
        failures: number;
        wait_until: number;
      }[];
      let until = now;
      for (const row of rows) {
        // Longer than its own count asks: set before the clock went back. It runs from now instead.
        const longest = now + delayFor(Math.max(1, row.failures - (free.get(row.key_hash) ?? 0)));
        if (row.wait_until > longest) await shortenWait.run(longest, row.key_hash, longest);
        until = Math.max(until, Math.min(row.wait_until, longest));
      }
      return until > now ? { ok: false, retryAfterMs: until - now } : { ok: true };
    },
    async failed(email: string, address: string): Promise<void> {
      const now = clock.now();
      await purge();
      for (const { key, free } of keys(email, address)) {
        const { failures } = (await count.get(key, now, now - FORGET_AFTER_MS)) as { failures: number };
        const over = failures - free;
        if (over <= 0) continue;
        const until = now + delayFor(over);
        await setWait.run(until, key, until);
      }
    },
    /** The right password: its account starts afresh (the address keeps its count against spraying). */
    async succeeded(email: string): Promise<void> {
      await forget.run(keys(email, '')[0]!.key);
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
