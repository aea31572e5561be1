import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_EMAIL } from '../support/local-service';
import { screens, showScreen } from './support/app-session';
import { liveSignIns } from './support/live-sign-ins';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';
import { chooseInHeaderMenu } from './support/header-menu';
import { controlPageTime, runOutUndo } from './support/page-clock';

// The person's screens (file library, conversation header, schedules, connectors, account, settings,
// search, a reload mid-reply, sign-out) in browser mode against a server that offers exactly the spec and none of our extensions
// (test/support/spec-only-server.ts in front of the real local service), signed in through "Another
// server". Each screen is used the way a person would, what the service then holds is read back through
// the API as a second client, and after every test the app has asked that server for nothing outside the
// spec. Tokens live in a memory secret store (no OS keychain on a test machine).

let app: SpecOnlyApp;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});

test.afterAll(async () => {
  await app.close();
});

test.afterEach(async ({ page }) => {
  expect(app.spec.refused).toEqual([]);
  // No screen shows a raw error: no stack, no `[object Object]`, no bare status line.
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\bat \S+ \(|\[object Object\]|TypeError|undefined|HTTP 404/);
});

async function openApp(page: Page): Promise<void> {
  await page.goto(app.mode.url);
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}

async function conversationIds(): Promise<string[]> {
  const answer = await app.api.listConversations(app.agentId);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.map((c) => c.id);
}

/**
 * Starts a conversation in the app and returns its id, as the server holds it. + New opens an empty
 * conversation an earlier test left, if there is one, instead of adding another.
 */
