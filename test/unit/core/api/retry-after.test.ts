import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../../src/core/api/retry-after';

describe('Retry-After', () => {
  it('reads delta seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('10', now)).toBe(10_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter between half and all of each step, capped', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { random: () => 1 }))).toEqual([1000, 2000, 4000, 8000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { random: () => 0 }))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20, { random: () => 1, maxMs: 30_000 })).toBe(30_000);
  });
});
