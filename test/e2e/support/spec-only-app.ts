import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../../src/browser/browser-mode';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../../support/spec-only-server';

/**
 * The app in browser mode (built renderer, bridge, host) and, for it to sign in to through "Another
 * server", a spec-only server (test/support/spec-only-server.ts) in front of the real local service.
 * Tokens live in a memory secret store (no OS keychain on a test machine). `api` reaches the service
 * directly as a second client of the same person, to read back what it holds.
 */
export interface SpecOnlyApp {
  service: TestService;
  spec: SpecOnlyServer;
  mode: BrowserMode;
  scratch: string;
  api: ApiClient;
  agentId: string;
  close(): Promise<void>;
}

/** `also`: extension operations the spec-only server serves too (`startSpecOnlyServer`). */
export async function startSpecOnlyApp(also: readonly string[] = []): Promise<SpecOnlyApp> {
  const service = await startTestService();
  await ensurePerson(service);
  const spec = await startSpecOnlyServer(service.url, { also });
  const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-spec-only-e2e-'));
  const mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
  const token = (await signIn(service)).access_token;
  return {
    service,
    spec,
    mode,
    scratch,
    api: createApiClient({ baseUrl: service.url, auth: staticTokenSource(token) }),
    agentId: await firstAgentId(service, token),
    close: async () => {
      await mode.close();
      await spec.close();
      await service.cleanup();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Signs the app in through "Another server" to the spec-only server, on its own sign-in pages. */
export async function signInToSpecOnly(page: Page, app: SpecOnlyApp): Promise<void> {
  await page.goto(app.mode.url);
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(app.spec.url);
  await page.getByLabel('Client id').fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const tab = await popup;
  // The sign-in pages are the spec-only server's own.
  expect(tab.url().startsWith(`${app.spec.url}/`)).toBe(true);
  await tab.getByLabel('E-mail').fill(DEFAULT_EMAIL);
  await tab.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}
