import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { showScreen } from './app-session';

/**
 * A new person's walk through every screen of the app, in browser mode on the real local service and its
 * demo agent: the first run, a chat with every kind of event (a reply, a thought, a tool call, an error, a
 * stopped reply, a retried one with its versions, a permission question and the rule it leaves), the
 * studio's sections (an MCP server's status first), the file library, search, schedules, settings, a
 * public share page and the quick chat window. At each stop it calls `visit(name)`: the screenshot tour takes
 * pictures there, the accessibility spec runs axe there. Tokens live in a memory secret store (no OS
 * keychain on a test machine).
 */
export type Visit = (name: string) => Promise<void>;

const EMAIL = 'new-person@example.test';
const PASSWORD = 'a long enough password';

export interface WalkRig {
  mode: BrowserMode;
  close(): Promise<void>;
}

/** Browser mode as a new person first starts it: nothing signed in, the app's own service. */
export async function startWalkRig(): Promise<WalkRig> {
  const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-walk-'));
  const mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
  return {
    mode,
    async close() {
      await mode.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * The first run's one step on "This computer": the app goes straight to its message box; a service that
 * asks for an account opens its sign-in page in a tab, where one is created.
 */
async function startOnThisComputer(page: Page): Promise<void> {
  const agents = page.getByRole('navigation', { name: 'Agents' });
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: /^(Start on this computer|Sign in with your browser)$/ }).click();
  const tab = await Promise.race([popup, agents.waitFor().then(() => null)]);
  if (tab) {
    await tab.getByLabel('E-mail').fill(EMAIL);
    await tab.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
    await tab.getByLabel('Repeat the password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Create account' }).click();
    await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
    await tab.close();
  } else void popup.catch(() => undefined);
  await expect(agents).toBeVisible();
}

const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const lastReply = (page: Page) => page.getByRole('article', { name: 'Agent reply' }).last();

async function send(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await box(page).press('Enter');
}

async function replyDone(page: Page): Promise<void> {
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(
    page.getByRole('region', { name: 'Chat' }).getByRole('heading', { level: 2, name: 'New conversation' }),
  ).toBeVisible();
  await expect(box(page)).toBeVisible();
  await expect(page.getByRole('article', { name: 'Agent reply' })).toHaveCount(0);
}

/** A conversation action, straight from the header or from its "…" menu. */
export async function conversationAction(page: Page, name: RegExp): Promise<void> {
  const chat = page.getByRole('region', { name: 'Chat' });
  const direct = chat.getByRole('button', { name });
  if (await direct.isVisible()) return direct.click();
  await chat.getByRole('button', { name: 'More conversation actions' }).click();
  await page.getByRole('menuitem', { name }).click();
}

async function openConversation(page: Page, title: RegExp): Promise<void> {
  await showScreen(page, 'Chats');
  await page.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: title }).click();
}

