import type { Clock } from '../clock';

/**
 * How long a validated bearer token is believed without reading the store again. It bounds how late a
 * revocation takes effect in a process that did not make it (another process on the same PostgreSQL, or a
 * change made in the database by hand): the process that revokes forgets at once. docs/security.md.
 */
export const TOKEN_CACHE_MS = 3000;
/** A cap, so tokens presented once each cannot grow the process without bound. */
const MAX_ENTRIES = 10_000;

export interface TokenCache {
  /** What `hash` resolved to a moment ago, while that is still believed; undefined otherwise. */
  get<V>(hash: string): V | undefined;
  /**
   * A live token's grant, kept until `expiresAt` (the token's own end) or the bound, whichever is first.
   * Ignored when a revocation happened since `generation` was read (the grant was read before it).
   */
  set(hash: string, value: unknown, expiresAt: number, generation: number): void;
  /** Read before the store is asked, and given back to `set`. */
  generation(): number;
  /** A token was revoked or its person or agent deleted in this process: nothing cached is believed. */
  forgetAll(): void;
}

/**
 * Validated access tokens (OAuth and `gat_`) by the SHA-256 of the token, so no token is held in plain text.
 * Only good answers are kept: an unknown token always reads the store.
 */
export function createTokenCache(clock: Clock, boundMs: number = TOKEN_CACHE_MS): TokenCache {
  // `at`: when it was read. A clock now before it went back since, and would stretch the bound by the jump.
  const entries = new Map<string, { value: unknown; at: number; until: number }>();
  let generation = 0;
  return {
    get<V>(hash: string): V | undefined {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      const now = clock.now();
      if (now >= entry.at && now < entry.until) return entry.value as V;
      entries.delete(hash);
      return undefined;
    },
    set(hash, value, expiresAt, readAt) {
      if (readAt !== generation) return;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      const now = clock.now();
      entries.set(hash, { value, at: now, until: Math.min(now + boundMs, expiresAt) });
    },
    generation: () => generation,
    forgetAll() {
      generation += 1;
      entries.clear();
    },
  };
}
