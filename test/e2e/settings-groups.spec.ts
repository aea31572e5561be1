import { expect, test, type Page } from '@playwright/test';
import { withFullChromium } from './chromium';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';

// Issue 29, item 6: Settings in groups, saying only what is true on this machine. Browser mode against the
// real local service, with no desktop shell: its tokens are in a memory store (there is no OS keychain on
// a test machine), it has no tray, global shortcut, open at login or updater, and its notifications are
// the browser's, which the browser here has not allowed.

let app: AppSession;

test.describe.configure({ mode: 'serial' });
// The full Chromium: the headless shell answers every notification permission "denied".
test.use(withFullChromium);

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'settings-groups@example.test' });
});

test.afterAll(async () => {
  await app?.close();
});

async function openSettings(page: Page): Promise<void> {
  await openApp(page, app);
  await showScreen(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
}

test('settings come in groups; browser mode shows no desktop-only option', async ({ page }) => {
  await openSettings(page);
  const groups = page.getByRole('region', { name: 'Settings' }).locator('.settings-group > h3');
  // Models and Agent programs: our service's extension (the spec-only server shows neither: models.spec.ts).
  await expect(groups).toHaveText([
    'Appearance',
    'Chat',
    'Models',
    'Agent programs',
    'Sync',
    'Notifications',
    'Privacy and sign-in',
    'About',
  ]);
  await expect(
    page.getByRole('region', { name: 'Appearance' }).getByRole('radio', { name: 'Dark' }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Chat' }).getByRole('radio', { name: /Ask me first/ }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sync' }).getByLabel('Default sync root')).toBeVisible();
  // Nothing the browser cannot do is offered.
  await expect(page.getByRole('region', { name: 'Desktop' })).toHaveCount(0);
  for (const option of [/running in the tray/, /when I log in/]) {
    await expect(page.getByRole('checkbox', { name: option })).toHaveCount(0);
  }
  await expect(page.getByLabel('Show or hide shortcut')).toHaveCount(0);
  await expect(page.getByLabel('Update channel')).toHaveCount(0);
  const about = page.getByRole('region', { name: 'About' });
  await expect(about).toContainText('AgentDesk ');
  await expect(about).toContainText('logs to the terminal that started it');
});

test('where the tokens are is what the host says: memory only here, never "keychain"', async ({ page }) => {
  await openSettings(page);
  const host = await app.mode.host.getSession();
  if (!host.ok) throw new Error(host.error.message);
  expect(host.value.secretStore.kind).toBe('memory');
  const privacy = page.getByRole('region', { name: 'Privacy and sign-in' });
  const tokens = privacy.getByRole('region', { name: 'Your sign-in' });
  await expect(tokens).toContainText('in memory only');
  // In a person's words: their sign-in, not "tokens".
  await expect(privacy).not.toContainText(/token/i);
  // Said once, not again in the launch warning's words.
  await expect(tokens.getByText(/memory only/)).toHaveCount(1);
  await expect(privacy).not.toContainText('keychain, never');
  await expect(privacy.getByRole('region', { name: 'Data folder' })).toContainText(app.dataDir);
  await expect(privacy.getByRole('region', { name: 'Chat memory' })).toBeVisible();
});

test('the notifications box follows the browser: not ticked while blocked, ticked once allowed', async ({
  page,
  context,
}) => {
  await openSettings(page);
  const box = page.getByRole('checkbox', { name: /Notify me when a reply finishes/ });
  // The person's wish is saved as "notify" (the default)…
  const saved = await app.mode.host.getSettings();
  expect(saved.ok && saved.value.notifications).toBe(true);
  // …but nothing would show while the browser has not allowed it, so the box is not ticked.
  expect(await page.evaluate('Notification.permission')).not.toBe('granted');
  await expect(box).not.toBeChecked();

  await context.grantPermissions(['notifications'], { origin: app.mode.origin });
  await page.reload();
  await showScreen(page, 'Settings');
  await expect(box).toBeChecked();
  await expect(page.getByRole('note', { name: 'Browser notifications' })).toHaveCount(0);
});