/** The whole walk, from the sign-in screen of a first run to the public page of a shared conversation. */
export async function walkNewUser(page: Page, rig: WalkRig, visit: Visit): Promise<void> {
  await page.goto(rig.mode.url);
  await expect(page.getByRole('button', { name: /Sign in|Continue|Start/ }).first()).toBeVisible();
  await visit('first-run');

  await startOnThisComputer(page);
  await expect(page.getByRole('region', { name: /^Welcome to / })).toBeVisible();
  await visit('first-screen');

  // A reply with a thought and a tool call, then a plain reply.
  await newConversation(page);
  await send(page, 'list files');
  await replyDone(page);
  await send(page, 'What can you do for me?');
  await replyDone(page);
  await visit('chat-reply-thought-tool');

  // Retry replaces the last exchange in place; the earlier version stays behind the 1/2 switcher.
  await lastReply(page).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
  await replyDone(page);
  await visit('chat-versions');

  // A failed reply and a stopped one.
  await newConversation(page);
  await send(page, 'fail');
  await replyDone(page);
  await send(page, 'wait 30');
  await expect(lastReply(page)).toContainText('Waiting 30 seconds');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(lastReply(page)).toContainText('Stopped');
  await visit('chat-error-stopped');

  // A permission question, left open.
  await newConversation(page);
  await send(page, 'write notes.txt\n```\nA note from the tour\n```');
  await expect(lastReply(page).getByRole('region', { name: /Permission request/ })).toBeVisible();
  await visit('chat-permission');

  // "Always allow" makes a rule of the agent; Manage lists the agent's rules in the studio.
  const card = lastReply(page).getByRole('region', { name: /Permission request/ });
  // A file at the top of the folder: the rule is for the tool anywhere, made at once.
  await card.getByRole('button', { name: 'Always allow' }).click();
  await expect(card).toContainText('Allowed by your rule');
  await replyDone(page);
  await page.getByRole('button', { name: 'Manage this agent’s permission rules' }).first().click();
  await expect(page.getByRole('list', { name: 'Permission rules' })).toContainText('Always allow');
  await visit('rule-list');
  await page.getByRole('button', { name: 'Back to chat' }).click();

  // Scheduled turns of the first conversation.
  await openConversation(page, /files/i);
  await conversationAction(page, /^Schedule/);
  await expect(page.getByRole('region', { name: 'Scheduled messages' })).toBeVisible();
  await visit('schedules');

  // Every section of the studio.
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const sections = page.getByRole('navigation', { name: 'Studio sections' }).getByRole('button');
  await expect(sections.first()).toBeVisible();
  // An MCP server saved in one step, and its status after saving (here: why it could not connect).
  await sections.filter({ hasText: /^MCP servers$/ }).click();
  const mcp = page.getByRole('region', { name: 'MCP servers', exact: true });
  await mcp.getByRole('button', { name: 'Add a server' }).click();
  const server = mcp.getByRole('form', { name: 'New MCP server' });
  await server.getByLabel('Name').fill('devtools');
  await server.getByLabel('URL', { exact: true }).fill('http://localhost:8931/mcp');
  await server.getByRole('button', { name: 'Add server' }).click();
  await expect(mcp.getByRole('list', { name: 'MCP servers' })).toContainText('Could not connect', {
    timeout: 30_000,
  });
  await visit('mcp-status');
  for (const title of await sections.allInnerTexts()) {
    await page
      .getByRole('navigation', { name: 'Studio sections' })
      .getByRole('button', { name: title, exact: true })
      .click();
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
    await visit(`studio-${slug(title)}`);
  }

  // The file library with a few files.
  await showScreen(page, 'File library');
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'meeting notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n') },
    { name: 'budget.csv', mimeType: 'text/csv', buffer: Buffer.from('item,cost\nrent,900\n') },
  ]);
  await expect(page.getByRole('table', { name: 'Files' }).getByRole('row')).toHaveCount(3);
  await visit('library');

  // Search everything ever said.
  await showScreen(page, 'Chats');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox').or(palette.getByRole('textbox')).first().fill('files');
  await expect(
    palette.getByRole('list', { name: 'Search results' }).getByRole('listitem').first(),
  ).toBeVisible({
    timeout: 15_000,
  });
  await visit('search');
  await page.keyboard.press('Escape');

  await showScreen(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await visit('settings');

  // The public page of a shared conversation, as a reader opens it.
  await openConversation(page, /files/i);
  await conversationAction(page, /^Share/);
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  const url = await share.getByLabel('Public link').inputValue();
  await share.getByRole('button', { name: 'Done' }).click();
  await page.goto(url);
  await expect(page.locator('body')).toContainText(/files/i);
  await visit('share-page');

  // The quick chat window (the desktop app's global shortcut) is the same page at #quick.
  await page.goto(`${rig.mode.url}&quick`);
  await expect(page.getByRole('heading', { name: 'Quick chat' })).toBeVisible();
  await send(page, 'What can you do for me?');
  await replyDone(page);
  await visit('quick-chat');
}

function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
