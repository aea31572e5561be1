import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openApp, startApp, type AppSession } from './support/app-session';
import { chooseInHeaderMenu } from './support/header-menu';
import { newConversation } from './support/chat-page';

// The README's "Chatting" and "Chat memory" promises that no other spec walks, as a new user would try
// them: the rest of the shortcut table (Mod+N, Mod+F, Mod+] / Mod+[, Shift+Esc, Shift+Enter), a message
// joining a running reply, an edit's permission card showing the changed lines, copying a code block,
// search (accents, case, agent and date filters), a long thread loading its tail first, Export JSON,
// and the window memory (the sidebar's width by keyboard, the last agent and conversation) in
// <data>/ui-state.json. Browser mode against the real local service and its demo agent; tokens in a
// memory secret store (no OS keychain here).

let app: AppSession;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'readme@example.test' });
});

test.afterAll(async () => {
  await app?.close();
});

const rows = (page: Page) => page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem');
const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });
/** Which row of the conversation list is open (the titles of new conversations are all alike). */
async function currentRow(page: Page): Promise<number> {
  const all = await rows(page).all();
  for (const [index, row] of all.entries())
    if ((await row.locator('[aria-current="true"]').count()) > 0) return index;
  return -1;
}

async function agentId(): Promise<string> {
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  return agents.agentes[0]!.id;
}

async function conversationCount(): Promise<number> {
  const body = (await (await app.api(`/api/v2/me/agents/${await agentId()}/conversations`)).json()) as {
    conversaciones: unknown[];
  };
  return body.conversaciones.length;
}

test('Mod+N starts a conversation on the server, and Mod+] / Mod+[ move between conversations', async ({
  page,
}) => {
  await openApp(page, app);
  const before = await conversationCount();
  // (newConversation waits for the agent Mod+N acts on to be selected first.)
  await newConversation(page, () => page.keyboard.press('Control+N'));
  await expect(rows(page)).toHaveCount(1);
  await expect(box(page)).toBeVisible();
  // A second Mod+N on the untouched conversation opens it again rather than adding another.
  await page.keyboard.press('Control+N');
  await expect(rows(page)).toHaveCount(1);
  expect(await conversationCount()).toBe(before + 1);
  // Once something is said in it, Mod+N starts a second one.
  await box(page).fill('echo hello');
  await box(page).press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await page.keyboard.press('Control+N');
  await expect(rows(page)).toHaveCount(2);
  expect(await conversationCount()).toBe(before + 2);

  const first = await currentRow(page);
  expect(first).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Control+BracketRight');
  await expect.poll(() => currentRow(page)).toBe((first + 1) % 2);
  await page.keyboard.press('Control+BracketLeft');
  await expect.poll(() => currentRow(page)).toBe(first);
});

