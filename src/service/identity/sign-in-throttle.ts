import type { Clock } from '../clock';

/** Failures allowed at full speed before each further attempt must wait. */
const FREE_FAILURES = { account: 5, address: 20 } as const;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60_000;
/** A key with no failure for this long is forgotten. */
const FORGET_AFTER_MS = 24 * 3600_000;

interface Failures {
  count: number;
  /** No attempt under this key is checked before this time. */
  waitUntil: number;
  last: number;
}

export type ThrottleCheck = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Slows down password guessing (OWASP ASVS 2.2.1): per account and per client address, failures beyond a few
 * make every next attempt wait, doubling up to 15 minutes. While waiting, attempts are refused unchecked, so
 * even the right password waits; once the delay passes, the right password works and clears its account.
 * Kept in memory: a restart forgets it, which only gives a guesser back a handful of tries.
 */
export function createSignInThrottle(clock: Clock) {
  const failures = new Map<string, Failures>();
  const keys = (email: string, address: string) => [
    { key: `account:${email.trim().toLowerCase()}`, free: FREE_FAILURES.account },
    { key: `address:${address}`, free: FREE_FAILURES.address },
  ];

  function forgetOld(now: number): void {
    for (const [key, entry] of failures) if (now - entry.last > FORGET_AFTER_MS) failures.delete(key);
  }

  return {
    /** Whether an attempt for this account from this address may be checked now. */
    check(email: string, address: string): ThrottleCheck {
      const now = clock.now();
      let wait = 0;
      for (const { key } of keys(email, address)) {
        const entry = failures.get(key);
        if (entry && entry.waitUntil > now) wait = Math.max(wait, entry.waitUntil - now);
      }
      return wait > 0 ? { ok: false, retryAfterMs: wait } : { ok: true };
    },
    failed(email: string, address: string): void {
      const now = clock.now();
      forgetOld(now);
      for (const { key, free } of keys(email, address)) {
        const entry = failures.get(key) ?? { count: 0, waitUntil: 0, last: now };
        entry.count += 1;
        entry.last = now;
        const over = entry.count - free;
        if (over > 0) entry.waitUntil = now + Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (over - 1));
        failures.set(key, entry);
      }
    },
    /** The right password: its account starts afresh (the address keeps its count against spraying). */
    succeeded(email: string): void {
      failures.delete(`account:${email.trim().toLowerCase()}`);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
