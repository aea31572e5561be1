import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { SESSION_EXPIRED_MESSAGE } from '../../../src/core/auth/token-manager';
import { createHost, type DeskHost } from '../../../src/core/host';
import type { SessionState } from '../../../src/shared/bridge';
import { OIDC_CLIENT_ID, startOidcServer, walkOidcPages, type OidcServer } from '../../support/oidc-server';

vi.setConfig({ testTimeout: 60_000 });

/**
 * The app's host signing in to "Another server" whose OAuth side is oidc-provider (a server nobody
 * here wrote), under a base path, with no refresh token in its answer: signed in, and then, once
 * the access token has expired, signed out with a plain reason instead of failing calls.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('host against oidc-provider', () => {
  it('signs in without a refresh token, then asks to sign in again when the token expires', async () => {
    const oidc: OidcServer = await startOidcServer({ refreshTokens: false });
    cleanups.push(() => oidc.close());
    const dir = await mkdtemp(join(tmpdir(), 'agentdesk-host-oidc-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let now = Date.now();
    const host: DeskHost = await createHost({
      dataDir: dir,
      secrets: createMemorySecretStore(),
      openBrowser: (url) => walkOidcPages(url),
      startEmbeddedService: () => Promise.reject(new Error('no local service in this test')),
      os: {
        platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
        notify: () => {},
        openExternal: () => {},
      },
      now: () => now,
    });
    cleanups.push(() => host.close());

    const added = await host.addCustomProfile({ baseUrl: oidc.baseUrl, clientId: OIDC_CLIENT_ID });
    expect(added.ok).toBe(true);
    const signedIn = await host.signIn();
    expect(signedIn.ok).toBe(true);
    expect(await host.getSession()).toMatchObject({ ok: true, value: { status: 'signed-in' } });

    const changes: SessionState[] = [];
    host.onSessionChange((state) => changes.push(state));
    now += 2 * 60 * 60 * 1000; // past the access token's hour
    expect(await host.listAgents()).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    expect(await host.getSession()).toMatchObject({
      ok: true,
      value: {
        status: 'signed-out',
        signedOutReason: { code: 'session_expired', message: SESSION_EXPIRED_MESSAGE },
      },
    });
    expect(changes.at(-1)?.status).toBe('signed-out');
  });
});
