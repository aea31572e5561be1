import { expect, test, type Locator, type Page } from '@playwright/test';
import { openApp, screens, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';
import { controlPageTime, runOutUndo } from './support/page-clock';

// A sidebar that holds a hundred conversations (issue 39, item 4), in browser mode against the real local
// service: 100 conversations seeded through the API, the app's navigation kept in view with only the list
// scrolling, one-line rows, no sideways scrolling at 1360×860 or 900×700, the sidebar folded by a button and
// a key (and remembered), each row's own actions by mouse, right-click and keyboard (the rename and the
// archive read back through the API), Undo in the flow, the agent's Rename and Delete with that agent, and
// a new conversation's draft at the top of the list.

let app: AppSession;
let agentId: string;
const SEEDED = 100;

test.describe.configure({ mode: 'serial' });

interface Listed {
  id: string;
  titulo: string | null;
}

const conversationsPath = () => `/api/v2/me/agents/${agentId}/conversations`;
const listed = async (): Promise<Listed[]> =>
  ((await (await app.api(conversationsPath())).json()) as { conversaciones: Listed[] }).conversaciones;

async function seed(title: string): Promise<string> {
  const made = (await (await app.api(conversationsPath(), { method: 'POST' })).json()) as { id: string };
  await app.api(`${conversationsPath()}/${made.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  return made.id;
}

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'sidebar@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
  for (let i = 1; i <= SEEDED; i += 1) await seed(`Topic number ${i} about something long enough`);
});

test.afterAll(async () => {
  await app?.close();
});

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });
const list = (page: Page) => page.getByRole('list', { name: 'Conversation list' });
const rows = (page: Page) => list(page).getByRole('listitem');
const row = (page: Page, title: string) => rows(page).filter({ hasText: title });
const nav = (page: Page) => page.getByRole('navigation', { name: 'App' });

async function inViewport(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0;
}

for (const size of [
  { width: 1360, height: 860 },
  { width: 900, height: 700 },
]) {
  test(`${size.width}×${size.height}: a hundred conversations scroll inside the list; the navigation stays in view`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await openApp(page, app);
    await expect(rows(page)).toHaveCount(SEEDED);
    for (const label of ['Chats', 'File library', 'Connectors', 'Account', 'Settings'])
      expect(await inViewport(page, nav(page).getByRole('button', { name: label }))).toBe(true);

    // Only the list scrolls; the sidebar neither scrolls down nor sideways.
    const overflow = await sidebar(page).evaluate((el) => {
      const listEl = el.querySelector('.conversation-list')!;
      return {
        sideways: el.scrollWidth - el.clientWidth,
        down: el.scrollHeight - el.clientHeight,
        listScrolls: listEl.scrollHeight > listEl.clientHeight,
      };
    });
    expect(overflow).toEqual({ sideways: 0, down: 0, listScrolls: true });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    // One line a row, about 32 px, and no "Done" on every row.
    const height = (await rows(page).first().boundingBox())!.height;
    expect(height).toBeGreaterThanOrEqual(28);
    expect(height).toBeLessThanOrEqual(34);
    await expect(list(page)).not.toContainText('Done');

    // The oldest is reached by scrolling the list, and the navigation has not moved.
    const settingsBefore = await nav(page).getByRole('button', { name: 'Settings' }).boundingBox();
    await row(page, 'Topic number 1 about').scrollIntoViewIfNeeded();
    await expect(row(page, 'Topic number 1 about')).toBeInViewport();
    expect(await nav(page).getByRole('button', { name: 'Settings' }).boundingBox()).toEqual(settingsBefore);
    await page.screenshot({ path: `${screens}/sidebar-hundred-${size.width}.png` });
  });
}

test('the sidebar folds with its button and with Mod+\\ or Mod+B, the chat takes the width, and a reload keeps it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await openApp(page, app);
  const chat = page.locator('main.content');
  const wideBefore = (await chat.boundingBox())!.width;

  await page.getByRole('button', { name: 'Hide sidebar' }).click();
  await expect(list(page)).toBeHidden();
  expect((await sidebar(page).boundingBox())!.width).toBeLessThanOrEqual(48);
  expect((await chat.boundingBox())!.width).toBeGreaterThan(wideBefore + 180);
  // The focus stays at hand: on the button that brings it back.
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeFocused();
  await page.screenshot({ path: `${screens}/sidebar-folded-900.png` });

  await page.reload();
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
  await expect(list(page)).toBeHidden();

  await page.keyboard.press('Control+Backslash');
  await expect(list(page)).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.press('Control+b');
  await expect(list(page)).toBeHidden();
  // The key leaves the focus where the person types.
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await page.getByRole('button', { name: 'Show sidebar' }).click();
  await expect(list(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide sidebar' })).toBeFocused();
  await page.reload();
  await expect(list(page)).toBeVisible();
});

test("each row's own actions: by hover, right-click and keyboard; Rename in place is saved on the server", async ({
  page,
}) => {
  await openApp(page, app);
  const target = row(page, 'Topic number 100 about');
  const options = target.getByRole('button', { name: 'Conversation options' });
  // "…" shows on hover only (and on focus, below).
  await expect(options).toBeHidden();
  await target.hover();
  await expect(options).toBeVisible();
  await options.click();
  const menu = page.getByRole('menu', { name: 'Conversation options' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Rename', 'Share…', 'Export as Markdown', 'Archive']);
  // The menu is not clipped by the scrolling list: all of it is in the window.
  await expect(menu).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(options).toBeFocused();

  // Right-click opens the same menu.
  await row(page, 'Topic number 99 about').click({ button: 'right' });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');

  // Keyboard only: Tab from the row reaches its "…"; Shift+F10 on a row opens its menu on the first item.
  const rowButton = row(page, 'Topic number 98 about').locator('button.conversation');
  await rowButton.focus();
  await page.keyboard.press('Tab');
  await expect(
    row(page, 'Topic number 98 about').getByRole('button', { name: 'Conversation options' }),
  ).toBeFocused();
  await rowButton.focus();
  await page.keyboard.press('Shift+F10');
  await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('Enter');
  const field = page.getByRole('textbox', { name: 'New name for the conversation' });
  await expect(field).toBeFocused();
  await field.fill('Renamed in the sidebar');
  await page.keyboard.press('Enter');
  await expect(row(page, 'Renamed in the sidebar')).toHaveCount(1);
  await expect(row(page, 'Renamed in the sidebar').locator('button.conversation')).toBeFocused();
  await expect
    .poll(async () => (await listed()).filter((c) => c.titulo === 'Renamed in the sidebar').length)
    .toBe(1);

  // Escape keeps the old name.
  await row(page, 'Renamed in the sidebar').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Rename' }).click();
  await field.fill('Not this one');
  await field.press('Escape');
  await expect(row(page, 'Renamed in the sidebar')).toHaveCount(1);
  expect((await listed()).some((c) => c.titulo === 'Not this one')).toBe(false);
});

test("a row's Export and Share work without opening the conversation first", async ({ page }) => {
  await openApp(page, app);
  const target = row(page, 'Topic number 97 about');
  await target.hover();
  await target.getByRole('button', { name: 'Conversation options' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export as Markdown' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.md$/);

  await target.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Share…' }).click();
  await expect(page.getByRole('dialog', { name: 'Share conversation' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText(
    /Topic number 97 about/,
  );
  await page.keyboard.press('Escape');
});

test('Archive from a row asks nothing, Undo brings it back, and the archive reaches the server after', async ({
  page,
}) => {
  await controlPageTime(page);
  await openApp(page, app);
  // A conversation with a reply open, so the reply's buttons are on screen while Undo shows.
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello there');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });

  const gone = await listed();
  const id = gone.find((c) => c.titulo?.startsWith('Topic number 96 about'))!.id;
  await row(page, 'Topic number 96 about').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const toast = page.getByRole('status').filter({ hasText: 'Archived “Topic number 96' });
  await expect(toast).toBeVisible();
  await expect(row(page, 'Topic number 96 about')).toHaveCount(0);
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeFocused();

  // Undo covers none of the reply's buttons.
  await reply.hover();
  const notice = (await toast.boundingBox())!;
  for (const button of await reply.getByRole('button').all()) {
    const b = await button.boundingBox();
    if (!b) continue;
    const overlaps =
      b.x < notice.x + notice.width &&
      notice.x < b.x + b.width &&
      b.y < notice.y + notice.height &&
      notice.y < b.y + b.height;
    expect(overlaps).toBe(false);
  }
  await page.screenshot({ path: `${screens}/sidebar-archive-undo.png` });

  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(row(page, 'Topic number 96 about')).toHaveCount(1);
  expect((await listed()).map((c) => c.id)).toContain(id);

  await row(page, 'Topic number 96 about').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await runOutUndo(page);
  await expect.poll(async () => (await listed()).map((c) => c.id)).not.toContain(id);
});

test("the app's navigation sits at the sidebar's foot while the agents load, and stays there once they come", async ({
  page,
}) => {
  const agentsAnswer = await heldAnswers(page, 'listAgents');
  agentsAnswer.hold();
  await page.goto(app.mode.url);
  const settings = nav(page).getByRole('button', { name: 'Settings' });
  await expect(settings).toBeVisible();
  // Not yet an agent: nothing above the navigation grows to push it down.
  await expect(page.getByRole('region', { name: 'Conversations' })).toHaveCount(0);
  const footOf = async (target: Locator) => {
    const box = (await target.boundingBox())!;
    return box.y + box.height;
  };
  const waiting = await settings.boundingBox();
  expect((await footOf(sidebar(page))) - (await footOf(nav(page)))).toBeLessThan(24);
  agentsAnswer.release();
  await expect(page.getByRole('region', { name: 'Conversations' })).toBeVisible();
  expect(await settings.boundingBox()).toEqual(waiting);
  // A click aimed at it while the agents came lands on it.
  await settings.click();
  await expect(page.getByRole('region', { name: 'Models', exact: true })).toBeVisible();
  await nav(page).getByRole('button', { name: 'Chats' }).click();
});

test("the selected agent's Rename and Delete sit in that agent's row", async ({ page }) => {
  await app.api('/api/v2/me/agents', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ nombre: 'Blog writer' }),
  });
  await openApp(page, app);
  const agents = page.getByRole('navigation', { name: 'Agents' });
  await expect(agents.getByRole('button', { name: /^Blog writer/ })).toBeVisible();
  for (const name of ['Assistant', 'Blog writer']) {
    await agents.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    const selectedRow = agents.getByRole('listitem').filter({ has: page.locator('[aria-current="true"]') });
    await expect(selectedRow.getByRole('button', { name: `Rename ${name}` })).toBeVisible();
    await expect(selectedRow.getByRole('button', { name: `Delete ${name}` })).toBeVisible();
    await expect(agents.getByRole('button', { name: /^Rename / })).toHaveCount(1);
  }
  await agents.getByRole('button', { name: /^Assistant/ }).click();
});

test("a new conversation's draft is first in the list, also when + New reuses an older empty one", async ({
  page,
}) => {
  // An empty conversation made before the others were talked in: the server dates it earlier.
  const made = (await (await app.api(conversationsPath(), { method: 'POST' })).json()) as { id: string };
  await seed('Talked in after the empty one');
  await openApp(page, app);
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText(
    'New conversation',
  );
  await expect(rows(page).first()).toHaveText(/New conversation/);
  await expect(rows(page).first().locator('[aria-current="true"]')).toHaveCount(1);
  // It is the one the server already had (nothing said in it), not another.
  expect((await listed()).filter((c) => c.id === made.id)).toHaveLength(1);
  await page.reload();
  await expect(rows(page).first()).toHaveText(/New conversation/);
});
