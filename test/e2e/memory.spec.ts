import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../src/core/auth/secret-store';
import { startService, type RunningService } from '../../src/service/index';
import { signIn as apiSignIn } from '../support/local-service';
import { showScreen, signInThroughTheApp } from './support/app-session';

// Chat memory end to end (issue 17): browser mode (the built renderer, the bridge over its WebSocket,
// the host with its SQLite transcript store) on the real local service and its demo agent. Tokens live
// in a memory secret store kept across restarts of browser mode (no OS keychain on a test machine).

const EMAIL = 'memory@example.test';
const PASSWORD = 'a long enough password';
const rendererDir = resolve(import.meta.dirname, '../../out/renderer');

let dataDir: string;
let secrets: SecretStore;
let mode: BrowserMode;
let restarted: RunningService | undefined;
/** The conversation another client had with the agent (the search test). */
let quokka: { agentId: string; id: string } | undefined;

/** The API as another client of the same person, on the service running now. */
async function personApi(service: RunningService) {
  const token = (await apiSignIn(service, { email: EMAIL, password: PASSWORD })).access_token;
  return (path: string, init: RequestInit = {}) =>
    fetch(`${service.url}/api/v2/me${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-memory-e2e-'));
  secrets = createMemorySecretStore();
  mode = await startBrowserMode({ dataDir, rendererDir, secrets, trustedLaunch: false });
  const page = await browser.newPage();
  await signInThroughTheApp(page, mode, EMAIL, PASSWORD);
  await page.close();
});

test.afterAll(async () => {
  await mode.close();
  await restarted?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Closes browser mode and starts it again on the same data folder and keychain: an app restart. */
async function restartApp(): Promise<void> {
  await mode.close();
  mode = await startBrowserMode({ dataDir, rendererDir, secrets });
}

async function openApp(page: Page): Promise<void> {
  await page.goto(mode.url);
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}

async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(chatTitle(page)).toHaveText('New conversation');
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

const chatTitle = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title');
const lastReply = (page: Page) => page.getByRole('article', { name: 'Agent reply' }).last();

/** What a person sees of a finished turn: the thought, the tool call, the permission card, usage, attachments. */
async function expectFullTurn(page: Page): Promise<void> {
  const reply = lastReply(page);
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(reply.locator('details.thought summary')).toHaveText('Thought');
  const tool = reply.getByRole('group', { name: /Tool call: Write kept\.md/ });
  await expect(tool.getByLabel('Tool status')).toHaveText('Done');
  const card = reply.getByRole('region', { name: /Permission request: Write kept\.md/ });
  await expect(card).toContainText('kept.md');
  // A person can judge it: the content the write brings, the raw request folded behind Details.
  await expect(card.getByLabel('New file content')).toContainText('+ marmalade sky');
  await expect(card.locator('details.permission-raw')).not.toHaveAttribute('open');
  await expect(card).toContainText('Allowed once');
  await expect(reply.getByLabel('Usage')).toContainText('tokens');
  const question = page.getByRole('article', { name: 'Your message' }).last();
  await expect(question.getByRole('list', { name: 'Attachments' })).toContainText('dot.png');
}

test('a turn with a thought, a tool call, a permission and an attachment looks the same after a restart', async ({
  page,
}) => {
  await openApp(page);
  await newConversation(page);
  const dot =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  await page
    .getByLabel('Choose files to attach')
    .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(dot, 'base64') });
  await send(page, 'write kept.md\n```\nmarmalade sky\n```');
  const card = lastReply(page).getByRole('region', { name: /Permission request: Write kept\.md/ });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expectFullTurn(page);
  const title = await chatTitle(page).textContent();

  await page.close();
  await restartApp();
  const reopened = await page.context().newPage();
  await openApp(reopened);
  await reopened.getByRole('list', { name: 'Conversation list' }).getByText(title!).click();
  await expectFullTurn(reopened);
  // The thumbnail came back from the store, not from the file.
  await expect(reopened.locator('img.attachment-thumbnail')).toHaveAttribute(
    'src',
    /^data:image\/jpeg;base64,/,
  );
});

test('search finds a word from a conversation never opened in this run, and jumps to it', async ({
  page,
}) => {
  // Another client of the same person talks to the agent; this app never opens that conversation.
  const api = await personApi(mode.service()!);
  const agents = (await (await api('/agents')).json()) as { agentes: { id: string; protocolo: string }[] };
  const agentId = agents.agentes.find((a) => a.protocolo === 'acp')!.id;
  const talk = async (content: string): Promise<string> => {
    const created = await api(`/agents/${agentId}/conversations`, { method: 'POST' });
    const { id } = (await created.json()) as { id: string };
    await api(`/agents/${agentId}/conversations/${id}/messages`, {
      method: 'POST',
      body: JSON.stringify({ content, primerTurno: true }),
    });
    const length = async () =>
      ((await (await api(`/agents/${agentId}/conversations/${id}`)).json()) as { messages: unknown[] })
        .messages.length;
    await expect.poll(length, { timeout: 30_000 }).toBe(2);
    return id;
  };
  quokka = { agentId, id: await talk('echo zanzibar quokka parade') };
  // A newer conversation, so the searched one is neither the newest nor the one last open here.
  await talk('echo something newer');

  await restartApp();
  await openApp(page);
  // The app reopens the conversation that was open before the restart, never the searched one.
  const chat = page.getByRole('region', { name: 'Chat' });
  await expect(chat.getByRole('article').first()).toBeVisible();
  await expect(chat.getByText('zanzibar quokka parade')).toHaveCount(0);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill('quokk');
  const result = palette.getByRole('list', { name: 'Search results' }).getByRole('button').first();
  await expect(result.locator('mark').first()).toHaveText(/quokka/i, { timeout: 20_000 });
  await result.click();
  await expect(palette).toBeHidden();
  const target = page.locator('.message-row.search-target');
  await expect(target).toContainText('zanzibar quokka parade');
  await expect(
    page.getByRole('navigation', { name: 'Agents' }).locator('[aria-current="true"]'),
  ).toBeVisible();
});

test('offline reading with the service stopped, and recovery when it returns', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'echo lighthouse keeper');
  await expect(lastReply(page)).toContainText('lighthouse keeper', { timeout: 30_000 });
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  const title = await chatTitle(page).textContent();

  const running = mode.service()!;
  const port = Number(new URL(running.url).port);
  await running.close();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  await page.getByRole('list', { name: 'Conversation list' }).getByText(title!).click();
  await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible({ timeout: 30_000 });
  await expect(lastReply(page)).toContainText('lighthouse keeper');
  // Send is also off for an empty box, so a message is written first: offline alone must hold it back.
  await page.getByRole('textbox', { name: 'Message' }).fill('echo back again');
  const sendButton = page.getByRole('button', { name: 'Send' });
  await expect(sendButton).toBeDisabled();
  await expect(page.locator('.send-blocked')).toContainText("messages can't be sent");

  restarted = await startService({ dataDir: join(dataDir, 'local-service'), port });
  await expect(page.getByRole('status', { name: 'Offline' })).toBeHidden({ timeout: 20_000 });
  await expect(sendButton).toBeEnabled();
  await sendButton.click();
  await expect(lastReply(page)).toContainText('back again', { timeout: 30_000 });
});

/** Searches everything from the palette; returns the palette. */
async function search(page: Page, words: string) {
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill(words);
  return palette;
}

test('clearing chat memory in Settings forgets what search found; the server keeps the conversation', async ({
  page,
}) => {
  await openApp(page);
  let palette = await search(page, 'zanzib');
  const results = palette.getByRole('list', { name: 'Search results' }).getByRole('button');
  await expect(results.first()).toContainText(/zanzibar/i, { timeout: 20_000 });
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  await showScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'Chat memory' });
  await expect(section).toContainText('transcripts.db');
  await section.getByRole('button', { name: 'Clear chat memory on this computer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear chat memory on this computer?' });
  // It says what goes and what stays.
  await expect(dialog).toContainText('search index');
  await expect(dialog).toContainText('every conversation on the server');
  await dialog.getByRole('button', { name: 'Clear chat memory' }).click();
  await expect(section.getByRole('status')).toHaveText('Chat memory cleared on this computer.');
  await expect(section).toContainText('0 conversations, 0 messages');

  palette = await search(page, 'zanzib');
  await expect(palette.getByText('Nothing found.')).toBeVisible({ timeout: 20_000 });
  await expect(results).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The server's history still has it: reopening the conversation shows it, and search finds it again.
  const { agentId, id } = quokka!;
  // The offline test stopped the app's service and started it again on the same port.
  const api = await personApi(restarted ?? mode.service()!);
  const list = (await (await api(`/agents/${agentId}/conversations`)).json()) as {
    conversaciones: { id: string; titulo: string | null }[];
  };
  const title = list.conversaciones.find((c) => c.id === id)?.titulo;
  expect(title).toBeTruthy();
  await showScreen(page, 'Chats');
  await page.getByRole('list', { name: 'Conversation list' }).getByText(title!, { exact: true }).click();
  await expect(page.getByRole('region', { name: 'Chat' })).toContainText('zanzibar quokka parade');
  await search(page, 'zanzib');
  await expect(results.first()).toContainText(/zanzibar/i, { timeout: 20_000 });
});