async function newConversation(page: Page): Promise<string> {
  const before = await conversationIds();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(
    page.getByRole('region', { name: 'Chat' }).getByRole('heading', { level: 2, name: 'New conversation' }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const listed = await app.api.listConversations(app.agentId);
  if (!listed.ok) throw new Error(listed.error.message);
  const added = listed.value.filter((c) => !before.includes(c.id));
  const empty = listed.value.filter((c) => !c.lastTurn && !c.title);
  const opened = added.length === 1 ? added : empty;
  expect(opened).toHaveLength(1);
  return opened[0]!.id;
}

/** Sends `text` and waits for the whole reply, which says `expected`. */
async function sendAndWait(page: Page, text: string, expected: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText(expected, { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

test('signs in to the spec-only server', async ({ page }) => {
  await signInToSpecOnly(page, app);
});

test('file library: upload, list, a working signed link, delete after asking', async ({ page, context }) => {
  await openApp(page);
  await showScreen(page, 'File library');
  await expect(page.getByRole('heading', { name: 'File library' })).toBeVisible();
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles([{ name: 'spec-notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# spec\n') }]);
  const row = page
    .getByRole('table', { name: 'Files' })
    .getByRole('row')
    .filter({ hasText: 'spec-notes.md' });
  await expect(row).toBeVisible();
  const held = await app.api.listFiles();
  if (!held.ok) throw new Error(held.error.message);
  expect(held.value.map((f) => f.name)).toContain('spec-notes.md');

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.mode.origin });
  await row.getByRole('button', { name: 'Copy link to spec-notes.md' }).click();
  const link = await page.evaluate<string>('navigator.clipboard.readText()');
  const served = await fetch(link);
  expect(served.status).toBe(200);
  expect(await served.text()).toBe('# spec\n');

  await row.getByRole('button', { name: 'Delete spec-notes.md' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this file?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row).toHaveCount(0);
  const after = await app.api.listFiles();
  if (!after.ok) throw new Error(after.error.message);
  expect(after.value.map((f) => f.name)).not.toContain('spec-notes.md');
});

test('conversation header: rename, share and stop sharing, export, archive', async ({ page }) => {
  await controlPageTime(page);
  await openApp(page);
  const sessionId = await newConversation(page);
  await sendAndWait(page, 'echo header check', 'header check');

  await chooseInHeaderMenu(page, 'Rename…');
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByLabel('New name').fill('Spec header');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('list', { name: 'Conversation list' })).toContainText('Spec header');
  const list = await app.api.listConversations(app.agentId);
  if (!list.ok) throw new Error(list.error.message);
  expect(list.value.find((c) => c.id === sessionId)?.title).toBe('Spec header');

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  const link = share.getByRole('textbox', { name: 'Public link' });
  // The public page is the spec's `/s/{slug}` on the server the person signed in to.
  await expect(link).toHaveValue(new RegExp(`^${app.spec.url}/s/`));
  const shared = await app.api.getSharing(app.agentId, sessionId);
  expect(shared.ok && shared.value.shared).toBe(true);
  await share.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(share.getByRole('button', { name: 'Create public link' })).toBeVisible();
  const sharing = await app.api.getSharing(app.agentId, sessionId);
  if (!sharing.ok) throw new Error(sharing.error.message);
  expect(sharing.value.shared).toBe(false);
  await share.getByRole('button', { name: 'Done' }).click();

  const download = page.waitForEvent('download');
  await chooseInHeaderMenu(page, 'Export as Markdown');
  const markdown = await readFile((await (await download).path())!, 'utf8');
  expect(markdown).toContain('echo header check');

  await chooseInHeaderMenu(page, 'Archive');
  await expect(page.getByRole('list', { name: 'Conversation list' })).not.toContainText('Spec header');
  // The app holds the DELETE while Undo is offered, then sends it.
  await runOutUndo(page);
  await expect.poll(conversationIds).not.toContain(sessionId);
});

test('scheduled turns: one is scheduled, listed, and cancelled after asking', async ({ page }) => {
  await openApp(page);
  const sessionId = await newConversation(page);
  await chooseInHeaderMenu(page, 'Schedule a message…');
  const panel = page.getByRole('region', { name: 'Scheduled messages' });
  await expect(panel).toContainText('Nothing is scheduled in this conversation.');
  await panel.getByLabel('Message to send').fill('echo later');
  await panel.getByLabel('Minutes from now').fill('30');
  await panel.getByRole('button', { name: 'Schedule' }).click();
  const item = panel.getByRole('list', { name: 'Scheduled list' }).getByRole('listitem');
  await expect(item).toContainText('echo later');
  const stored = async () => {
    const answer = await app.api.listSchedule(app.agentId, sessionId);
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value;
  };
  expect((await stored()).map((s) => s.prompt)).toEqual(['echo later']);
  await item.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this scheduled message?' })
    .getByRole('button', { name: 'Cancel it' })
    .click();
  await expect(item).toHaveCount(0);
  expect(await stored()).toEqual([]);
});

test('connectors: listed with their state; Connect goes through the provider', async ({ page }) => {
  await openApp(page);
  await showScreen(page, 'Connectors');
  const demo = page.getByRole('list', { name: 'Connector list' }).getByRole('listitem').first();
  await expect(demo).toContainText('Not connected');
  const popup = page.waitForEvent('popup');
  await demo.getByRole('button', { name: 'Connect' }).click();
  const provider = await popup;
  await provider.getByRole('button', { name: 'Allow' }).click();
  await expect(provider.getByRole('heading', { name: /is connected/ })).toBeVisible();
  await provider.close();
  await page.bringToFront();
  await page.evaluate("window.dispatchEvent(new Event('focus'))");
  await expect(demo).toContainText('Connected');
  const held = await app.api.listConnectors();
  if (!held.ok) throw new Error(held.error.message);
  expect(held.value.some((c) => c.connected)).toBe(true);
});

test('account names the spec-only server and its scopes; settings open', async ({ page }) => {
  await openApp(page);
  await showScreen(page, 'Account');
  const signedIn = page.getByRole('region', { name: 'Signed in' });
  await expect(signedIn.getByLabel('Server')).toHaveText(app.spec.url);
  await expect(signedIn.getByRole('list', { name: 'Granted scopes' })).toContainText('agents:write');
  await page.screenshot({ path: join(screens, 'spec-only-account.png'), fullPage: true });

  await showScreen(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Same as the system' })).toBeVisible();
});

test('search finds what was said through the spec-only server', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await sendAndWait(page, 'echo platypus harbour', 'platypus harbour');
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill('platyp');
  const result = palette.getByRole('list', { name: 'Search results' }).getByRole('button').first();
  await expect(result).toContainText(/platypus/i, { timeout: 20_000 });
  await page.keyboard.press('Escape');
});

test('a reload mid-reply picks the stream up from the reply’s start, without doubled text', async ({
  page,
}) => {
  await openApp(page);
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  // Long enough that the reload lands while the reply runs, on a busy machine too (with 3 s the reply had
  // sometimes ended before the page came back, and the history showed it instead of the stream).
  await box.fill('wait 12');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('Waiting 12 seconds');
  await page.reload();
  await expect(reply).toHaveAttribute('aria-busy', 'true');
  await expect(reply).toContainText('Done waiting 12 seconds.', { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  const all = await page.getByRole('log', { name: 'Messages' }).innerText();
  expect(all.split('Waiting 12 seconds').length - 1).toBe(1);
  expect(all.split('Done waiting 12 seconds.').length - 1).toBe(1);
});

test('sign out revokes the sign-in on the server', async ({ page }) => {
  await app.api.listAgents(); // the test's own sign-in, which must outlive the app's
  const before = await liveSignIns(app.service, DEFAULT_EMAIL);
  await openApp(page);
  await showScreen(page, 'Account');
  await page.getByRole('region', { name: 'Signed in' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Start on this computer' })).toBeVisible();
  expect(await liveSignIns(app.service, DEFAULT_EMAIL)).toBe(before - 1);
});
