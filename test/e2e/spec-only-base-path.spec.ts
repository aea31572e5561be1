import { expect, test } from '@playwright/test';
import { DEFAULT_EMAIL, DEFAULT_PASSWORD } from '../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../support/spec-only-server';
import { openSection } from './studio-support';
import { newConversation } from './support/chat-page';
import { startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// The README: "The URL may have a path (https://host/tenant): every address AgentDesk builds keeps it."
// The app in browser mode signs in through "Another server" to a spec-only server that answers the API
// and OAuth routes only under /tenant (test/support/spec-only-server.ts with a base path, in front of the
// real local service), then chats and opens the studio; anything asked outside /tenant is refused and
// fails the test. Tokens live in a memory secret store (no OS keychain here).

let app: SpecOnlyApp;
let tenant: SpecOnlyServer;

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
  tenant = await startSpecOnlyServer(app.service.url, { basePath: '/tenant' });
});

test.afterAll(async () => {
  await tenant.close();
  await app.close();
});

test('signs in, chats and configures through a server address with a path', async ({ page }) => {
  expect(tenant.url).toMatch(/\/tenant$/);
  await page.goto(app.mode.url);
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(tenant.url);
  await page.getByLabel('Client id').fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const tab = await popup;
  expect(tab.url().startsWith(`${tenant.url}/oauth2/authorize?`)).toBe(true);
  await tab.getByLabel('E-mail').fill(DEFAULT_EMAIL);
  await tab.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();

  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('echo under a tenant path');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('under a tenant path', { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });

  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const identity = await openSection(page, 'Identity');
  const held = await app.api.getAgentConfig(app.agentId);
  if (!held.ok) throw new Error(held.error.message);
  await expect(identity.getByLabel('Name', { exact: true })).toHaveValue(held.value.name ?? '');
  expect(tenant.refused).toEqual([]);
});
