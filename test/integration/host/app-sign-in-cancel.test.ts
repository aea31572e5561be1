import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { createHost, type DeskHost } from '../../../src/core/host';
import { silentLogger } from '../../../src/core/log/logger';
import { startAppService, type AppService } from '../../../src/service/index';

// "This computer" signs the app in with its launch secret, no browser (docs/security.md). The service's
// answer is awaited (its store may be PostgreSQL): a sign-in cancelled meanwhile must stay cancelled. The
// real service answers; only its answer is held until the cancel is done, as a busy database would hold it.

let dir: string;
let host: DeskHost | undefined;
let service: AppService | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-app-sign-in-'));
});

afterEach(async () => {
  await host?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

it('a sign-in cancelled while the service answers leaves the person signed out', async () => {
  let asked!: () => void;
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  host = await createHost({
    dataDir: dir,
    secrets: createMemorySecretStore(),
    openBrowser: () => {
      throw new Error('the app signs in to its own service without a browser');
    },
    startEmbeddedService: async ({ dataDir }) => {
      service = await startAppService({ dataDir, port: 0, launchSecret: 'launch-secret-of-this-test' });
      const real = service;
      return {
        url: real.url,
        close: () => real.close(),
        signInApp: async (scope) => {
          asked();
          const answer = await real.signInApp(scope);
          await held;
          return answer;
        },
      };
    },
    os: {
      platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
      notify: () => {},
      openExternal: () => {},
    },
    logger: silentLogger,
  });
  expect((await host.addLocalProfile()).ok).toBe(true);

  const signingIn = host.signIn();
  await askedOnce;
  const cancelling = host.cancelSignIn();
  release();
  expect(await cancelling).toMatchObject({ ok: true, value: { status: 'signed-out' } });
  expect(await signingIn).toMatchObject({ ok: false, error: { code: 'sign_in_cancelled' } });
  expect(await host.getSession()).toMatchObject({ ok: true, value: { status: 'signed-out' } });
  expect(await host.listAgents()).toMatchObject({ ok: false, error: { code: 'signed_out' } });
});
