import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startService, type RunningService } from '../../src/service/index';
import { openApp, screens, startApp, type AppSession } from './support/app-session';
import { openSyncPanel, syncState } from './support/sync-panel';

// The server goes away while the app sits quiet (issue 39, item 5), in browser mode: the real local service
// is stopped under an open app with a synced folder, and nothing is clicked. Within 5 seconds the app says
// it is offline and the sidebar's sync line stops saying "Up to date"; the service started again on the
// same port brings both back by themselves.

let app: AppSession;
let scratch: string;
let restarted: RunningService | undefined;

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'offline@example.test' });
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-offline-'));
});
test.afterAll(async () => {
  await app?.close();
  await restarted?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('a stopped server is said within 5 seconds, in the app and the sync line, and its return too', async ({
  page,
}) => {
  await openApp(page, app);
  const panel = await openSyncPanel(page);
  await panel.getByLabel('Folder path').fill(join(scratch, 'Synced'));
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  await expect(syncState(panel)).toHaveText('Up to date');
  await page.getByRole('button', { name: /^Sync folder/ }).click(); // back to the chat
  const line = page.getByRole('button', { name: /^Sync folder/ });
  await expect(line).toContainText('Up to date');
  const offline = page.getByRole('status', { name: 'Offline' });
  await expect(offline).toHaveCount(0);

  const running = app.service();
  const port = Number(new URL(running.url).port);
  await running.close();
  const stopped = Date.now();
  await expect(offline).toBeVisible({ timeout: 10_000 });
  await expect(line).toContainText("Can't reach the agent's server", { timeout: 10_000 });
  const saidAfterMs = Date.now() - stopped;
  expect(saidAfterMs).toBeLessThan(5000);
  await expect(line).not.toContainText('Up to date');
  await page.screenshot({ path: join(screens, 'offline-notice.png') });

  restarted = await startService({ dataDir: join(app.dataDir, 'local-service'), port });
  await expect(offline).toHaveCount(0, { timeout: 20_000 });
  await expect(line).toContainText('Up to date', { timeout: 20_000 });
});
