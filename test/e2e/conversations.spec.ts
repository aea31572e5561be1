import { expect, test, type Page } from '@playwright/test';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';
import { conversationAction } from './support/new-user-walk';
import { controlPageTime, runOutUndo } from './support/page-clock';

// The everyday moves on the conversation list, in browser mode against the real local service and its demo
// agent: + New reuses an empty conversation, Archive waits for Undo before the spec's DELETE is sent,
// conversations started elsewhere appear without a reload, and dialogs give focus back to their opener.
// What the service holds is read back through the API as a second client of the same person.

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'conversations@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

// Undo's time and the list's refresh run out on the page's clock, not the test's.
test.beforeEach(async ({ page }) => {
  await controlPageTime(page);
});

interface Listed {
  id: string;
  titulo: string | null;
  ultimoTurno: { at: string } | null;
}

const listed = async (): Promise<Listed[]> =>
  (
    (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
      conversaciones: Listed[];
    }
  ).conversaciones;
const listedIds = async () => (await listed()).map((c) => c.id);

const chatTitle = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title');
const rows = (page: Page) => page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem');
const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const selected = (page: Page) =>
  page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');

async function talk(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await box(page).press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText(text.replace(/^echo /, ''), { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

/** A conversation with one exchange and a title of its own, made in the app; returns its id. */
async function conversationWith(page: Page, title: string): Promise<string> {
  // + New may open an empty conversation left by an earlier test: the one just talked in is the newest.
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(chatTitle(page)).toHaveText('New conversation');
  await talk(page, `echo ${title}`);
  const newest = (await listed())
    .filter((c) => c.ultimoTurno)
    .sort((a, b) => b.ultimoTurno!.at.localeCompare(a.ultimoTurno!.at))[0]!;
  await app.api(`/api/v2/me/agents/${agentId}/conversations/${newest.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  await page.reload();
  await expect(rows(page).filter({ hasText: title })).toHaveCount(1);
  return newest.id;
}

/** From the focused "…" button: opens the menu with `key`, moves with it to Archive… and chooses it. */
async function openArchiveByKeyboard(page: Page, key: 'ArrowDown' | 'ArrowUp'): Promise<void> {
  await page.keyboard.press(key);
  const item = page.getByRole('menuitem', { name: /^Archive/ });
  while (!(await item.evaluate((el) => el === el.ownerDocument.activeElement)))
    await page.keyboard.press(key);
  await page.keyboard.press('Enter');
}

/** Archive, from the chat header: no question first, since Undo follows. */
async function archiveSelected(page: Page): Promise<void> {
  await conversationAction(page, /^Archive/);
}

test('+ New opens the empty conversation instead of adding another, and makes a new one once it is used', async ({
  page,
}) => {
  await openApp(page, app);
  const before = await listedIds();
  const newButton = page.getByRole('button', { name: 'Start a new conversation' });
  await newButton.click();
  await expect(box(page)).toBeVisible();
  await expect.poll(async () => (await listedIds()).length).toBe(before.length + 1);
  const draft = (await listedIds()).find((id) => !before.includes(id));

  for (let i = 0; i < 3; i += 1) await newButton.click();
  // The keyboard shortcut is the same action.
  await page.keyboard.press('Control+Shift+O');
  await expect(rows(page)).toHaveCount(before.length + 1);
  expect(await listedIds()).toHaveLength(before.length + 1);
  await expect(selected(page)).toHaveCount(1);

  await talk(page, 'echo now it is used');
  await newButton.click();
  await expect.poll(async () => (await listedIds()).length).toBe(before.length + 2);
  await expect(rows(page)).toHaveCount(before.length + 2);
  expect((await listedIds()).filter((id) => id !== draft)).toHaveLength(before.length + 1);
});

test('Archive waits for Undo: the server still has it meanwhile, then the DELETE is sent', async ({
  page,
}) => {
  await openApp(page, app);
  const id = await conversationWith(page, 'Archive me for real');
  // Nothing is archived yet, so there is nothing to show.
  await expect(page.getByRole('button', { name: 'Show archived' })).toHaveCount(0);
  await rows(page).filter({ hasText: 'Archive me for real' }).getByRole('button').first().click();
  await archiveSelected(page);

  const toast = page.getByRole('status').filter({ hasText: 'Archived “Archive me for real”' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(rows(page).filter({ hasText: 'Archive me for real' })).toHaveCount(0);
  // Held, not sent: the server still lists it.
  expect(await listedIds()).toContain(id);
  // A list refresh meanwhile does not bring it back.
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
  await expect(rows(page).filter({ hasText: 'Archive me for real' })).toHaveCount(0);

  await runOutUndo(page);
  await expect(toast).toHaveCount(0);
  await expect.poll(listedIds).not.toContain(id);
  // Once the archive is sent, there is something to show.
  await expect(page.getByRole('button', { name: 'Show archived' })).toBeVisible();
  await page.reload();
  await expect(rows(page).first()).toBeVisible();
  await expect(rows(page).filter({ hasText: 'Archive me for real' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show archived' })).toBeVisible();
});

test('a list read before an archive and answered after it does not bring the conversation back', async ({
  page,
}) => {
  // The page's bridge socket holds the listing's answer, as a slow host would.
  const host = await heldAnswers(page, 'listConversations');
  await openApp(page, app);
  const id = await conversationWith(page, 'Archived while listing');
  host.hold();
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))"); // a list refresh, held
  await rows(page).filter({ hasText: 'Archived while listing' }).getByRole('button').first().click();
  await archiveSelected(page);
  await runOutUndo(page);
  await expect.poll(listedIds).not.toContain(id);
  // The page has the archive's answer (there is something to show now) before the listing's.
  await expect(page.getByRole('button', { name: 'Show archived' })).toBeVisible();
  // Archived for real: the listing, read while the server still had it, now arrives.
  host.release();
  // One more answer, asked for after it, has reached the page: so has the listing.
  await showScreen(page, 'Account');
  await expect(page.getByRole('list', { name: 'Saved servers list' })).toContainText('In use');
  await showScreen(page, 'Chats');
  await expect(page.getByRole('button', { name: 'Show archived' })).toBeVisible();
  // Read once, not waited for: the list's own refresh would take it away again some seconds later.
  expect(await rows(page).allInnerTexts()).not.toContainEqual(
    expect.stringContaining('Archived while listing'),
  );
});

test('Undo keeps the conversation: it comes back selected and is never archived on the server', async ({
  page,
}) => {
  await openApp(page, app);
  const kept = await conversationWith(page, 'Keep me please');
  const other = await conversationWith(page, 'Archive me later');

  await rows(page).filter({ hasText: 'Keep me please' }).getByRole('button').first().click();
  await archiveSelected(page);
  await expect(rows(page).filter({ hasText: 'Keep me please' })).toHaveCount(0);
  await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await expect(selected(page)).toContainText('Keep me please');
  await expect(page.getByRole('status').filter({ hasText: 'Archived' })).toHaveCount(0);

  // Another archive started after the Undo reaches the server only after the first one's time was up.
  await rows(page).filter({ hasText: 'Archive me later' }).getByRole('button').first().click();
  await archiveSelected(page);
  await runOutUndo(page);
  await expect.poll(listedIds).not.toContain(other);
  expect(await listedIds()).toContain(kept);
  await page.reload();
  await expect(rows(page).filter({ hasText: 'Keep me please' })).toHaveCount(1);
});

test('archive and Undo by keyboard alone: the menu, then Undo takes the focus (no question first)', async ({
  page,
}) => {
  await openApp(page, app);
  await conversationWith(page, 'Keyboard neighbour');
  const id = await conversationWith(page, 'Keyboard only');
  await rows(page).filter({ hasText: 'Keyboard only' }).getByRole('button').first().focus();
  await page.keyboard.press('Enter');
  await expect(selected(page)).toContainText('Keyboard only');

  const more = page
    .getByRole('region', { name: 'Chat' })
    .getByRole('button', { name: 'More conversation actions' });
  await more.focus();
  await openArchiveByKeyboard(page, 'ArrowDown');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const undo = page.getByRole('status').getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(selected(page)).toContainText('Keyboard only');
  expect(await listedIds()).toContain(id);

  // Escape on Undo goes on to the message box, and the archive goes ahead.
  await more.focus();
  await openArchiveByKeyboard(page, 'ArrowUp');
  await expect(undo).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(box(page)).toBeFocused();
  await runOutUndo(page);
  await expect.poll(listedIds).not.toContain(id);
});

test('dialogs and the search palette give the focus back to what opened them', async ({ page }) => {
  await openApp(page, app);
  await conversationWith(page, 'Focus check');
  const share = page.getByRole('region', { name: 'Chat' }).getByRole('button', { name: /^Share/ });
  await share.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Share conversation' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(share).toBeFocused();

  // Closed with its button this time.
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(share).toBeFocused();

  await box(page).focus();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await expect(palette).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await expect(box(page)).toBeFocused();

  // Escape still closes the palette when its focus drifted to the page body (a resize, a theme change):
  // an open modal left behind would cover the app and take every click.
  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
});

test('a conversation started elsewhere appears within 15 s, without a reload', async ({ page }) => {
  await openApp(page, app);
  await expect(rows(page).first()).toBeVisible();
  const created = (await (
    await app.api(`/api/v2/me/agents/${agentId}/conversations`, { method: 'POST' })
  ).json()) as { id: string };
  await app.api(`/api/v2/me/agents/${agentId}/conversations/${created.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Started on the CLI' }),
  });
  // 15 s of the page's time pass at once: the list's own refresh must have found it by then.
  await page.clock.fastForward(15_000);
  await expect(rows(page).filter({ hasText: 'Started on the CLI' })).toHaveCount(1);
});

test('Show archived lists an archived conversation, and Restore brings it back on the server', async ({
  page,
}) => {
  await openApp(page, app);
  const id = await conversationWith(page, 'Bring me back');
  await rows(page).filter({ hasText: 'Bring me back' }).getByRole('button').first().click();
  await archiveSelected(page);
  await runOutUndo(page);
  await expect.poll(listedIds).not.toContain(id);

  await page.getByRole('button', { name: 'Show archived' }).click();
  const archived = page.getByRole('list', { name: 'Archived list' });
  await expect(archived.getByRole('listitem').filter({ hasText: 'Bring me back' })).toBeVisible();
  await archived.getByRole('button', { name: 'Restore Bring me back' }).click();
  await expect(selected(page)).toContainText('Bring me back');
  await expect(archived.getByRole('listitem').filter({ hasText: 'Bring me back' })).toHaveCount(0);
  expect(await listedIds()).toContain(id);
  await expect(page.getByRole('article', { name: 'Your message' }).first()).toContainText('Bring me back');
});
