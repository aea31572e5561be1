import { randomBytes } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: far beyond the 128 bits the slug must resist guessing with. */
export function newShareSlug(): string {
  return randomBytes(32).toString('base64url');
}

const SLUG = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeShareSlug(value: string): boolean {
  return SLUG.test(value);
}
