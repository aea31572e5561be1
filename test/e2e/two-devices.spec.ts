import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { freshDatabase } from '../support/postgres';
import { startSharedServer, type SharedServer } from '../support/shared-server';
import {
  messageBox,
  newConversation,
  replies,
  replyEnded,
  sendAndWait,
  transcript,
} from './support/chat-page';
import { openSyncPanel, syncState } from './support/sync-panel';

// Two computers, one person (issue 27, item 4): two apps in browser mode, each with its own data folder (its
// own profile, transcript store and synced folder), signed in through "Another server" to one server made of
// two real service processes on one real PostgreSQL. The laptop talks to one process, the desktop to the
// other, as a proxy spreading them would. Tokens live in memory secret stores (no OS keychain here).

interface Computer {
  mode: BrowserMode;
  page: Page;
  /** The folder this computer syncs the agent's files to. */
  root: string;
}

let server: SharedServer;
let scratch: string;
let laptop: Computer;
let desktop: Computer;

test.describe.configure({ mode: 'serial' });

async function computer(browser: Browser, name: string, serverUrl: string): Promise<Computer> {
  const mode = await startBrowserMode({
    dataDir: join(scratch, name, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
  // Each computer is its own browser context: no shared cookies or storage.
  const page = await (await browser.newContext()).newPage();
  await page.goto(mode.url);
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(serverUrl);
  await page.getByLabel('Client id').fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const tab = await popup;
  const person = server.people[0]!;
  await tab.getByLabel('E-mail').fill(person.email);
  await tab.getByLabel('Password', { exact: true }).fill(person.password);
  await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  return { mode, page, root: join(scratch, name, 'Synced agent') };
}

/** The agent's workspace file as the server keeps it. */
async function workspaceText(path: string): Promise<string | undefined> {
  const person = server.people[0]!;
  const answer = await fetch(`${server.processes[0]!.url}/api/v2/agents/${person.agentId}/files/${path}`, {
    headers: { Authorization: `Bearer ${person.token}`, Accept: 'application/octet-stream' },
  });
  return answer.ok ? await answer.text() : undefined;
}

const onDisk = (path: string) => readFile(path, 'utf8').catch(() => undefined);

test.beforeAll(async ({ browser }) => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-two-devices-'));
  server = await startSharedServer({ processes: 2, database: await freshDatabase() });
  laptop = await computer(browser, 'laptop', server.processes[0]!.url);
  desktop = await computer(browser, 'desktop', server.processes[1]!.url);
});

test.afterAll(async () => {
  await laptop?.mode.close();
  await desktop?.mode.close();
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

test('a conversation started on the laptop appears on the desktop, live, and search finds it on both', async () => {
  await newConversation(laptop.page);
  await sendAndWait(laptop.page, 'Plans for the picnic on Saturday');

  // The desktop's list asks the server again every 10 s: the conversation comes without a reload.
  const row = desktop.page
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('listitem')
    .filter({ hasText: 'Plans for the picnic on Saturday' });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await row.click();
  await expect(transcript(desktop.page)).toContainText('Plans for the picnic on Saturday');
  await replyEnded(desktop.page, 1);

  // A turn started on the laptop (its process runs the agent) streams to the desktop (the other process).
  await messageBox(laptop.page).fill('Bring lemonade too');
  await messageBox(laptop.page).press('Enter');
  await replyEnded(desktop.page, 2);
  await expect(replies(desktop.page).last()).toContainText('lemonade');
  await replyEnded(laptop.page, 2);

  for (const { page } of [laptop, desktop]) {
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Search all conversations' });
    await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill('picnic');
    const results = palette.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('button').first()).toBeVisible({ timeout: 30_000 });
    await expect(results).toContainText('picnic');
    await page.keyboard.press('Escape');
  }
});

test("both sync the agent's folder: an edit on one reaches the other through the agent, and a clash is a recorded conflict", async () => {
  const [laptopPanel, desktopPanel] = [await openSyncPanel(laptop.page), await openSyncPanel(desktop.page)];
  for (const [panel, root] of [
    [laptopPanel, laptop.root],
    [desktopPanel, desktop.root],
  ] as const) {
    await panel.getByLabel('Folder path').fill(root);
    await panel.getByRole('button', { name: 'Sync this folder' }).click();
    await expect(syncState(panel)).toHaveText('Up to date', { timeout: 30_000 });
  }

  // Saved on the laptop's disk -> the agent's workspace -> the desktop's disk.
  // The folder's work/ is the agent's workspace.
  await mkdir(join(laptop.root, 'work', 'notes'), { recursive: true });
  await writeFile(join(laptop.root, 'work', 'notes', 'picnic.txt'), 'lemonade, bread\n');
  await expect.poll(() => workspaceText('notes/picnic.txt'), { timeout: 30_000 }).toBe('lemonade, bread\n');
  await desktopPanel.getByRole('button', { name: 'Sync now' }).click();
  await expect
    .poll(() => onDisk(join(desktop.root, 'work', 'notes', 'picnic.txt')), { timeout: 30_000 })
    .toBe('lemonade, bread\n');

  // Both change the file while the desktop is paused (offline, say): a conflict, and nothing is lost.
  await desktopPanel.getByRole('button', { name: 'Pause' }).click();
  await expect(syncState(desktopPanel)).toHaveText('Paused');
  await writeFile(join(desktop.root, 'work', 'notes', 'picnic.txt'), 'lemonade, bread, cheese\n');
  await writeFile(join(laptop.root, 'work', 'notes', 'picnic.txt'), 'lemonade, bread, grapes\n');
  await expect
    .poll(() => workspaceText('notes/picnic.txt'), { timeout: 30_000 })
    .toBe('lemonade, bread, grapes\n');
  await expect(syncState(laptopPanel)).toHaveText('Up to date', { timeout: 30_000 });

  await desktopPanel.getByRole('button', { name: 'Resume' }).click();
  const conflicts = desktopPanel.getByRole('list', { name: 'Conflicts' });
  await expect(conflicts.getByRole('listitem')).toHaveCount(1, { timeout: 30_000 });
  await expect(conflicts).toContainText('notes/picnic.txt');
  await expect(syncState(desktopPanel)).toHaveText('Up to date except 1 conflict');
  expect(await onDisk(join(desktop.root, 'work', 'notes', 'picnic.txt'))).toBe('lemonade, bread, cheese\n');
  expect(await workspaceText('notes/picnic.txt')).toBe('lemonade, bread, grapes\n');
});
