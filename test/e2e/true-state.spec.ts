import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { chooseInHeaderMenu } from './support/header-menu';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';

// Issue 29, item 5: what the app shows is what is true. Browser mode against the real local service and
// its demo agent; where the server's state changes, it is read back through the API as a second client.

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'true-state@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

interface Listed {
  conversaciones: { id: string; titulo: string | null; ultimoTurno: { estado: string } | null }[];
}
const conversations = async () =>
  ((await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as Listed).conversaciones;
const lastTurnState = async (sessionId: string) =>
  (await conversations()).find((c) => c.id === sessionId)?.ultimoTurno?.estado;

const chat = (page: Page) => page.getByRole('region', { name: 'Chat' });
const lastReply = (page: Page) => page.getByRole('article', { name: 'Agent reply' }).last();
const selectedRow = (page: Page) =>
  page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');

/** A new conversation, opened; returns its id as the server knows it. */
async function newConversation(page: Page): Promise<string> {
  const before = new Set((await conversations()).map((c) => c.id));
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect.poll(async () => (await conversations()).some((c) => !before.has(c.id))).toBe(true);
  return (await conversations()).find((c) => !before.has(c.id))!.id;
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

async function replyDone(page: Page): Promise<void> {
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

test('the header names the model the next reply uses, and the note leaves once that reply starts', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await send(page, 'hi');
  await replyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-fast)');
  const picker = chat(page).getByRole('combobox', { name: 'Model' });
  await expect(picker).toHaveValue('demo-fast');

  await picker.selectOption('demo-deep');
  const note = chat(page).getByRole('status').filter({ hasText: 'applies from the next reply' });
  await expect(note).toBeVisible();
  await expect(picker).toHaveValue('demo-deep');

  await send(page, 'hi again');
  await expect(note).toHaveCount(0);
  await replyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-deep)');
  await expect(picker).toHaveValue('demo-deep');

  // A reload before the next reply still names the chosen model (the server says it only when that reply starts).
  await picker.selectOption('demo-fast');
  await expect(note).toBeVisible();
  await page.reload();
  await expect(lastReply(page)).toContainText('(model: demo-deep)');
  await expect(picker).toHaveValue('demo-fast');
  await send(page, 'and once more');
  await expect(page.getByRole('article', { name: 'Agent reply' })).toHaveCount(3);
  await replyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-fast)');
  await expect(picker).toHaveValue('demo-fast');
});

test('the note leaves once the next reply starts, though the history was read again meanwhile', async ({
  page,
}) => {
  // The history read of a conversation opened again is held: it lands after the choice of model, and takes
  // the finished reply off the live timeline, as a slow host does.
  const host = await heldAnswers(page, 'openConversation');
  await openApp(page, app);
  await newConversation(page);
  await send(page, 'elsewhere');
  await replyDone(page);
  await newConversation(page);
  await send(page, 'hello there');
  await replyDone(page);
  const rows = page.getByRole('list', { name: 'Conversation list' });
  const picker = chat(page).getByRole('combobox', { name: 'Model' });
  await expect(picker).toHaveValue('demo-fast');

  host.hold();
  // By the heading: with the read held, what the thread shows is what an earlier read left.
  const heading = chat(page).getByRole('heading', { level: 2 });
  await rows.getByRole('button', { name: /^elsewhere/ }).click();
  await expect(heading).toHaveText('elsewhere');
  await rows.getByRole('button', { name: /^hello there/ }).click();
  await expect(heading).toHaveText('hello there');
  await picker.selectOption('demo-deep');
  const note = chat(page).getByRole('status').filter({ hasText: 'applies from the next reply' });
  await expect(note).toBeVisible();
  // The held answers reach the page before anything of the reply asked for after them.
  host.release();

  await send(page, 'and now');
  await expect(note).toHaveCount(0);
  await replyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-deep)');
});

test('a reply waiting for a permission says "Waiting for you"; the answered card names the choice', async ({
  page,
}) => {
  await openApp(page, app);
  const sessionId = await newConversation(page);
  await send(page, 'write waiting.txt\n```\nwaiting\n```');
  const card = lastReply(page).getByRole('region', { name: /Permission request/ });
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  // The server says only "running"; the list knows the reply waits for the person.
  expect(await lastTurnState(sessionId)).toBe('running');
  await expect(selectedRow(page).getByLabel('Last reply: Waiting for you')).toBeVisible();

  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(card).toContainText('Allowed once');
  await replyDone(page);
  // Done needs no badge: the row's "Waiting for you" is gone.
  await expect(selectedRow(page).getByLabel(/Last reply:/)).toHaveCount(0);
  await expect.poll(() => lastTurnState(sessionId)).toBe('done');
});

