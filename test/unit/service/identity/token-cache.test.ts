import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/clock';
import { createTokenCache, TOKEN_CACHE_MS } from '../../../../src/service/identity/token-cache';

describe('token cache', () => {
  it('believes a grant until the bound, then asks the store again', () => {
    const clock = createTestClock();
    const cache = createTokenCache(clock);
    cache.set('h', { personId: 'p' }, Infinity, cache.generation());
    clock.advance(TOKEN_CACHE_MS - 1);
    expect(cache.get('h')).toEqual({ personId: 'p' });
    clock.advance(1);
    expect(cache.get('h')).toBeUndefined();
  });

  it('asks the store again once the clock went back, rather than believe a grant for the jump’s length', () => {
    const clock = createTestClock();
    const cache = createTokenCache(clock);
    cache.set('h', { personId: 'p' }, Infinity, cache.generation());
    clock.advance(-3_600_000);
    expect(cache.get('h')).toBeUndefined();
  });

  it('never keeps a token past its own expiry', () => {
    const clock = createTestClock();
    const cache = createTokenCache(clock);
    cache.set('h', 'grant', clock.now() + 500, cache.generation());
    clock.advance(499);
    expect(cache.get('h')).toBe('grant');
    clock.advance(1);
    expect(cache.get('h')).toBeUndefined();
  });

  it('forgets everything on a revocation, and drops a grant read before it', () => {
    const clock = createTestClock();
    const cache = createTokenCache(clock);
    cache.set('a', 'old', Infinity, cache.generation());
    const readBeforeRevocation = cache.generation();
    cache.forgetAll();
    expect(cache.get('a')).toBeUndefined();
    // A request that read the row before the revocation committed must not put it back.
    cache.set('b', 'stale', Infinity, readBeforeRevocation);
    expect(cache.get('b')).toBeUndefined();
    cache.set('b', 'fresh', Infinity, cache.generation());
    expect(cache.get('b')).toBe('fresh');
  });

  it('holds at most 10,000 tokens, dropping the oldest', () => {
    const cache = createTokenCache(createTestClock());
    for (let i = 0; i <= 10_000; i++) cache.set(`t${i}`, i, Infinity, cache.generation());
    expect(cache.get('t0')).toBeUndefined();
    expect(cache.get('t1')).toBe(1);
    expect(cache.get('t10000')).toBe(10_000);
  });
});