test('Enter sends, Shift+Enter is a new line; Shift+Esc and Mod+F move the focus', async ({ page }) => {
  await openApp(page, app);
  await rows(page).first().click();
  await box(page).click();
  await page.keyboard.type('echo first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await expect(box(page)).toHaveValue('echo first line\nsecond line');
  await page.keyboard.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('first line', { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toContainText('second line');
  await expect(box(page)).toHaveValue('');

  await page.keyboard.press('Control+F');
  const filter = page.getByRole('searchbox', { name: 'Search conversations' });
  await expect(filter).toBeFocused();
  await page.keyboard.press('Shift+Escape');
  await expect(box(page)).toBeFocused();
});

test('Export JSON saves the stored record of every message', async ({ page }) => {
  await openApp(page, app);
  await rows(page).first().click();
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText('first line');
  const download = page.waitForEvent('download');
  await chooseInHeaderMenu(page, 'Export as JSON (every detail)');
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/\.json$/);
  const record = JSON.parse(await readFile((await saved.path())!, 'utf8')) as unknown;
  expect(JSON.stringify(record)).toContain('echo first line\\nsecond line');
});

test('the sidebar width changes with ←/→ on its edge and is remembered for the next start', async ({
  page,
}) => {
  // The width kept in ui-state.json (none before the window first saved its state).
  const widthKept = async () =>
    (
      JSON.parse(await readFile(join(app.dataDir, 'ui-state.json'), 'utf8').catch(() => '{}')) as {
        sidebarWidth?: number;
      }
    ).sidebarWidth;
  const start = (await widthKept()) ?? 260;
  await openApp(page, app);
  const edge = page.getByRole('separator', { name: 'Sidebar width' });
  // The page as the person sees it open: the width kept last time, and the focus in the message box, which
  // takes it when it comes (a slow host's late conversation would take it from the edge, keys and all).
  await expect(edge).toHaveAttribute('aria-valuenow', String(start));
  await expect(box(page)).toBeFocused();
  await edge.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(edge).toHaveAttribute('aria-valuenow', String(start + 40));
  await expect.poll(widthKept).toBe(start + 40);
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Sidebar width' })).toHaveAttribute(
    'aria-valuenow',
    String(start + 40),
  );
  await expect(box(page)).toBeFocused();
  await page.getByRole('separator', { name: 'Sidebar width' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('separator', { name: 'Sidebar width' })).toHaveAttribute(
    'aria-valuenow',
    String(start + 20),
  );
});

test('a message sent while a reply runs joins that reply', async ({ page }) => {
  await openApp(page, app);
  await newConversation(page, () => page.keyboard.press('Control+N'));
  // Long enough that the second message is sent while it runs, on a busy machine too (with 3 s, typing the
  // second one could come after the reply ended, and it rightly started a reply of its own).
  await box(page).fill('wait 15');
  await box(page).press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('Waiting 15 seconds');
  await box(page).fill('echo joined in');
  await box(page).press('Enter');
  const mine = page.getByRole('article', { name: 'Your message' }).last();
  await expect(mine).toContainText('echo joined in');
  await expect(mine).toContainText('Added to the running reply');
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  // One reply for both messages: the second did not start a turn of its own.
  await expect(page.getByRole('article', { name: 'Agent reply' })).toHaveCount(1);
});

test('search ignores accents and case, and narrows to one agent or a date range', async ({ page }) => {
  const context = app.service().context;
  const person = (await context.identity.persons.findByEmail(app.email))!;
  await context.identity.agents.create(person.id, {
    name: 'Pastry agent',
    engine: 'engine-b',
    protocol: 'acp',
  });
  await openApp(page, app);
  // Each agent's row (the list's first button is New agent, not an agent).
  const rowsOf = page.getByRole('navigation', { name: 'Agents' }).getByRole('listitem');
  for (const row of [
    rowsOf.filter({ hasText: 'Pastry agent' }),
    rowsOf.filter({ hasNotText: 'Pastry agent' }),
  ]) {
    await row.getByRole('button').first().click();
    await newConversation(page);
    await box(page).fill('echo Crème brûlée tonight');
    await box(page).press('Enter');
    const reply = page.getByRole('article', { name: 'Agent reply' }).last();
    await expect(reply).toContainText('Crème brûlée tonight', { timeout: 30_000 });
    await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  }

  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill('CREME brul');
  const results = palette.getByRole('list', { name: 'Search results' }).getByRole('button');
  // Each agent's message and reply: four hits, from both agents.
  await expect(results).toHaveCount(4, { timeout: 20_000 });
  await expect(results.filter({ hasText: 'Pastry agent' })).toHaveCount(2);

  await palette.getByLabel('Agent').selectOption({ label: 'Pastry agent' });
  await expect(results).toHaveCount(2);
  await expect(results.filter({ hasNotText: 'Pastry agent' })).toHaveCount(0);

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await palette.getByLabel('From').fill(tomorrow);
  await expect(results).toHaveCount(0);
  await expect(palette).toContainText('Nothing found.');
  await palette.getByLabel('From').fill('');
  await expect(results).toHaveCount(2);
});

test('a long thread opens at its tail, and earlier messages load as you scroll up', async ({ page }) => {
  const agent = await agentId();
  const created = (await (
    await app.api(`/api/v2/me/agents/${agent}/conversations`, { method: 'POST' })
  ).json()) as { id: string };
  // 120 stored messages, oldest first, written where the service keeps its conversations.
  const store = app.service().context.conversations.store;
  const start = Date.now() - 120_000;
  for (let i = 1; i <= 120; i++)
    await store.addMessage(
      created.id,
      null,
      i % 2 ? 'user' : 'assistant',
      `long thread line ${i}`,
      start + i * 1000,
    );
  // Titled, as a conversation talked in is: with neither a title nor a last reply the list takes it for an
  // empty one, which + New opens until its history is read (a later test's + New, on a slow host).
  const titled = await app.api(`/api/v2/me/agents/${agent}/conversations/${created.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'A long thread' }),
  });
  expect(titled.ok).toBe(true);
  const body = (await (
    await app.api(`/api/v2/me/agents/${agent}/conversations/${created.id}?limit=50`)
  ).json()) as { saltados: number };
  expect(body.saltados).toBe(70);

  // What the page asks the host for, as it crosses the bridge's WebSocket.
  const asked: number[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      const text = String(payload);
      if (text.includes('openConversation') && text.includes(created.id))
        asked.push(Number(/"limit":(\d+)/.exec(text)?.[1]));
    }),
  );
  await openApp(page, app);
  // The first agent's row (the list's first button is New agent).
  await page
    .getByRole('navigation', { name: 'Agents' })
    .getByRole('listitem')
    .first()
    .getByRole('button')
    .first()
    .click();
  await rows(page).first().click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('long thread line 120');
  expect(asked).toEqual([50]);

  await log.hover();
  await expect(async () => {
    await page.mouse.wheel(0, -20_000);
    await expect(log.getByText('long thread line 1', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(asked.length).toBeGreaterThan(1);
  expect(asked.at(-1)).toBeGreaterThanOrEqual(120);
});

test('the last agent and conversation open again after a restart of the page', async ({ page }) => {
  await openApp(page, app);
  const agents = page.getByRole('navigation', { name: 'Agents' });
  await agents.getByRole('button', { name: /Pastry agent/ }).click();
  await newConversation(page);
  await box(page).fill('echo remember this place');
  await box(page).press('Enter');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
    'remember this place',
    {
      timeout: 30_000,
    },
  );
  await expect
    .poll(async () => JSON.parse(await readFile(join(app.dataDir, 'ui-state.json'), 'utf8')).lastSessionId)
    .toBeTruthy();

  await page.reload();
  await expect(agents.locator('[aria-current="true"]')).toContainText('Pastry agent');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('remember this place');
});

test('a permission card for an edit shows the lines it changes; code blocks copy', async ({
  page,
  context,
}) => {
  await openApp(page, app);
  // The first agent's row (the list's first button is New agent).
  await page
    .getByRole('navigation', { name: 'Agents' })
    .getByRole('listitem')
    .first()
    .getByRole('button')
    .first()
    .click();
  await newConversation(page);
  const reply = () => page.getByRole('article', { name: 'Agent reply' }).last();
  for (const text of ['first version', 'second version']) {
    await box(page).fill(`write notes.txt\n\`\`\`\n${text}\n\`\`\``);
    await box(page).press('Enter');
    const card = reply().getByRole('region', { name: /Permission request: Write notes\.txt/ });
    await expect(card).toBeVisible();
    if (text === 'second version') {
      const changes = card.getByLabel('Changes to the file');
      await expect(changes).toContainText('- first version');
      await expect(changes).toContainText('+ second version');
    }
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(reply()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  }

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.mode.origin });
  await box(page).fill('echo ```js\nconst answer = 42;\n```');
  await box(page).press('Enter');
  await expect(reply().locator('pre code')).toContainText('const answer = 42;', { timeout: 30_000 });
  await reply().getByRole('button', { name: 'Copy code' }).click();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('const answer = 42;\n');
  // In the person's own message too, the Copy button sits above the code, so it covers no line of it
  // however long the line runs.
  const mine = page.getByRole('article', { name: 'Your message' }).last();
  const copyBox = (await mine.getByRole('button', { name: 'Copy code' }).boundingBox())!;
  const codeBox = (await mine.locator('pre').boundingBox())!;
  expect(copyBox.y + copyBox.height).toBeLessThanOrEqual(codeBox.y);
  expect(copyBox.x + copyBox.width).toBeLessThanOrEqual(codeBox.x + codeBox.width + 0.5);
});
