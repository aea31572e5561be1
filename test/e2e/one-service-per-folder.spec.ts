import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../src/core/auth/secret-store';

// Two programs on one data folder (the app and `npm run web`, or two `npm run web`): "this computer"'s
// service runs once, in the first, and the second joins it (core/host/plumbing/local-service-lease.ts).
// With the keychain shared, the second is signed in and both show the same conversations live; with none to
// share, the second runs a guest service beside the first and signs in by itself. A memory store plays the OS
// keychain.

let scratch: string;
let first: BrowserMode;
let keychain: SecretStore;
const others: BrowserMode[] = [];

const open = (secrets: SecretStore) =>
  startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets,
  }).then((mode) => (others.push(mode), mode));

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-one-service-'));
  keychain = createMemorySecretStore();
  first = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: keychain,
  });
});

test.afterAll(async () => {
  for (const mode of others) await mode.close();
  await first.close();
  await rm(scratch, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

test('a second window on the same folder joins the first one’s service and sees its conversation live', async ({
  page,
  context,
}) => {
  await page.goto(first.url);
  await page.getByRole('button', { name: 'Start on this computer' }).click();
  await send(page, 'echo hello from the first window');
  const replies = page.getByRole('article', { name: 'Agent reply' });
  await expect(replies.last()).toContainText('hello from the first window', { timeout: 30_000 });

  const second = await open(keychain);
  // It did not start a service of its own: the folder's lock still names the first's.
  expect(second.service()).toBeUndefined();
  const lock = JSON.parse(await readFile(join(scratch, 'data', 'local-service', 'service.lock'), 'utf8'));
  expect(lock.url).toBe(first.service()!.url);

  const other = await context.newPage();
  await other.goto(second.url);
  // Signed in already, with the account the first keeps: the conversation is there.
  const row = other
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('listitem')
    .filter({ hasText: 'hello from the first window' });
  await row.click();
  await expect(other.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
    'hello from the first window',
  );
  // A message sent in the second window is answered by the one service; the first window shows it live.
  await send(other, 'echo and one from the second');
  await expect(replies.last()).toContainText('and one from the second', { timeout: 30_000 });
});

test('with no keychain to share, the second window runs beside the first and is signed in by itself', async ({
  page,
}) => {
  const third = await open(createMemorySecretStore());
  // A guest service of its own (ServiceOptions.guest); the folder stays the first one's.
  expect(third.service()).toBeDefined();
  const lock = JSON.parse(await readFile(join(scratch, 'data', 'local-service', 'service.lock'), 'utf8'));
  expect(lock.url).toBe(first.service()!.url);
  await page.goto(third.url);
  // "This computer" was chosen in the folder already: the guest's own trust signs the person in at once.
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await send(page, 'echo hello from beside');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText('hello from beside', {
    timeout: 30_000,
  });
});
