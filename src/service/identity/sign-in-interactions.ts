import type { Clock } from '../clock';
import { sha256Hex } from '../security/token-hash';

const LIFETIME_MS = 5 * 60_000;

/**
 * Remembers that the person just typed their password (or created the account) on the way to one authorize
 * request, so that request needs no second click. One use, a few minutes, bound to the browser session.
 * RFC 8252 §8.6: a loopback redirect is approved only after the person's interaction.
 */
export function createSignInInteractions(clock: Clock) {
  const pending = new Map<string, { next: string; expiresAt: number }>();
  return {
    record(sessionSecret: string, next: string): void {
      const now = clock.now();
      for (const [key, entry] of pending) if (entry.expiresAt <= now) pending.delete(key);
      pending.set(sha256Hex(sessionSecret), { next, expiresAt: now + LIFETIME_MS });
    },
    /** True once if the session's recorded sign-in led to exactly this authorize request. */
    consume(sessionSecret: string, next: string): boolean {
      const key = sha256Hex(sessionSecret);
      const entry = pending.get(key);
      if (!entry) return false;
      pending.delete(key);
      return entry.next === next && entry.expiresAt > clock.now();
    },
  };
}

export type SignInInteractions = ReturnType<typeof createSignInInteractions>;
