import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import type { DeskBridge, SessionState } from '../../src/shared/bridge';

// A whole sign-in in Chromium through browser mode: the built renderer (out/renderer, from
// `npm run build`), the bridge over its WebSocket, the host, the embedded local service with its
// first-run, sign-in and consent pages, and the host's loopback listener on 127.0.0.1.
// Tokens are kept in a memory secret store (no OS keychain on a test machine).

const EMAIL = 'ana@example.test';
const PASSWORD = 'a long enough password';

let dataDir: string;
let mode: BrowserMode;

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-signin-e2e-'));
  mode = await startBrowserMode({
    dataDir,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
    trustedLaunch: false, // this spec walks the password pages of a service that does not trust the app
  });
});

test.afterAll(async () => {
  await mode.close();
  await rm(dataDir, { recursive: true, force: true });
});

const session = (page: Page): Promise<SessionState | undefined> =>
  page.evaluate(async () => {
    const result = await (globalThis as unknown as { desk?: DeskBridge }).desk?.getSession();
    return result?.ok ? result.value : undefined;
  });

test.describe.configure({ mode: 'serial' });

test('signs in on "this computer": first-run page, no consent for the desktop client, back in the app', async ({
  page,
}) => {
  await page.goto(mode.url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  // The per-launch key leaves the address bar once read.
  expect(new URL(page.url()).hash).toBe('');

  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Start on this computer' }).click();
  await expect(page.getByRole('status')).toContainText('finish signing in in your browser');
  const signInTab = await popup;
  await expect(signInTab.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await signInTab.getByLabel('E-mail').fill(EMAIL);
  await signInTab.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
  await signInTab.getByLabel('Repeat the password').fill(PASSWORD);
  await signInTab.getByRole('button', { name: 'Create account' }).click();
  await expect(signInTab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  // The loopback listener took the callback and sent the tab on, so the code is not left in the address bar.
  expect(new URL(signInTab.url()).hostname).toBe('127.0.0.1');
  expect(new URL(signInTab.url()).searchParams.has('code')).toBe(false);

  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toHaveCount(0);
  const state = await session(page);
  expect(state).toMatchObject({ status: 'signed-in', profile: { kind: 'local' }, user: { email: EMAIL } });
  expect(state?.scopes).toEqual(expect.arrayContaining(['agents:read', 'agents:write']));

  // A reload keeps the bridge (key kept for this tab) and the sign-in.
  await page.reload();
  await expect.poll(async () => (await session(page))?.status).toBe('signed-in');
});

test('signs in to a custom server as a third-party client through the sign-in and consent pages', async ({
  page,
}) => {
  const service = mode.service();
  expect(service).toBeDefined();
  const client = await service!.context.identity.clients.create({
    name: 'Team Desk',
    redirectUris: ['http://127.0.0.1/callback'],
    scopes: 'profile agents:read agents:write files',
  });

  await page.goto(mode.url);
  // Switching profile from the workspace: the session becomes signed out for the new server.
  await expect.poll(async () => (await session(page))?.status).toBe('signed-in');
  await page.evaluate(
    async ({ baseUrl, clientId }) =>
      (globalThis as unknown as { desk?: DeskBridge }).desk?.addCustomProfile({ baseUrl, clientId }),
    {
      baseUrl: service!.url,
      clientId: client.client_id,
    },
  );
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(service!.url);
  await page.getByLabel('Client id').fill(client.client_id);

  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const signInTab = await popup;
  // A fresh browser context: the service asks who this is, then a third party always sees consent.
  await signInTab.getByLabel('E-mail').fill(EMAIL);
  await signInTab.getByLabel('Password').fill(PASSWORD);
  await signInTab.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    signInTab.getByRole('heading', { name: 'Allow Team Desk to use your account?' }),
  ).toBeVisible();
  await signInTab.getByRole('button', { name: 'Allow' }).click();
  await expect(signInTab.getByRole('heading', { name: "You're signed in" })).toBeVisible();

  await expect.poll(async () => (await session(page))?.status).toBe('signed-in');
  expect(await session(page)).toMatchObject({ profile: { kind: 'custom', clientId: client.client_id } });
  const profiles = await page.evaluate(
    async () => (await (globalThis as unknown as { desk?: DeskBridge }).desk?.listProfiles())?.ok,
  );
  expect(profiles).toBe(true);
});

test('a denied consent comes back as a plain sentence and leaves the person signed out', async ({ page }) => {
  await page.goto(mode.url);
  await expect.poll(async () => (await session(page))?.status).toBe('signed-in');
  await page.evaluate(async () => (globalThis as unknown as { desk?: DeskBridge }).desk?.signOut());
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  await page.getByLabel('Another server').check();
  const current = await session(page);
  expect(current?.profile?.kind).toBe('custom');
  await page.getByLabel('Server address').fill(mode.service()!.url);
  await page.getByLabel('Client id').fill(current!.profile!.clientId);

  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const signInTab = await popup;
  await signInTab.getByLabel('E-mail').fill(EMAIL);
  await signInTab.getByLabel('Password').fill(PASSWORD);
  await signInTab.getByRole('button', { name: 'Sign in' }).click();
  await signInTab.getByRole('button', { name: 'Deny' }).click();
  await expect(signInTab.getByRole('heading', { name: "Sign-in didn't finish" })).toBeVisible();

  await expect(page.getByRole('alert')).toContainText('You declined access.');
  expect(await session(page)).toMatchObject({
    status: 'signed-out',
    signedOutReason: { code: 'sign_in_refused' },
  });
});
