import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openApp, screens, showScreen, startApp, type AppSession } from './support/app-session';

// Connectors in browser mode against the real local service: its built-in demo provider (a real OAuth
// server on its own loopback origin) and a configured provider without credentials. Connect opens the
// provider in the browser (browser mode's "system browser" is the page's own browser), the list is
// read again when the window regains focus, and the API's connector state is checked afterwards.

let app: AppSession;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, {
    email: 'connectors@example.test',
    serviceConfig: { connectors: [{ id: 'calendar', nombre: 'Team calendar' }] },
  });
});

test.afterAll(async () => {
  await app?.close();
});

async function connector(id: string): Promise<{ conectado: boolean; disponible: boolean }> {
  const body = (await (await app.api('/api/v2/me/connectors')).json()) as {
    connectors: { id: string; conectado: boolean; disponible: boolean }[];
  };
  return body.connectors.find((c) => c.id === id)!;
}

const item = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Connector list' }).getByRole('listitem', { name });

test('connect goes through the provider in the browser; coming back refreshes the list', async ({ page }) => {
  await openApp(page, app);
  await showScreen(page, 'Connectors');
  const demo = item(page, 'Demo provider (local)');
  await expect(demo).toContainText('Not connected');
  await page.screenshot({ path: join(screens, 'connectors.png') });

  const popup = page.waitForEvent('popup');
  await demo.getByRole('button', { name: 'Connect' }).click();
  const provider = await popup;
  await expect(demo).toContainText('Finish in your browser');
  await expect(
    provider.getByRole('heading', { name: 'Connect the demo provider to AgentDesk?' }),
  ).toBeVisible();
  await provider.getByRole('button', { name: 'Allow' }).click();
  await expect(provider.getByRole('heading', { name: 'Demo provider (local) is connected' })).toBeVisible();
  expect((await connector('demo')).conectado).toBe(true);
  await provider.close();

  // Back in the app's window: regaining focus reads the list again.
  await page.bringToFront();
  await page.evaluate("window.dispatchEvent(new Event('focus'))");
  await expect(demo).toContainText('Connected');
  await expect(demo.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await page.screenshot({ path: join(screens, 'connectors-connected.png') });
});

test('disconnect asks first, then the API says it is disconnected', async ({ page }) => {
  await openApp(page, app);
  await showScreen(page, 'Connectors');
  const demo = item(page, 'Demo provider (local)');
  await demo.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect Demo provider (local)?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await connector('demo')).conectado).toBe(true);
  await demo.getByRole('button', { name: 'Disconnect' }).click();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(demo).toContainText('Not connected');
  expect((await connector('demo')).conectado).toBe(false);
});

test('a connector the server has not set up says why and offers no Connect', async ({ page }) => {
  await openApp(page, app);
  await showScreen(page, 'Connectors');
  const calendar = item(page, 'Team calendar');
  await expect(calendar).toContainText('Unavailable');
  await expect(calendar).toContainText('its operator has not set this provider up');
  await expect(calendar.getByRole('button', { name: 'Connect' })).toHaveCount(0);
  expect(await connector('calendar')).toMatchObject({ conectado: false, disponible: false });
});
