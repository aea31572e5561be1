import { expect, test } from '@playwright/test';
import { startTestService, type TestService } from '../support/local-service';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';
import { liveSignIns } from './support/live-sign-ins';

// Account → Servers and accounts → Forget: the saved account goes from the app, and its sign-in ends on
// that server too (as Sign out does), so no refresh token outlives it there. Browser mode against the
// real local service, plus a second real service added through "Add another server…"; what each server
// still honours is read from its database. Tokens live in a memory secret store (no OS keychain here).

let app: AppSession;
let other: TestService;
const OTHER_EMAIL = 'forgotten@example.test';

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'forget@example.test' });
  other = await startTestService();
});

test.afterAll(async () => {
  await app?.close();
  await other?.cleanup();
});

const liveSignInsOnOther = (): Promise<number> => liveSignIns(other, OTHER_EMAIL);

test('Forget removes a saved server and revokes its sign-in there', async ({ page }) => {
  await openApp(page, app);
  await showScreen(page, 'Account');
  await page.getByRole('button', { name: 'Add another server…' }).click();
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Server address').fill(other.url);
  await form.getByLabel(/^Client id/).fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await form.getByRole('button', { name: 'Add and sign in' }).click();
  const tab = await popup;
  await tab.getByLabel('E-mail').fill(OTHER_EMAIL);
  await tab.getByLabel('Password (at least 8 characters)').fill('another long password');
  await tab.getByLabel('Repeat the password').fill('another long password');
  await tab.getByRole('button', { name: 'Create account' }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();
  await expect.poll(liveSignInsOnOther).toBe(1);

  await showScreen(page, 'Account');
  const saved = page.getByRole('list', { name: 'Saved servers list' }).getByRole('listitem');
  await saved.filter({ hasText: 'This computer' }).getByRole('button', { name: 'Switch' }).click();
  await showScreen(page, 'Account');
  await saved.filter({ hasText: other.url }).getByRole('button', { name: 'Forget' }).click();
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText('This computer');
  await expect.poll(liveSignInsOnOther).toBe(0);
  // The account the app stayed on is untouched.
  await expect(page.getByRole('region', { name: 'Signed in' })).toContainText('forget@example.test');
});
