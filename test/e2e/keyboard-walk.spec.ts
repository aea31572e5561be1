import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { signIn as apiSignIn } from '../support/local-service';
import {
  expectFocusKept,
  expectFocusShown,
  focusedWords as focusedWordsOf,
  tabAndPress,
  tabTo,
} from './support/keyboard';
import { startWalkRig } from './support/new-user-walk';

// Issue 29, item 9: every flow by keyboard alone. Each step is a key press (Tab, Shift+Tab, arrows, Enter,
// Space, Escape, typing, the app's shortcuts); no click, no fill, no focus() from the test. At every Tab the
// focus must be drawn and on something; after every dialog it is back on the page, never on the body.
// Browser mode on the real local service and its demo agent; what the server keeps is checked through the
// API. Tokens live in a memory secret store (no OS keychain on a test machine).

const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
const EMAIL = 'keys-only@example.test';
const PASSWORD = 'a long enough password';

test('the first run on This computer, by keyboard: Tab to Start, Enter, and the focus is in the app', async ({
  page,
}) => {
  const rig = await startWalkRig();
  try {
    await page.goto(rig.mode.url);
    const start = page.getByRole('button', { name: 'Start on this computer' });
    await expect(start).toBeVisible();
    await tabAndPress(page, start);
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    // The first screen's message box takes the focus, so typing starts a conversation at once.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await expectFocusShown(page);
  } finally {
    await rig.close();
  }
});

