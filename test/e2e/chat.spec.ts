import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { signIn as apiSignIn } from '../support/local-service';
import { signInThroughTheApp } from './support/app-session';
import { chooseInHeaderMenu } from './support/header-menu';

// The chat experience end to end: browser mode (the built renderer from `npm run build`, the
// bridge over its WebSocket, the host) against the real local service and its demo agent, a
// real ACP process. Tokens live in a memory secret store (no OS keychain on a test machine).

const EMAIL = 'chat@example.test';
const PASSWORD = 'a long enough password';
const screens = resolve(import.meta.dirname, '../../test-results/screens');

let dataDir: string;
let mode: BrowserMode;

test.beforeAll(async ({ browser }) => {
  // Slow the demo agent's streaming a little so growth is visible frame by frame.
  process.env['AGENTDESK_DEMO_PACE_MS'] = '25';
  await mkdir(screens, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-chat-e2e-'));
  mode = await startBrowserMode({
    dataDir,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
    trustedLaunch: false,
  });
  await signIn(browser);
});

test.afterAll(async () => {
  await mode.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(browser: Browser): Promise<void> {
  const page = await browser.newPage();
  await page.goto(mode.url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  await page.screenshot({ path: join(screens, 'sign-in.png') });
  await signInThroughTheApp(page, mode, EMAIL, PASSWORD);
  await page.close();
}

async function openApp(page: Page): Promise<void> {
  await page.goto(mode.url);
  await expect(page.getByRole('button', { name: 'Start a new conversation' })).toBeVisible();
}

async function newConversation(page: Page): Promise<void> {
  const list = page.getByRole('list', { name: 'Conversation list' });
  const rows = list.getByRole('listitem');
  // Count only once the list has come from the server (a count taken while it loads reads 0).
  await expect(list).toHaveAttribute('aria-busy', 'false');
  const before = await rows.count();
  // + New opens an untouched conversation (one an earlier test left unsent) instead of adding another.
  const untouched = await rows.filter({ hasText: 'New conversation' }).count();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(rows).toHaveCount(untouched > 0 ? before : before + 1);
  await expect(chatTitle(page)).toHaveText('New conversation');
  await expect(replies(page)).toHaveCount(0);
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

const chatTitle = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title');
const replies = (page: Page) => page.getByRole('article', { name: 'Agent reply' });
const lastReply = (page: Page) => replies(page).last();

async function waitForReplyDone(page: Page): Promise<void> {
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

test('a new conversation: the reply is seen growing over several frames before done', async ({ page }) => {
  await openApp(page);
  // The sidebar says what runs the agent in plain words, never a protocol name.
  await expect(
    page
      .getByRole('navigation', { name: 'Agents' })
      .getByRole('listitem')
      .first()
      .getByRole('button')
      .first(),
  ).toContainText('Demo agent (offline, answers by rule)');
  await newConversation(page);

  // Sample the reply's text once per frame until the turn ends.
  const sampled = inPage(page, 'sampleReplyGrowth');
  await send(page, 'Hello there, demo agent');
  const lengths = await sampled;
  const growth = lengths.filter((length, i) => length > 0 && length !== lengths[i - 1]);
  expect(growth.length).toBeGreaterThanOrEqual(3);
  expect(growth).toEqual([...growth].sort((a, b) => a - b));

  await expect(lastReply(page)).toContainText('You said: "Hello there, demo agent"');
  await expect(page.getByRole('article', { name: 'Your message' })).toContainText('Hello there, demo agent');
  // The first turn titles the thread live, and the list badge follows the turn: a finished reply needs no
  // badge (only running, waiting, failed or stopped ones have one).
  const selected = page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');
  await expect(selected.getByLabel(/Last reply:/)).toHaveCount(0);
  await expect(chatTitle(page)).not.toHaveText('New conversation', { timeout: 15_000 });
  await expect(lastReply(page).getByLabel('Usage')).toContainText('tokens');
  await page.screenshot({ path: join(screens, 'chat-reply.png') });
});

test('a thought and a tool call are rendered', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'list files');
  await waitForReplyDone(page);
  const reply = lastReply(page);
  await expect(reply.locator('details.thought summary')).toHaveText('Thought');
  await reply.locator('details.thought summary').click();
  await expect(reply.locator('.thought-text')).toContainText('Reading the message.');
  const tool = reply.getByRole('group', { name: 'Tool call: List files' });
  await expect(tool.locator('.tool-kind')).toHaveText('Read');
  await expect(tool.getByLabel('Tool status')).toHaveText('Done');
  // The demo agent lists ".", the workspace's root: said in words, not as a lone dot.
  await expect(tool.locator('.tool-path')).toHaveText('The workspace');
  await expect(reply).toContainText('The workspace has');
  await page.screenshot({ path: join(screens, 'thought-and-tool.png') });
});

test('a permission approved writes the file; denied does not', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'write approved.txt\n```\nhello from the test\n```');
  const card = lastReply(page).getByRole('region', { name: /Permission request: Write approved\.txt/ });
  await expect(card).toBeVisible();
  await expect(card).toContainText('approved.txt');
  await expect(card.getByLabel('Time left to answer')).toHaveText(/^(10:00|9:5\d) left$/);
  // The agent's one-time answers, and the two that make a lasting rule of the agent (its own "always" is left out).
  for (const option of ['Allow once', 'Always allow', 'Reject', 'Always reject']) {
    await expect(card.getByRole('button', { name: option, exact: true })).toBeVisible();
  }
  await expect(card.getByRole('button', { name: 'Always allow writes' })).toHaveCount(0);
  await page.screenshot({ path: join(screens, 'permission.png') });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(card).toContainText('Allowed once');
  await waitForReplyDone(page);
  expect(await findWorkspaceFile('approved.txt')).toBe('hello from the test');

  await newConversation(page);
  await send(page, 'write denied.txt\n```\nmust not exist\n```');
  const second = lastReply(page).getByRole('region', { name: /Permission request: Write denied\.txt/ });
  await second.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(second).toContainText('Rejected');
  await waitForReplyDone(page);
  expect(await findWorkspaceFile('denied.txt')).toBeUndefined();
});

test('a permission prompt survives switching conversations and coming back', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'write kept.txt\n```\nkept\n```');
  const card = () => lastReply(page).getByRole('region', { name: /Permission request: Write kept\.txt/ });
  await expect(card()).toBeVisible();
  const list = page.getByRole('list', { name: 'Conversation list' });
  await list.getByRole('listitem').nth(1).getByRole('button').first().click();
  await expect(card()).toHaveCount(0);
  await list.getByRole('listitem').first().getByRole('button').first().click();
  await expect(card().getByRole('button', { name: 'Allow once' })).toBeVisible();
  await card().getByRole('button', { name: 'Allow once' }).click();
  await waitForReplyDone(page);
  expect(await findWorkspaceFile('kept.txt')).toBe('kept');
});

