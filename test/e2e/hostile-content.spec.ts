import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { prepare } from '../../src/service/db/statement';
import { openApp, screens, showScreen, startApp, type AppSession } from './support/app-session';
import { newConversation } from './support/chat-page';
import { chooseInHeaderMenu } from './support/header-menu';

// Hostile text everywhere the app shows text that someone else (a model, a server, a file) chose: agent names,
// conversation titles, workspace and library file names, scheduled prompts, tool-call titles and contents,
// permission prompts and model replies. Browser mode against the real local service and its demo agent; the
// objects are made through the API (as the same person) or by the demo agent echoing what it is sent.
// Each must show as text: no dialog opens, no script runs, no handler attribute or javascript:/data: link
// reaches the DOM, such links cannot be clicked, and a long unbroken string does not widen the main panes.

const XSS = '<img src=x onerror="window.__pwned=1;alert(1)">';
const SCRIPT = '<script>window.__pwned=2;alert(2)</script>';
const RTL = 'invoice\u202Efdp.exe';
const LONG = 'W'.repeat(3000);
// A direction override would make the name read "invoiceexe.pdf": it is shown as a visible tag instead.
const SHOWN_RLO = '[U+202E]';
const RTL_SHOWN = `invoice${SHOWN_RLO}fdp.exe`;
const FILE = 'x<img/src=x/onerror=alert(3)>.md';

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'hostile@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
  const json = { 'Content-Type': 'application/json' };
  // Our service refuses a direction mark in a name (PATCH as POST); the spec allows any 64 characters, so
  // another server may hand one out: it is written into the store as such a server would keep it.
  const patched = await app.api(`/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ name: `${XSS}\u202Eevil` }),
  });
  expect(patched.status).toBe(400);
  expect(
    (
      await app.api(`/api/v2/agents/${agentId}`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ name: XSS }),
      })
    ).status,
  ).toBe(200);
  await prepare(app.service().context.db, 'UPDATE agents SET name = ? WHERE id = ?').run(
    `${XSS}\u202Eevil`,
    agentId,
  );
  const conversations = `/api/v2/me/agents/${agentId}/conversations`;
  const created = (await (await app.api(conversations, { method: 'POST' })).json()) as { id: string };
  await app.api(`${conversations}/${created.id}`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ title: `${SCRIPT} ${RTL} ${LONG}` }),
  });
  await app.api(`${conversations}/${created.id}/schedule`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ prompt: `${XSS} ${SCRIPT} ${LONG}`, inMinutes: 600 }),
  });
  for (const name of [`${XSS}.txt`, `${RTL}`, `${LONG.slice(0, 200)}.txt`]) {
    const uploaded = await app.api(`/api/v2/me/files?nombre=${encodeURIComponent(name)}`, {
      method: 'POST',
      body: SCRIPT,
    });
    expect(uploaded.status).toBe(200);
  }
});

test.afterAll(async () => {
  await app?.close();
});

interface Watch {
  dialogs: string[];
  errors: string[];
  popups: string[];
}

/** Records every dialog (dismissed), page error, console error and new tab for the whole test. */
function watch(page: Page): Watch {
  const seen: Watch = { dialogs: [], errors: [], popups: [] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('popup', (popup) => seen.popups.push(popup.url()));
  return seen;
}

const pageCheck = readFile(resolve(import.meta.dirname, 'fixtures/hostile-content-page.js'), 'utf8');

/** Nothing of the hostile markup became markup, nothing ran, and the main panes did not grow sideways. */
async function expectInert(page: Page, seen: Watch): Promise<void> {
  const found: unknown = await page.evaluate(await pageCheck);
  expect(found).toEqual({
    handlers: [],
    inlineScripts: 0,
    badLinks: [],
    strayImages: 0,
    pwned: null,
    hasMain: true,
    pageOverflow: 0,
    paneOverflow: [],
    clipped: [],
  });
  expect(seen.dialogs).toEqual([]);
  expect(seen.popups).toEqual([]);
  expect(seen.errors).toEqual([]);
}

const lastReply = (page: Page) => page.getByRole('article', { name: 'Agent reply' }).last();

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

async function waitForReplyDone(page: Page): Promise<void> {
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

test('the agent name, a conversation title and a scheduled prompt show as text', async ({ page }) => {
  const seen = watch(page);
  await openApp(page, app);
  await expect(page.getByRole('navigation', { name: 'Agents' })).toContainText(`${XSS}${SHOWN_RLO}evil`);
  const list = page.getByRole('list', { name: 'Conversation list' });
  await expect(list).toContainText(SCRIPT);
  await expect(list).toContainText(RTL_SHOWN);
  await list.getByRole('listitem').filter({ hasText: SCRIPT }).first().click();
  await expect(page.getByRole('region', { name: 'Chat' })).toContainText(SCRIPT);
  await chooseInHeaderMenu(page, 'Schedule a message…');
  const scheduled = page.getByRole('region', { name: 'Scheduled messages' });
  await expect(scheduled).toContainText(XSS);
  await expect(scheduled).toContainText(SCRIPT);
  await expectInert(page, seen);
});

test('library file names show as text, the RTL override included', async ({ page }) => {
  const seen = watch(page);
  await openApp(page, app);
  await showScreen(page, 'File library');
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files).toContainText(`${XSS}.txt`);
  await expect(files).toContainText(RTL_SHOWN);
  await expect(files).toContainText(LONG.slice(0, 100));
  await expectInert(page, seen);
});

test('a model reply with markup, script links and a long word shows as text; the links do nothing', async ({
  page,
}) => {
  const seen = watch(page);
  await openApp(page, app);
  await newConversation(page);
  await send(
    page,
    [
      'echo',
      XSS,
      SCRIPT,
      '[click me](javascript:window.__pwned=3;alert(3))',
      '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==)',
      '<a href="javascript:alert(5)">raw anchor</a>',
      '![pic](javascript:alert(6))',
      '![tracker](https://evil.example/pixel.png)',
      RTL,
      LONG,
    ].join('\n\n'),
  );
  await waitForReplyDone(page);
  const reply = lastReply(page);
  await expect(reply).toContainText(XSS);
  await expect(reply).toContainText(SCRIPT);
  await expect(reply).toContainText('raw anchor');
  await expect(reply).toContainText(RTL_SHOWN);
  await expect(reply.getByRole('link')).toHaveCount(0);
  // A reply never makes the app fetch from elsewhere (a tracking pixel): the image stays its words.
  await expect(reply.locator('img')).toHaveCount(0);
  await expect(reply).toContainText('[image: tracker]');
  await reply.getByText('click me').click();
  await reply.getByText('data link').click();
  await page.screenshot({ path: join(screens, 'hostile-reply.png') });
  await expectInert(page, seen);
});

test('a hostile file name in a permission prompt, a tool call and its content shows as text', async ({
  page,
}) => {
  const seen = watch(page);
  await openApp(page, app);
  await newConversation(page);
  await send(page, `write ${FILE}\n\`\`\`\n${SCRIPT}\n${XSS}\n\`\`\``);
  const card = lastReply(page).getByRole('region', { name: /Permission request/ });
  await expect(card).toBeVisible();
  await expect(card).toContainText(FILE);
  await expect(card).toContainText(SCRIPT);
  await expectInert(page, seen);
  await card.getByRole('button', { name: 'Allow once' }).click();
  await waitForReplyDone(page);
  await send(page, `read ${FILE}`);
  await waitForReplyDone(page);
  await expect(lastReply(page)).toContainText(`Read ${FILE}`);
  await expect(lastReply(page)).toContainText(XSS);
  await send(page, 'list files');
  await waitForReplyDone(page);
  await expectInert(page, seen);
});

