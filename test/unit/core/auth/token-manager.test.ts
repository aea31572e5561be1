import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../../src/core/common/result';
import type { Result } from '../../../../src/core/common/result';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import type { AuthError, TokenSet } from '../../../../src/core/auth/pkce';
import { TokenManager } from '../../../../src/core/auth/token-manager';

/** The token manager's rules with the refresh call replaced (the real endpoint is covered in integration tests). */

const T0 = 1_700_000_000_000;
const set = (n: number, expiresAt = T0 + 3_600_000): TokenSet => ({
  accessToken: `access-${n}-abcdefgh`,
  refreshToken: `refresh-${n}-abcdefgh`,
  expiresAt,
  scope: ['agents:read'],
});

async function setup(refresh: (rt: string) => Promise<Result<TokenSet, AuthError>>, now = () => T0) {
  const store = createMemorySecretStore();
  const manager = await TokenManager.open({
    store,
    key: 'k',
    oauth: { baseUrl: 'http://127.0.0.1:9', clientId: 'c' },
    refresh,
    now,
  });
  return { manager, store };
}

describe('token manager rules', () => {
  it('refreshes when the token’s life ends on the monotonic clock, though the clock went back an hour', async () => {
    let wall = T0;
    let monotonic = 0;
    let calls = 0;
    const manager = await TokenManager.open({
      store: createMemorySecretStore(),
      key: 'k',
      oauth: { baseUrl: 'http://127.0.0.1:9', clientId: 'c' },
      refresh: async () => ok(set((calls += 1) + 1, wall + 3_600_000)),
      now: () => wall,
      monotonic: () => monotonic,
    });
    const pass = (ms: number) => {
      wall += ms;
      monotonic += ms;
    };
    await manager.signIn(set(1, T0 + 3_600_000));
    wall -= 3_600_000; // the system clock is set back an hour: by it, the token has two hours left
    pass(50 * 60_000);
    expect(await manager.getAccessToken()).toEqual(ok(set(1).accessToken));
    pass(9.5 * 60_000); // 59.5 minutes of its hour gone: within the minute's leeway
    expect(await manager.getAccessToken()).toEqual(ok(set(2).accessToken));
    pass(60_000);
    expect(await manager.getAccessToken()).toEqual(ok(set(2).accessToken));
    expect(calls).toBe(1);
  });

  it('shares one refresh between callers near expiry', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { manager } = await setup(async () => {
      calls += 1;
      await gate;
      return ok(set(2));
    });
    await manager.signIn(set(1, T0 + 30_000));
    const waiting = Promise.all([
      manager.getAccessToken(),
      manager.getAccessToken(),
      manager.handleUnauthorized(set(1).accessToken),
    ]);
    release();
    expect(await waiting).toEqual([ok(set(2).accessToken), ok(set(2).accessToken), ok(set(2).accessToken)]);
    expect(calls).toBe(1);
  });

  it('answers a stale 401 with the newer token instead of refreshing again', async () => {
    let calls = 0;
    const { manager } = await setup(async () => {
      calls += 1;
      return ok(set(calls + 1));
    });
    await manager.signIn(set(1));
    expect(await manager.handleUnauthorized(set(1).accessToken)).toEqual(ok(set(2).accessToken));
    expect(await manager.handleUnauthorized(set(1).accessToken)).toEqual(ok(set(2).accessToken));
    expect(calls).toBe(1);
  });

  it('stays signed in after a network failure and tries again next time', async () => {
    const answers: Result<TokenSet, AuthError>[] = [
      err({ code: 'network', message: "Couldn't reach the service." }),
      ok(set(2)),
    ];
    const { manager, store } = await setup(async () => answers.shift()!);
    await manager.signIn(set(1, T0));
    expect(await manager.getAccessToken()).toEqual(
      err({ code: 'network', message: "Couldn't reach the service." }),
    );
    expect(manager.signedIn).toBe(true);
    expect(JSON.parse((await store.get('k'))!).refreshToken).toBe(set(1).refreshToken);
    expect(await manager.getAccessToken()).toEqual(ok(set(2).accessToken));
  });

  it('ignores a refresh that finished after the person signed out', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { manager, store } = await setup(async () => {
      await gate;
      return ok(set(2));
    });
    await manager.signIn(set(1, T0));
    const pending = manager.getAccessToken();
    // Sign-out revokes over the network; the address here refuses at once.
    await manager.signOut();
    release();
    expect((await pending).ok).toBe(false);
    expect(await store.get('k')).toBeUndefined();
  });

  it('treats an unreadable stored entry as signed out', async () => {
    const store = createMemorySecretStore();
    await store.set('k', '{not json');
    const manager = await TokenManager.open({
      store,
      key: 'k',
      oauth: { baseUrl: 'http://127.0.0.1:9', clientId: 'c' },
    });
    expect(manager.signedIn).toBe(false);
    expect(await manager.getAccessToken()).toEqual(
      err({ code: 'signed_out', message: 'You are signed out. Please sign in.' }),
    );
  });
});