test('cancel stops a running reply, and a message sent while it runs is injected', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'wait 30');
  await expect(lastReply(page)).toContainText('Waiting 30 seconds');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(lastReply(page)).toContainText('Stopped.');
  const selected = page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');
  await expect(selected.getByLabel(/Last reply: Stopped/)).toBeVisible();

  // Long enough that the next message comes while it runs, on a busy machine too.
  await send(page, 'wait 12');
  await expect(lastReply(page)).toContainText('Waiting 12 seconds');
  await send(page, 'and also this');
  const injected = page.getByRole('article', { name: 'Your message' }).last();
  await expect(injected).toContainText('and also this');
  await expect(injected).toContainText(/Added to the running reply|Replaced the previous reply/);
  await waitForReplyDone(page);
  await page.screenshot({ path: join(screens, 'cancel-and-inject.png') });
});

test('attachments dropped on the window reach the agent', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  const dot =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  await inPage(page, 'dropFiles', [
    { name: 'note.txt', type: 'text/plain', base64: Buffer.from('hello attachment').toString('base64') },
    { name: 'dot.png', type: 'image/png', base64: dot },
  ]);
  const chips = page.getByRole('list', { name: 'Attachments to send' });
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  await expect(chips.getByRole('img', { name: 'Preview of dot.png' })).toBeVisible();
  await page.screenshot({ path: join(screens, 'attachments.png') });
  await send(page, 'echo files please');
  await waitForReplyDone(page);
  await expect(lastReply(page)).toContainText('note.txt');
  await expect(lastReply(page)).toContainText('dot.png');
});