test.describe('with a password account', () => {
  test.describe.configure({ mode: 'serial' });
  let mode: BrowserMode;
  let scratch: string;
  let token = '';
  const api = async (path: string, init: RequestInit = {}) => {
    const service = mode.service()!;
    token ||= (await apiSignIn(service, { email: EMAIL, password: PASSWORD })).access_token;
    return fetch(`${service.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  };
  const agents = async () =>
    ((await (await api('/api/v2/me/agents')).json()) as { agentes: { id: string; nombre: string }[] })
      .agentes;

  test.beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'agentdesk-keys-'));
    mode = await startBrowserMode({
      rendererDir,
      dataDir: join(scratch, 'data'),
      secrets: createMemorySecretStore(),
      trustedLaunch: false,
    });
  });
  // No step may break the page: an error thrown in it fails the walk.
  let pageErrors: string[] = [];
  test.beforeEach(({ page }) => {
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(`${error.message}\n${error.stack ?? ''}`));
  });
  test.afterEach(() => {
    expect(pageErrors).toEqual([]);
  });
  test.afterAll(async () => {
    await mode?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  test('sign in on the service page, then make, rename and delete an agent', async ({ page }) => {
    await page.goto(mode.url);
    const start = page.getByRole('button', { name: 'Start on this computer' });
    await expect(start).toBeVisible();
    const popup = page.waitForEvent('popup');
    await tabAndPress(page, start);
    const tab = await popup;
    // The service's own page: create the account by keyboard.
    await expect(tab.getByRole('button', { name: 'Create account' })).toBeVisible();
    await tabTo(tab, tab.getByLabel('E-mail'));
    await tab.keyboard.type(EMAIL);
    await tabTo(tab, tab.getByLabel('Password (at least 8 characters)'));
    await tab.keyboard.type(PASSWORD);
    await tabTo(tab, tab.getByLabel('Repeat the password'));
    await tab.keyboard.type(PASSWORD);
    await tab.keyboard.press('Enter');
    await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
    await tab.close();
    await page.bringToFront();
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    // Back in the app, the focus is in its message box, as after a first run with no password.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

    // New agent: the dialog takes the focus on its name; Enter creates it.
    const list = page.getByRole('navigation', { name: 'Agents' });
    await tabAndPress(page, list.getByRole('button', { name: /New agent/ }), 'Enter', true);
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
    await page.keyboard.type('Keyboard helper');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expectFocusKept(page);
    await expect.poll(async () => (await agents()).map((a) => a.nombre)).toContain('Keyboard helper');
    await expect(list.getByRole('button', { name: /^Keyboard helper/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    // Rename it: the dialog's field, Enter, and the focus back on Rename.
    const rename = list.getByRole('button', { name: 'Rename Keyboard helper' });
    await tabAndPress(page, rename, 'Enter', true);
    const renameDialog = page.getByRole('dialog', { name: 'Rename agent' });
    await expect(renameDialog.getByRole('textbox')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Keys only');
    await page.keyboard.press('Enter');
    await expect(renameDialog).toBeHidden();
    await expectFocusKept(page, list.getByRole('button', { name: 'Rename Keys only' }));
    await expect.poll(async () => (await agents()).map((a) => a.nombre)).toContain('Keys only');

    // Escape leaves the delete dialog with nothing deleted, the focus on Delete again.
    const remove = list.getByRole('button', { name: 'Delete Keys only' });
    await tabAndPress(page, remove);
    const deleteDialog = page.getByRole('dialog', { name: 'Delete Keys only?' });
    await expect(deleteDialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(deleteDialog).toBeHidden();
    await expectFocusKept(page, remove);

    // Delete it: the focus lands on the agent now selected, in the list (its Delete is gone with one left).
    await page.keyboard.press('Enter');
    await expect(deleteDialog).toBeVisible();
    await tabAndPress(page, deleteDialog.getByRole('button', { name: 'Delete agent' }));
    await expect(deleteDialog).toBeHidden();
    await expect.poll(async () => (await agents()).length).toBe(1);
    const remaining = (await agents())[0]!;
    const row = list.getByRole('button', { name: new RegExp(`^${remaining.nombre}`) });
    await expect(row).toHaveAttribute('aria-current', 'true');
    await expect(row).toBeFocused();
    await expectFocusShown(page);
  });
  test('a chat by keyboard: send, stop, retry, branch, a permission, the model, an attachment', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: mode.origin });
    await page.goto(mode.url);
    const box = page.getByRole('textbox', { name: 'Message' });
    const replies = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Agent reply' });
    const ended = async (count: number) => {
      await expect(replies).toHaveCount(count, { timeout: 30_000 });
      await expect(replies.last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    };
    const [agent] = await agents();
    const conversations = async () =>
      (
        (await (await api(`/api/v2/me/agents/${agent!.id}/conversations`)).json()) as {
          conversaciones: { id: string; titulo: string | null }[];
        }
      ).conversaciones;
    const messages = async (id: string) =>
      (
        (await (await api(`/api/v2/me/agents/${agent!.id}/conversations/${id}?limit=200`)).json()) as {
          messages: { role: string; content: string }[];
        }
      ).messages;

    // A new conversation by its shortcut; the message box has the focus; Enter sends.
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    await page.keyboard.press('Control+Shift+O');
    await expect(box).toBeFocused();
    await page.keyboard.type('fail');
    await page.keyboard.press('Enter');
    await ended(1);
    await expect(box).toBeFocused();
    const sessionId = (await conversations())[0]!.id;

    // Retry beside the failure's reason (in place: the failed exchange is replaced): Shift+Tab to the reply, Enter into it, Tab to Retry.
    await tabTo(page, replies.last(), { back: true });
    await page.keyboard.press('Enter');
    await tabTo(page, replies.last().getByRole('button', { name: 'Retry' }));
    await page.keyboard.press('Enter');
    // The failed reply on screen ends the same way: wait for the new version before reading it as ended.
    await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
    await ended(1);
    await expect
      .poll(async () => (await messages(sessionId)).filter((m) => m.role === 'user').length)
      .toBe(1);

    // Stop a running reply from the keyboard; the focus goes back to the message box, not the body.
    await tabTo(page, box);
    await page.keyboard.type('wait 20');
    await page.keyboard.press('Enter');
    await expect(replies.last()).toContainText('Waiting 20 seconds');
    await tabAndPress(page, page.getByRole('button', { name: 'Stop', exact: true }));
    await expect(replies.last()).toContainText('Stopped');
    await expectFocusKept(page);

    // The model: the header's picker, changed with the arrow keys; the next reply uses it.
    const picker = page.getByRole('combobox', { name: 'Model' });
    await tabTo(page, picker, { back: true });
    await page.keyboard.press('ArrowDown');
    await expect(picker).toHaveValue('demo-deep');
    await tabTo(page, box);
    await page.keyboard.type('which model');
    await page.keyboard.press('Enter');
    await ended(3);
    await expect(replies.last()).toContainText('(model: demo-deep)');

    // An attachment: Attach files opens the system's file chooser (answered here, as the system would).
    const chooser = page.waitForEvent('filechooser');
    await tabAndPress(page, page.getByRole('button', { name: 'Attach files' }), 'Enter', true);
    await (
      await chooser
    ).setFiles({ name: 'keys.txt', mimeType: 'text/plain', buffer: Buffer.from('typed') });
    await expect(page.getByRole('button', { name: 'Remove keys.txt' })).toBeVisible();
    await tabTo(page, box);
    await page.keyboard.type('with a file');
    await page.keyboard.press('Enter');
    await ended(4);
    // The agent received the file: the reply the server keeps names it.
    await expect.poll(async () => (await messages(sessionId)).at(-1)?.content ?? '').toContain('keys.txt');

    // A permission question: Enter on the reply goes straight to its first answer.
    await page.keyboard.type('write notes.txt');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('```');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('from the keyboard');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('```');
    await page.keyboard.press('Enter');
    const card = replies.last().getByRole('region', { name: /Permission request/ });
    await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible({ timeout: 30_000 });
    await tabTo(page, replies.last(), { back: true });
    await page.keyboard.press('Enter');
    await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card).toContainText('Allowed once');
    // (Counted no more: the transcript keeps only the rows on screen in the page.)
    await expect(replies.last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    await expectFocusKept(page);

    // Branch from the first reply: the new conversation opens, with the focus on the page.
    await tabTo(page, replies.last(), { back: true });
    await page.keyboard.press('Home');
    const first = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Your message' });
    await expect(first.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(replies.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await tabAndPress(page, replies.first().getByRole('button', { name: 'Branch' }));
    await expect(
      page.getByRole('region', { name: 'Chat' }).getByRole('heading', { level: 2, name: /\(branch\)/ }),
    ).toBeVisible();
    await expectFocusKept(page);
    await expect
      .poll(async () => (await conversations()).some((c) => /\(branch\)/.test(c.titulo ?? '')))
      .toBe(true);
  });
  test('schedules (a dialog at 900 px), sharing, search, settings, library, sync and configuration by keyboard', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(mode.url);
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeFocused();
    const chat = page.getByRole('region', { name: 'Chat' });
    const more = chat.getByRole('button', { name: 'More conversation actions' });

    // Schedule a message from the "…" menu: over a 900 px window the panel is a modal dialog.
    await tabAndPress(page, more, 'Enter', true);
    const menu = page.getByRole('menu', { name: 'More conversation actions' });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Schedule a message…' })).toBeFocused();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Scheduled messages' });
    await expect(panel.getByRole('textbox', { name: 'Message to send' })).toBeFocused();
    await page.keyboard.type('a word from the keyboard');
    // Tab stays inside the dialog (past its last stop only the browser's own bar, then back to its first).
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate<boolean>(
        `document.activeElement === document.body || !!document.activeElement?.closest('[aria-label="Scheduled messages"]')`,
      );
      expect(inside, `Tab left the dialog for ${await focusedWordsOf(page)}`).toBe(true);
    }
    await tabAndPress(page, panel.getByRole('button', { name: 'Schedule', exact: true }));
    await expect(panel.getByRole('list', { name: 'Scheduled list' })).toContainText(
      'a word from the keyboard',
    );
    // Escape closes it; the focus goes back to "…", which opened it.
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(more).toBeFocused();

    // Share: the dialog, a public link, Done; the focus back on Share.
    const share = chat.getByRole('button', { name: /^Share/ });
    await tabAndPress(page, share);
    const shareDialog = page.getByRole('dialog', { name: 'Share conversation' });
    await tabAndPress(page, shareDialog.getByRole('button', { name: 'Create public link' }));
    await expect(shareDialog.getByLabel('Public link')).not.toHaveValue('');
    await tabAndPress(page, shareDialog.getByRole('button', { name: 'Done' }));
    await expect(shareDialog).toBeHidden();
    await expectFocusKept(page, chat.getByRole('button', { name: /^Shared/ }));

    // Search everything ever said: its shortcut, a word, Enter on the first result; Escape from a second look.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Search all conversations' });
    await expect(palette).toBeVisible();
    await page.keyboard.type('model');
    await expect(
      palette.getByRole('list', { name: 'Search results' }).getByRole('listitem').first(),
    ).toBeVisible({
      timeout: 15_000,
    });
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    await expectFocusKept(page);

    // The sidebar's screens: Settings (a theme by the arrow keys), the file library (a file by its chooser).
    const app = page.getByRole('navigation', { name: 'App' });
    await tabAndPress(page, app.getByRole('button', { name: 'Settings' }), 'Enter', true);
    await expect(page.getByRole('region', { name: 'Settings' })).toBeVisible();
    const dark = page.getByRole('radio', { name: 'Dark' });
    const system = page.getByRole('radio', { name: 'Same as the system' });
    await tabTo(
      page,
      system
        .or(page.getByRole('radio', { name: 'Light' }))
        .or(dark)
        .and(page.locator(':checked')),
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(dark).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    await tabAndPress(page, app.getByRole('button', { name: 'File library' }), 'Enter', true);
    const chooser = page.waitForEvent('filechooser');
    await tabAndPress(page, page.getByRole('button', { name: 'Upload files' }));
    await (
      await chooser
    ).setFiles({ name: 'typed.md', mimeType: 'text/markdown', buffer: Buffer.from('# typed') });
    await expect(page.getByRole('table', { name: 'Files' })).toContainText('typed.md');
    await expect
      .poll(async () =>
        ((await (await api('/api/v2/me/files')).json()) as { archivos: { nombre: string }[] }).archivos.map(
          (f) => f.nombre,
        ),
      )
      .toContain('typed.md');

    // Back to the chat, then the sync panel and every section of the agent's configuration.
    await tabAndPress(page, app.getByRole('button', { name: 'Chats' }), 'Enter', true);
    await expect(box).toBeVisible();
    await tabAndPress(page, page.getByRole('button', { name: /^Sync folder/ }), 'Enter', true);
    await expect(page.getByRole('region', { name: /^Sync folder · / })).toBeVisible();
    await expectFocusKept(page);

    await tabAndPress(page, page.getByRole('button', { name: /^Configure agent/ }), 'Enter', true);
    const sections = page.getByRole('navigation', { name: /sections/ }).getByRole('button');
    await expect(sections.first()).toBeVisible();
    const titles = await sections.allInnerTexts();
    expect(titles.length).toBeGreaterThan(3);
    for (const title of titles) {
      const button = page
        .getByRole('navigation', { name: /sections/ })
        .getByRole('button', { name: title, exact: true });
      await tabAndPress(page, button, 'Enter', (await button.boundingBox())!.y < 0);
      await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
    }

    // An edit saved by keyboard: the first section's prompt, Tab to Save, Enter; the focus stays on the page.
    const firstSection = page
      .getByRole('navigation', { name: /sections/ })
      .getByRole('button')
      .first();
    await tabAndPress(page, firstSection, 'Enter', true);
    await tabTo(page, page.getByRole('textbox', { name: 'Prompt' }));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Answer in short sentences.');
    await tabAndPress(page, page.getByRole('button', { name: /^Save/ }));
    const agentId = (await agents())[0]!.id;
    await expect
      .poll(
        async () => ((await (await api(`/api/v2/agents/${agentId}`)).json()) as { prompt?: string }).prompt,
      )
      .toBe('Answer in short sentences.');
    await expectFocusKept(page);
  });
  test('conversation moves by keyboard: rename, a library file, search, archive and undo, schedules beside a wide window', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.goto(mode.url);
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeFocused();
    const chat = page.getByRole('region', { name: 'Chat' });
    const title = chat.locator('h2.chat-title');
    const [agent] = await agents();
    const conversations = async () =>
      (
        (await (await api(`/api/v2/me/agents/${agent!.id}/conversations`)).json()) as {
          conversaciones: { id: string; titulo: string | null }[];
        }
      ).conversaciones;

    // Rename by F2: the dialog, a new name, Enter; the focus back in the chat, the server has the name.
    // F2 renames the open conversation: wait until the restored one is open (a busy machine focuses the
    // message box before the list has come back).
    const list = page.getByRole('list', { name: 'Conversation list' });
    await expect(list).toHaveAttribute('aria-busy', 'false');
    await expect(list.locator('[aria-current="true"]')).toBeVisible();
    await page.keyboard.press('F2');
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await expect(rename.getByRole('textbox')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Typed by hand');
    await page.keyboard.press('Enter');
    await expect(rename).toBeHidden();
    await expect(title).toHaveText('Typed by hand');
    await expectFocusKept(page);
    await expect.poll(async () => (await conversations()).map((c) => c.titulo)).toContain('Typed by hand');

    // A file of the library: the picker's search, Space on the file, Tab to Attach; then send.
    await tabAndPress(page, page.getByRole('button', { name: 'Attach from library' }), 'Enter', true);
    const picker = page.getByRole('dialog', { name: 'Attach from your library' });
    await expect(picker).toBeVisible();
    await tabAndPress(page, picker.getByRole('checkbox', { name: /typed\.md/ }), ' ');
    await tabAndPress(page, picker.getByRole('button', { name: /^Attach/ }));
    await expect(picker).toBeHidden();
    await expectFocusKept(page);
    await expect(page.getByRole('button', { name: 'Remove typed.md' })).toBeVisible();
    await tabTo(page, box);
    await page.keyboard.type('the library file');
    await page.keyboard.press('Enter');
    const replies = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Agent reply' });
    await expect(replies.last()).toContainText('typed.md', { timeout: 30_000 });

    // Search: a word, the arrow keys, Enter opens the conversation that holds it.
    await page.keyboard.press('Control+Shift+O');
    await expect(title).toHaveText('New conversation');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Search all conversations' });
    await page.keyboard.type('the library file');
    await expect(
      palette.getByRole('list', { name: 'Search results' }).getByRole('listitem').first(),
    ).toBeVisible({
      timeout: 15_000,
    });
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    await expect(title).toHaveText('Typed by hand');
    await expectFocusKept(page);

    // The schedule panel beside a wide window: the focus in it, Escape closes it, the focus back on "…".
    const more = chat.getByRole('button', { name: 'More conversation actions' });
    await tabAndPress(page, more, 'Enter', true);
    const menu = page.getByRole('menu', { name: 'More conversation actions' });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Schedule a message…' })).toBeFocused();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Scheduled messages' });
    await expect(panel.getByRole('textbox', { name: 'Message to send' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(more).toBeFocused();

    // Archive by its shortcut: no question first, the focus lands on Undo; Enter undoes.
    await page.keyboard.press('Control+Shift+Backspace');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const undo = page.getByRole('button', { name: 'Undo' });
    await expect(undo).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(undo).toBeHidden();
    await expectFocusKept(page);
    await expect(page.getByRole('list', { name: 'Conversation list' })).toContainText('Typed by hand');
    await expect.poll(async () => (await conversations()).map((c) => c.titulo)).toContain('Typed by hand');
  });
});
