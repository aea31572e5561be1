import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTestService, type TestService } from '../support/local-service';
import { liveSignIns as countLiveSignIns } from './support/live-sign-ins';
import {
  openApp,
  screens,
  showScreen,
  signInThroughTheApp,
  startApp,
  type AppSession,
} from './support/app-session';

// The account screen in browser mode against the real local service: who is signed in, where and with
// which scopes; a second server added and switched between; sign-out revoking the sign-in; deleting
// the account behind a typed confirmation, refused with the server's `detalle` while a blocker stands.
// The server's side is read from its database and API afterwards.

let app: AppSession;
let other: TestService;
const EMAIL = 'account@example.test';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: EMAIL });
  other = await startTestService();
});

test.afterAll(async () => {
  await app?.close();
  await other?.cleanup();
});

/** Sign-ins of the person the server still honours (one token family per sign-in). */
const liveSignIns = (): Promise<number> => countLiveSignIns(app.service(), EMAIL);
const personId = async () => (await app.service().context.identity.persons.findByEmail(EMAIL))?.id;

async function openAccount(page: Page): Promise<void> {
  await openApp(page, app);
  await showScreen(page, 'Account');
  await expect(page.getByRole('heading', { name: 'Account', level: 2 })).toBeVisible();
}

test('says who is signed in, on which server, with which scopes', async ({ page }) => {
  await openAccount(page);
  const signedIn = page.getByRole('region', { name: 'Signed in' });
  await expect(signedIn).toContainText(EMAIL);
  await expect(signedIn.getByLabel('Server')).toHaveText(`This computer (${app.service().url})`);
  const scopes = signedIn.getByRole('list', { name: 'Granted scopes' });
  for (const scope of ['profile', 'agents:read', 'agents:write', 'files'])
    await expect(scopes).toContainText(scope);
  // Each permission in words first; "turn" and "token" are the wire's words, not a person's.
  await expect(scopes.getByRole('listitem').first()).toHaveText('Know who you are (your e-mail) profile');
  await expect(scopes).toContainText('Send and schedule messages');
  const keys = page.getByRole('region', { name: 'Access keys' });
  await expect(keys).toContainText('agentdesk sync');
  await expect(page.getByRole('region', { name: 'Account', exact: true })).not.toContainText(
    /\btokens?\b|\bturns?\b/i,
  );
  await page.screenshot({ path: join(screens, 'account.png'), fullPage: true });
});

test('another server is added, and the app switches between the saved accounts', async ({ page }) => {
  await openAccount(page);
  await page.getByRole('button', { name: 'Add another server…' }).click();
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Server address').fill(other.url);
  await form.getByLabel(/^Client id/).fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await form.getByRole('button', { name: 'Add and sign in' }).click();
  const tab = await popup;
  await tab.getByLabel('E-mail').fill('elsewhere@example.test');
  await tab.getByLabel('Password (at least 8 characters)').fill('another long password');
  await tab.getByLabel('Repeat the password').fill('another long password');
  await tab.getByRole('button', { name: 'Create account' }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();

  await showScreen(page, 'Account');
  await expect(page.getByRole('region', { name: 'Signed in' })).toContainText('elsewhere@example.test');
  await expect(page.getByLabel('Server', { exact: true })).toHaveText(other.url);
  const saved = page.getByRole('list', { name: 'Saved servers list' }).getByRole('listitem');
  await expect(saved).toHaveCount(2);
  await saved.filter({ hasText: 'This computer' }).getByRole('button', { name: 'Switch' }).click();
  await showScreen(page, 'Account');
  await expect(page.getByRole('region', { name: 'Signed in' })).toContainText(EMAIL);
  await expect(page.getByLabel('Server', { exact: true })).toHaveText(`This computer (${app.service().url})`);
});

test('sign out revokes the sign-in on the server', async ({ page }) => {
  await app.api('/api/v2/me/agents'); // the test's own sign-in, which must outlive the app's
  const before = await liveSignIns();
  await openAccount(page);
  await page.getByRole('region', { name: 'Signed in' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Start on this computer' })).toBeVisible();
  expect(await liveSignIns()).toBe(before - 1);
  await signInThroughTheApp(page, app.mode, EMAIL, app.password);
});

test('deleting the account: typed confirmation, a blocker shown by its detalle, then the account is gone', async ({
  page,
}) => {
  await openAccount(page);
  const unblock = app.service().context.account.register({
    name: 'shared spaces (test)',
    blocker: () => 'Eres dueño de un espacio compartido con miembros.',
  });
  await page.getByRole('button', { name: 'Delete account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Confirmation').fill('yes');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`Type ${EMAIL} exactly to confirm.`);

  await dialog.getByLabel('Confirmation').fill(EMAIL);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Eres dueño de un espacio compartido con miembros.');
  await page.screenshot({ path: join(screens, 'account-delete-blocked.png') });
  expect(await personId()).toBeDefined();
  expect((await app.api('/api/v2/me/agents')).status).toBe(200);
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();

  unblock();
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('button', { name: 'Start on this computer' })).toBeVisible();
  expect(await personId()).toBeUndefined();
  expect((await app.api('/api/v2/me/agents')).status).toBe(401);
});