test('more than 8 attachments are refused before sending, in plain words', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  const nine = Array.from({ length: 9 }, (_, i) => ({
    name: `f${i + 1}.txt`,
    type: 'text/plain',
    base64: Buffer.from(`file ${i + 1}`).toString('base64'),
  }));
  await inPage(page, 'dropFiles', nine, ['drop']);
  await expect(page.getByRole('list', { name: 'Attachments to send' }).getByRole('listitem')).toHaveCount(8);
  await expect(page.getByRole('alert')).toContainText(
    'f9.txt was not added: a message can carry at most 8 attachments.',
  );
});

test('a model switch applies from the next reply', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'hi');
  await waitForReplyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-fast)');
  await page.getByRole('combobox', { name: 'Model' }).selectOption('demo-deep');
  await expect(page.getByRole('status').filter({ hasText: 'applies from the next reply' })).toBeVisible();
  await send(page, 'hi again');
  await expect(replies(page)).toHaveCount(2);
  await waitForReplyDone(page);
  await expect(lastReply(page)).toContainText('(model: demo-deep)');
});

test('rename, share (the public page opens), unshare and archive', async ({ page, context }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'Something worth sharing');
  await waitForReplyDone(page);

  await chooseInHeaderMenu(page, 'Rename…');
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByLabel('New name').fill('Shared notes');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(chatTitle(page)).toHaveText('Shared notes');
  await expect(page.getByRole('list', { name: 'Conversation list' })).toContainText('Shared notes');

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  const link = share.getByRole('textbox', { name: 'Public link' });
  await expect(link).toHaveValue(/\/s\//);
  await page.screenshot({ path: join(screens, 'share.png') });
  const url = await link.inputValue();
  const publicPage = await context.newPage();
  const response = await publicPage.goto(url);
  expect(response?.status()).toBe(200);
  await expect(publicPage.locator('body')).toContainText('Something worth sharing');
  await share.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(share.getByRole('button', { name: 'Create public link' })).toBeVisible();
  expect((await publicPage.goto(url))?.status()).toBe(404);
  await publicPage.close();
  await share.getByRole('button', { name: 'Done' }).click();

  await chooseInHeaderMenu(page, 'Archive');
  await expect(page.getByRole('list', { name: 'Conversation list' })).not.toContainText('Shared notes');
});

test('a reload mid-turn resumes the stream without duplicated text', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  // Long enough that the reload lands while the reply runs, on a busy machine too.
  await send(page, 'wait 12');
  await expect(lastReply(page)).toContainText('Waiting 12 seconds');
  await page.reload();
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'true');
  await expect(lastReply(page)).toContainText('Done waiting 12 seconds.', { timeout: 30_000 });
  await waitForReplyDone(page);
  // Read as laid out (innerText) until it settles: in one run a single read right after the reply ended
  // lacked a line that was on screen (not explained). A duplicate that stays still fails.
  const log = page.getByRole('log', { name: 'Messages' });
  const times = async (words: string) => (await log.innerText()).split(words).length - 1;
  await expect.poll(() => times('Waiting 12 seconds')).toBe(1);
  expect(await times('Done waiting 12 seconds.')).toBe(1);
  expect(await times('wait 12')).toBe(1);
});

test('a reply asked for by another client, once in the history, is the same reply on screen, not built again', async ({
  page,
}) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'echo kept on screen');
  await waitForReplyDone(page);
  // The same person on another client asks in this conversation: the app shows the turn as it streams,
  // then reads the history, which holds the question and both replies.
  const service = mode.service()!;
  const token = (await apiSignIn(service, { email: EMAIL, password: PASSWORD })).access_token;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${service.url}/api/v2/me${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
  const agentId = ((await (await api('/agents')).json()) as { agentes: { id: string }[] }).agentes[0]!.id;
  const listed = (await (await api(`/agents/${agentId}/conversations`)).json()) as {
    conversaciones: { id: string }[];
  };
  await inPage(page, 'watchReplyRemovals');
  const sent = await api(`/agents/${agentId}/conversations/${listed.conversaciones[0]!.id}/messages`, {
    method: 'POST',
    body: JSON.stringify({ turnId: crypto.randomUUID(), content: 'wait 1' }),
  });
  expect(sent.status).toBeLessThan(300);
  await expect(lastReply(page)).toContainText('Waiting 1 second', { timeout: 30_000 });
  // The question shows once the history is read, after the reply ended.
  await expect(page.getByRole('article', { name: 'Your message' })).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toContainText('wait 1');
  await waitForReplyDone(page);
  await expect(replies(page)).toHaveCount(2);
  // Read as laid out until it settles, as the reload test above does.
  const log = page.getByRole('log', { name: 'Messages' });
  const times = async (words: string) => (await log.innerText()).split(words).length - 1;
  await expect.poll(() => times('Done waiting 1 second')).toBe(1);
  expect(await times('kept on screen')).toBe(2);
  // Both replies stay the elements they streamed into (before: taken out and built again from the history).
  expect(await inPage(page, 'replyRemovals')).toBe(0);
});

