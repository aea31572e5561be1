import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/local-service';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// The app in browser mode (the built renderer from `npm run build`, the bridge, the host) pointed
// through "Another server" at a server that offers exactly the spec and none of our extensions
// (test/support/spec-only-server.ts in front of the real local service and its demo agent).
// Tokens live in a memory secret store (no OS keychain on a test machine).

let app: SpecOnlyApp;
let ownerToken: string;
let syncRoot: string | undefined;

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
  ownerToken = (await signIn(app.service)).access_token;
});

test.afterAll(async () => {
  await app.close();
  if (syncRoot) await rm(syncRoot, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

const replies = (page: Page) => page.getByRole('article', { name: 'Agent reply' });

async function newConversation(page: Page): Promise<void> {
  const rows = page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem');
  const before = await rows.count();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(rows).toHaveCount(before + 1);
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

test('signs in through "Another server" to a spec-only server', async ({ page }) => {
  await page.goto(app.mode.url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  await signInToSpecOnly(page, app);
  // The app asked this server for nothing outside the spec.
  expect(app.spec.refused).toEqual([]);
});

test('chats with the agent, and a permission answered in the app writes the file', async ({ page }) => {
  await page.goto(app.mode.url);
  await expect(page.getByRole('button', { name: 'Start a new conversation' })).toBeVisible();
  await newConversation(page);
  await send(page, 'Hello through a spec-only server');
  await expect(replies(page).last()).toContainText('You said: "Hello through a spec-only server"');
  await expect(replies(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });

  await newConversation(page);
  await send(page, 'write spec-only.txt\n```\nwritten from the app\n```');
  const card = replies(page)
    .last()
    .getByRole('region', { name: /Permission request: Write spec-only\.txt/ });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(card).toContainText('Allowed once');
  await expect(replies(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  expect(await workspaceText('spec-only.txt')).toBe('written from the app');
  expect(app.spec.refused).toEqual([]);
});

test('syncing a folder says plainly it only uploads here, and deletes nothing', async ({ page }) => {
  // Outside the app's data folder, which the app refuses to sync.
  const root = (syncRoot = await mkdtemp(join(tmpdir(), 'agentdesk-spec-sync-')));
  await mkdir(join(root, 'work'), { recursive: true });
  await writeFile(join(root, 'work', 'mine.txt'), 'kept on my disk');
  await page.goto(app.mode.url);
  await page.getByRole('button', { name: /^Sync folder/ }).click();
  const panel = page.getByRole('region', { name: /^Sync folder · / });
  await panel.getByLabel('Folder path').fill(root);
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  await expect(panel.getByRole('note')).toContainText(
    "Upload-only: This server can't send workspace files back, so work/ only uploads",
  );
  await expect.poll(() => workspaceText('mine.txt'), { timeout: 15_000 }).toBe('kept on my disk');
  // The agent's own file stays on the agent, and nothing local was removed or replaced.
  expect(await workspaceText('spec-only.txt')).toBe('written from the app');
  expect(await readFile(join(root, 'work', 'mine.txt'), 'utf8')).toBe('kept on my disk');
  expect(existsSync(join(root, 'work', 'spec-only.txt'))).toBe(false);
});

async function workspaceText(path: string): Promise<string | undefined> {
  const answer = await fetch(`${app.service.url}/api/v2/agents/${app.agentId}/files/${path}`, {
    headers: { Authorization: `Bearer ${ownerToken}`, Accept: 'application/octet-stream' },
  });
  const type = answer.headers.get('content-type') ?? '';
  return answer.ok && type.startsWith('application/octet-stream') ? answer.text() : undefined;
}