test('workspace file names in the agent studio show as text', async ({ page }) => {
  const seen = watch(page);
  const put = await app.api(`/api/v2/agents/${agentId}/files/${encodeURIComponent(RTL)}`, {
    method: 'PUT',
    body: SCRIPT,
  });
  expect(put.status).toBe(200);
  await openApp(page, app);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: 'Workspace files' })
    .click();
  const tree = page.getByRole('tree', { name: 'Workspace files' });
  await expect(tree).toContainText(RTL_SHOWN);
  await expect(tree).toContainText('onerror=alert(3)>.md');
  await expectInert(page, seen);
});

test('search results over hostile conversations show as text', async ({ page }) => {
  const seen = watch(page);
  await openApp(page, app);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  await palette.getByRole('searchbox', { name: 'Search everything ever said' }).fill('invoice');
  const results = palette.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button').first()).toBeVisible({ timeout: 20_000 });
  await expect(results).toContainText(SHOWN_RLO);
  await expectInert(page, seen);
});

test('a skill description and an MCP server command in the studio show as text', async ({ page }) => {
  const seen = watch(page);
  const json = { 'Content-Type': 'application/json' };
  const skill = await app.api(`/api/v2/agents/${agentId}/skills/hostile`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ markdown: `---\ndescription: ${XSS} ${RTL}\n---\n# Hostile\n` }),
  });
  expect(skill.status).toBe(200);
  const mcp = await app.api(`/api/v2/agents/${agentId}/mcp`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ servers: [{ name: 'hostile', command: SCRIPT, args: [XSS, LONG] }] }),
  });
  expect(mcp.status).toBe(200);
  await openApp(page, app);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const sections = page.getByRole('navigation', { name: 'Studio sections' });
  await sections.getByRole('button', { name: 'Skills' }).click();
  const skills = page.getByRole('region', { name: 'Skills', exact: true });
  await expect(skills).toContainText(XSS);
  await expect(skills).toContainText(RTL_SHOWN);
  await expectInert(page, seen);
  await sections.getByRole('button', { name: 'MCP servers' }).click();
  const servers = page.getByRole('region', { name: 'MCP servers', exact: true });
  await expect(servers).toContainText(SCRIPT);
  await expectInert(page, seen);
});

test('a code block a reply leaves open shows as highlighted code, markup in it as text', async ({ page }) => {
  const seen = watch(page);
  await openApp(page, app);
  await newConversation(page);
  // Over 2 KB and never closed: while it streams and after the reply ends, it is highlighted in pieces
  // (LargeCode.tsx), not through the markdown parser.
  const lines = Array.from({ length: 150 }, (_, i) => `const line${i} = '${i % 10 === 0 ? XSS : 'plain'}';`);
  await send(page, ['echo', '```ts', ...lines].join('\n'));
  await waitForReplyDone(page);
  const code = lastReply(page).locator('pre code');
  await expect(code).toHaveClass(/hljs language-ts/);
  await expect(code.locator('.hljs-keyword').first()).toHaveText('const');
  await expect(code.locator('.hljs-string').first()).toHaveText(`'${XSS}'`);
  expect(await code.textContent()).toContain(lines.join('\n'));
  await expect(lastReply(page).locator('img')).toHaveCount(0);
  await expectInert(page, seen);
});