test('shortcuts, search over loaded conversations, and drafts kept per conversation', async ({ page }) => {
  await openApp(page);
  // Its own conversation to find, so this test does not lean on the ones before it.
  await newConversation(page);
  await send(page, 'list files');
  await waitForReplyDone(page);
  // The title lands as the turn closes; wait for it so the list no longer reorders under the keys.
  await expect(chatTitle(page)).toContainText('list files');
  const list = page.getByRole('list', { name: 'Conversation list' });
  const rows = list.getByRole('listitem');
  // Count only once the list has come from the server (a count taken while it loads reads 0).
  await expect(list).toHaveAttribute('aria-busy', 'false');
  const before = await rows.count();
  await page.keyboard.press('Control+Shift+O');
  await expect(rows).toHaveCount(before + 1);
  await page.getByRole('textbox', { name: 'Message' }).fill('half-written thought');

  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('half-written thought');

  // Mod+K opens the search across everything (memory.spec); the sidebar filter narrows the list.
  await page.getByRole('searchbox', { name: 'Search conversations' }).click();
  await page.keyboard.type('list files');
  await expect(rows.filter({ hasNotText: 'list files' })).toHaveCount(0);
  await expect(rows.first()).toContainText('list files');
  await page.keyboard.press('Escape');
  await expect(rows).toHaveCount(before + 1);
  await page.keyboard.press('Control+/');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('a reply containing raw HTML renders as text, never as an element', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await send(page, 'echo <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script>');
  await waitForReplyDone(page);
  const reply = lastReply(page);
  await expect(reply).toContainText('<img src=x onerror="window.__xss=1">');
  await expect(reply.locator('img, script')).toHaveCount(0);
  expect(await inPage(page, 'xssFired')).toBeUndefined();
});

interface PageFile {
  name: string;
  type: string;
  base64: string;
}
/** What test/e2e/fixtures/chat-page.js puts on the page. */
interface ChatTestHelpers {
  sampleReplyGrowth(): Promise<number[]>;
  dropFiles(files: PageFile[], events?: string[]): void;
  xssFired(): unknown;
  watchReplyRemovals(): void;
  replyRemovals(): number;
}
const pageHelpers = readFile(resolve(import.meta.dirname, 'fixtures/chat-page.js'), 'utf8');

/** Calls one of the chat test helpers in the page, installing them first. */
async function inPage<K extends keyof ChatTestHelpers>(
  page: Page,
  name: K,
  ...args: Parameters<ChatTestHelpers[K]>
): Promise<Awaited<ReturnType<ChatTestHelpers[K]>>> {
  await page.evaluate(await pageHelpers);
  return page.evaluate(
    ({ name, args }) => {
      const helpers = (globalThis as unknown as { __chatTest: Record<string, (...a: unknown[]) => unknown> })
        .__chatTest;
      return helpers[name]?.(...args);
    },
    { name, args: args as unknown[] },
  ) as Promise<Awaited<ReturnType<ChatTestHelpers[K]>>>;
}

/** The text of a file the agent wrote in its workspace, if any (searched under the data folder). */
async function findWorkspaceFile(name: string): Promise<string | undefined> {
  const walk = async (dir: string): Promise<string | undefined> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isFile() && entry.name === name) return readFile(path, 'utf8');
      if (entry.isDirectory()) {
        const found = await walk(path);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(dataDir);
}