test('a stopped reply says Stopped, in the list and on its tool; a failed one says Failed', async ({
  page,
}) => {
  await openApp(page, app);
  const sessionId = await newConversation(page);
  await send(page, 'wait 30');
  await expect(lastReply(page)).toContainText('Waiting 30 seconds');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(lastReply(page)).toContainText('Stopped.');
  const tool = lastReply(page).getByRole('group', { name: /Tool call/ });
  await expect(tool.getByLabel('Tool status')).toHaveText('Stopped');
  await expect(lastReply(page)).not.toContainText('Failed');
  await expect(selectedRow(page).getByLabel('Last reply: Stopped')).toBeVisible();
  await expect.poll(() => lastTurnState(sessionId)).toBe('stopped');

  await send(page, 'fail');
  await replyDone(page);
  await expect(selectedRow(page).getByLabel('Last reply: Failed')).toBeVisible();
  await expect.poll(() => lastTurnState(sessionId)).toBe('error');
});

test('export uses the title given by a rename', async ({ page }) => {
  await openApp(page, app);
  const sessionId = await newConversation(page);
  await send(page, 'echo before the rename');
  await replyDone(page);
  await chooseInHeaderMenu(page, 'Rename…');
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByLabel('New name').fill('Renamed for export');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect
    .poll(async () => (await conversations()).find((c) => c.id === sessionId)?.titulo)
    .toBe('Renamed for export');
  const download = page.waitForEvent('download');
  await chooseInHeaderMenu(page, 'Export as Markdown');
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^Renamed-for-export\.md$/);
  expect(await readFile((await saved.path())!, 'utf8')).toMatch(/^# Renamed for export/);
});

test('the header still knows a conversation is shared after a reload', async ({ page }) => {
  await openApp(page, app);
  const sessionId = await newConversation(page);
  await send(page, 'echo share me');
  await replyDone(page);
  await chat(page).getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  await expect(share.getByRole('textbox', { name: 'Public link' })).toBeVisible();
  await share.getByRole('button', { name: 'Done' }).click();
  const sharing = await app.api(`/api/v2/me/agents/${agentId}/conversations/${sessionId}/share`);
  expect(((await sharing.json()) as { compartida: boolean }).compartida).toBe(true);

  await page.reload();
  await expect(selectedRow(page)).toBeVisible();
  await expect(chat(page).getByRole('button', { name: /^Shared/ })).toBeVisible();
});

test('a finished upload row leaves the library when its file is deleted', async ({ page }) => {
  await openApp(page, app);
  await showScreen(page, 'File library');
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles([{ name: 'short-lived.txt', mimeType: 'text/plain', buffer: Buffer.from('bye') }]);
  const upload = page
    .getByRole('list', { name: 'Uploads' })
    .getByRole('listitem', { name: /short-lived\.txt/ });
  await expect(upload).toContainText('Uploaded');
  const row = page
    .getByRole('table', { name: 'Files' })
    .getByRole('row')
    .filter({ hasText: 'short-lived.txt' });
  await row.getByRole('button', { name: /Delete/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(upload).toHaveCount(0);
  const files = (await (await app.api('/api/v2/me/files')).json()) as { archivos: { nombre: string }[] };
  expect(files.archivos.map((f) => f.nombre)).not.toContain('short-lived.txt');
});

test('the search highlight leaves when the person goes elsewhere; the palette opens empty', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await send(page, 'echo a rhubarb pie');
  await replyDone(page);
  await newConversation(page);

  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  const query = palette.getByRole('searchbox', { name: 'Search everything ever said' });
  await query.fill('rhubarb');
  const results = palette.getByRole('list', { name: 'Search results' }).getByRole('button');
  await expect(results.first()).toBeVisible({ timeout: 20_000 });
  await results.first().click();
  const highlighted = chat(page).locator('.search-target');
  await expect(highlighted).toHaveCount(1);
  await expect(highlighted).toContainText('rhubarb');
  const hitRow = selectedRow(page);
  const hitTitle = (await hitRow.innerText()).split('\n')[0]!;

  // Away to another conversation and back: the highlight does not come back with it.
  const list = page.getByRole('list', { name: 'Conversation list' });
  await list.locator('button.conversation').filter({ hasNotText: hitTitle }).first().click();
  await expect(highlighted).toHaveCount(0);
  await list.locator('button.conversation').filter({ hasText: hitTitle }).first().click();
  await expect(chat(page)).toContainText('rhubarb');
  await expect(highlighted).toHaveCount(0);

  await page.keyboard.press('Control+K');
  await expect(query).toHaveValue('');
  await expect(results).toHaveCount(0);
});
