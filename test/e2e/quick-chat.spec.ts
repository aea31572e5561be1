import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { openApp, screens, type AppSession } from './support/app-session';
import { seriousViolations } from './support/axe-themes';
import {
  chatApp,
  chatTitle,
  messageBox,
  messagesOf,
  replies,
  replyEnded,
  yourMessages,
} from './support/chat-page';

// The quick chat (issue 39, item 9): the desktop app's small window on top is the app's page at #quick, walked
// here in browser mode against the real local service (the Electron half, the window and its shortcut, is
// main-process.test.ts with electron mocked). Browser mode has no window to close: Escape and "Open in
// AgentDesk" ask the host to close the quick window (closeQuick), the host answers that only the desktop app
// has one, and the tab goes to the main page instead.

const session = chatApp('quick@example.test');
let app: AppSession;
let helperId: string;

/** The quick window: a page of its own, as the desktop app opens it (the launch key, then `quick`). */
async function openQuick(page: Page): Promise<void> {
  await page.goto(`${app.mode.url}&quick`);
  await expect(page.getByRole('heading', { name: 'Quick chat' })).toBeVisible();
  await expect(messageBox(page)).toBeFocused();
}

/** A window the quick window's size (a context of its own: axe needs one). */
const quickPage = async (browser: Browser) =>
  (await browser.newContext({ viewport: { width: 560, height: 480 } })).newPage();

const uiState = async () =>
  JSON.parse(await readFile(join(app.dataDir, 'ui-state.json'), 'utf8')) as { lastAgentId: string };

test.beforeAll(async () => {
  app = session.app();
  const made = await app.api('/api/v2/me/agents', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ nombre: 'Helper' }),
  });
  expect(made.status).toBe(201);
  helperId = ((await made.json()) as { id: string }).id;
});

test('the agent used last, Enter sends, the reply streams below, and the conversation is real', async ({
  page,
  browser,
}) => {
  // The main window: Helper is the agent used last (the window remembers it in ui-state.json).
  await openApp(page, app);
  await page
    .getByRole('navigation', { name: 'Agents' })
    .getByRole('button', { name: /^Helper/ })
    .click();
  await expect.poll(async () => (await uiState()).lastAgentId).toBe(helperId);

  const quick = await quickPage(browser);
  await openQuick(quick);
  await expect(quick.getByRole('combobox', { name: 'Agent' })).toHaveValue(helperId);
  const text = 'What is the quick window for?';
  await messageBox(quick).fill(text);
  await messageBox(quick).press('Enter');
  // Once the reply has ended the message also offers Edit: its words are checked, not the whole card's.
  await expect(yourMessages(quick)).toHaveCount(1);
  await expect(yourMessages(quick)).toContainText(text);
  await replyEnded(quick, 1);
  await expect(replies(quick).first()).not.toBeEmpty();
  expect(await seriousViolations(quick)).toEqual([]);
  await quick.screenshot({ path: join(screens, 'quick-chat.png') });

  // On the server: a new conversation of Helper holding the question and its answer.
  const listed = (await (await app.api(`/api/v2/me/agents/${helperId}/conversations`)).json()) as {
    conversaciones: { id: string }[];
  };
  const found = [];
  for (const item of listed.conversaciones) {
    const messages = await messagesOf(app, helperId, item.id);
    if (messages[0]?.content === text) found.push({ id: item.id, messages });
  }
  expect(found).toHaveLength(1);
  expect(found[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

  // "Open in AgentDesk" carries on in the main window: that conversation, chosen in Helper's list.
  await quick.getByRole('button', { name: 'Open in AgentDesk' }).click();
  await expect(quick.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  await expect(quick).not.toHaveURL(/quick/);
  await expect(yourMessages(quick)).toHaveCount(1);
  await expect(yourMessages(quick)).toContainText(text);
  const rows = quick.getByRole('region', { name: 'Conversations' });
  await expect(rows.locator('[aria-current="true"]')).toHaveCount(1);
  await expect(chatTitle(quick)).not.toHaveText('New conversation');
  // The main window that stayed open finds it in its list too.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Conversations' })).toContainText(
    (await chatTitle(quick).textContent()) ?? '',
  );
  await quick.context().close();
});

test('each opening is a new conversation, another agent can be picked, and Escape leaves', async ({
  browser,
}) => {
  const quick = await quickPage(browser);
  // What the page asks the host to close: the bridge's calls as they cross its socket.
  const closeCalls: unknown[] = [];
  quick.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string; name?: string; args?: unknown[] };
      if (message.type === 'call' && message.name === 'closeQuick') closeCalls.push(message.args);
    }),
  );
  await openQuick(quick);
  // Nothing of the last quick chat: a fresh conversation with the agent used last.
  await expect(yourMessages(quick)).toHaveCount(0);
  await quick.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Assistant' });
  await expect(messageBox(quick)).toBeVisible();
  await quick.keyboard.press('Escape');
  // Escape asks the host to close the quick window (closeQuick, no place to open); browser mode has no such
  // window (the host says so), so the tab shows the main page instead.
  await expect.poll(() => closeCalls).toEqual([[null]]);
  await expect(quick.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  await expect(quick).not.toHaveURL(/quick/);
  await expect(quick.getByRole('heading', { name: 'Quick chat' })).toHaveCount(0);
  await quick.context().close();
});
