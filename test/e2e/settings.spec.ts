import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startBrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { withFullChromium } from './chromium';
import { openApp, screens, showScreen, startApp, type AppSession } from './support/app-session';

// Settings in browser mode against the real local service: the theme really switches the page's
// colours (over the OS preference, emulated dark here), notifications, the default permission mode
// of new messages (checked by what the demo agent then does), the default sync root, the data folder
// and the version. Settings live in <data>/settings.json (mode 0600) and survive a restart of the app.

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });
// The full Chromium: the headless shell answers every notification permission "denied".
test.use(withFullChromium);

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'settings@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

const background = (page: Page) => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

async function darkOsPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ colorScheme: 'dark' });
  return context.newPage();
}

async function openSettings(page: Page, url = app.mode.url): Promise<void> {
  await page.goto(url);
  await showScreen(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
}

const settingsFile = async () =>
  JSON.parse(await readFile(join(app.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;

test('the theme switches the page: system follows the OS, light and dark override it', async ({
  browser,
}) => {
  const page = await darkOsPage(browser);
  await openSettings(page);
  await expect(page.getByRole('radio', { name: 'Same as the system' })).toBeChecked();
  expect(await background(page)).toBe('rgb(28, 28, 30)');
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect.poll(() => background(page)).toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: join(screens, 'settings-light.png'), fullPage: true });
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => background(page)).toBe('rgb(28, 28, 30)');
  await page.screenshot({ path: join(screens, 'settings-dark.png'), fullPage: true });
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect.poll(async () => (await settingsFile())['theme']).toBe('light');
  // A reload keeps it, before anyone looks at Settings.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  await expect.poll(() => background(page)).toBe('rgb(255, 255, 255)');
  await page.context().close();
});

test('notifications, permission mode and sync root are saved in a private file, never with a token', async ({
  page,
}) => {
  // The box is ticked only where the browser allows notifications (settings-groups.spec covers the rest).
  await page.context().grantPermissions(['notifications'], { origin: app.mode.origin });
  await openSettings(page);
  await page.getByRole('checkbox', { name: /Notify me when a reply finishes/ }).uncheck();
  await page.getByRole('radio', { name: /Let the service decide/ }).check();
  await page.getByLabel('Default sync root').fill(join(app.dataDir, 'Synced'));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(settingsFile).toEqual({
    theme: 'light',
    notifications: false,
    permissionMode: 'auto',
    syncRoot: join(app.dataDir, 'Synced'),
    // The desktop shell's settings (issue 18) stay at their defaults here.
    closeToTray: false,
    globalShortcut: 'CommandOrControl+Shift+Space',
    quickChatShortcut: 'Alt+Space',
    updateChannel: 'stable',
    openAtLogin: false,
  });
  const file = await stat(join(app.dataDir, 'settings.json'));
  expect(file.mode & 0o777).toBe(0o600);
  expect(await readFile(join(app.dataDir, 'settings.json'), 'utf8')).not.toMatch(/token|gat_|Bearer/i);

  await expect(page.getByRole('region', { name: 'Data folder' })).toContainText(app.dataDir);
  const version = JSON.parse(await readFile(join(import.meta.dirname, '../../package.json'), 'utf8')).version;
  await expect(page.getByRole('region', { name: 'Version' })).toContainText(`AgentDesk ${version}`);
  await expect(page.getByRole('region', { name: 'Version' })).toContainText(
    'Updates are checked by the desktop app.',
  );
});

test('with "let the service decide", a new message writes without asking', async ({ page }) => {
  await openApp(page, app);
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('write auto.txt\n```\nwritten without asking\n```');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: /Permission request/ })).toHaveCount(0);
  const written = await app.api(`/api/v2/agents/${agentId}/files/auto.txt`, {
    headers: { Accept: 'application/octet-stream' },
  });
  expect(await written.text()).toBe('written without asking');
});

test('the default sync root prefills the sync folder', async ({ page }) => {
  await openApp(page, app);
  await page.getByRole('button', { name: /^Sync folder/ }).click();
  await expect(page.getByLabel('Folder path')).toHaveValue(new RegExp(`^${join(app.dataDir, 'Synced')}/`));
});

test('settings survive a restart of the app', async ({ browser }) => {
  await app.mode.close();
  const again = await startBrowserMode({
    dataDir: app.dataDir,
    rendererDir: join(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
    trustedLaunch: false,
  });
  try {
    const page = await darkOsPage(browser);
    await page.goto(again.url);
    await expect(page.getByRole('button', { name: 'Start on this computer' })).toBeVisible();
    // Light over a dark OS, before signing in: the theme is the app's, not an account's.
    await expect.poll(() => background(page)).toBe('rgb(255, 255, 255)');
    const result = await again.host.getSettings();
    expect(result).toEqual({
      ok: true,
      value: {
        theme: 'light',
        notifications: false,
        permissionMode: 'auto',
        syncRoot: join(app.dataDir, 'Synced'),
        closeToTray: false,
        globalShortcut: 'CommandOrControl+Shift+Space',
        quickChatShortcut: 'Alt+Space',
        updateChannel: 'stable',
        openAtLogin: false,
      },
    });
    await page.context().close();
  } finally {
    await again.close();
  }
});
