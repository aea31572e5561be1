import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { serveRenderer, type StaticServer } from '../../src/browser/static-server';

let site: StaticServer;
test.beforeAll(async () => {
  site = await serveRenderer(resolve(import.meta.dirname, '../../out/renderer'));
});
test.afterAll(async () => site.close());

test('the built renderer shows the app shell under a strict CSP', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  await page.goto(site.url);
  await expect(page.getByRole('heading', { name: 'AgentDesk' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Agents' })).toBeVisible();
  expect(violations).toEqual([]);
});
