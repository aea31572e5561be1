import { expect, test, type Page } from '@playwright/test';
import { chooseInHeaderMenu } from './support/header-menu';
import { newConversation } from './support/chat-page';
import { openApp, startApp, type AppSession } from './support/app-session';

// Issue 29, item 6: the chat header is one line at 900 px wide with a side panel open (the agent and the
// title, the model picker, Share, and "…"), and the "…" menu works by keyboard (the menu button pattern)
// with each action's shortcut shown and working. Browser mode against the real local service.

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'calm-header@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

const header = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('header.chat-header');
const moreButton = (page: Page) => header(page).getByRole('button', { name: 'More conversation actions' });

async function openConversation(page: Page): Promise<void> {
  await page.setViewportSize({ width: 900, height: 800 });
  await openApp(page, app);
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('echo a conversation with a rather long title that must not push the header onto two lines');
  await box.press('Enter');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toHaveAttribute(
    'aria-busy',
    'false',
    {
      timeout: 30_000,
    },
  );
}

/** The boxes of what the header shows, and the header's own. */
async function headerLayout(page: Page) {
  const box = (await header(page).boundingBox())!;
  const parts = [
    header(page).locator('h2.chat-title'),
    header(page).getByRole('combobox', { name: 'Model' }),
    header(page).getByRole('button', { name: /^Share/ }),
    moreButton(page),
  ];
  const boxes = [];
  for (const part of parts) boxes.push((await part.boundingBox())!);
  return { box, boxes };
}

test('at 900 px with the schedule panel open the header is one line: agent, title, model, Share, "…"', async ({
  page,
}) => {
  await openConversation(page);
  await chooseInHeaderMenu(page, 'Schedule a message…');
  // Over a 900 px window the panel is a modal dialog.
  await expect(page.getByRole('dialog', { name: 'Scheduled messages' })).toBeVisible();

  const { box, boxes } = await headerLayout(page);
  // One line: every part sits in the same band, and the header is no taller than one control and its padding.
  const centres = boxes.map((b) => b.y + b.height / 2);
  expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(8);
  expect(box.height).toBeLessThan(60);
  // Side by side, left to right, all inside the header.
  for (let i = 1; i < boxes.length; i += 1) expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x);
  for (const b of boxes) expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  await expect(header(page).getByRole('button')).toHaveCount(2);
  await expect(header(page)).toContainText(
    ((await (await app.api('/api/v2/me/agents')).json()) as { agentes: { nombre: string }[] }).agentes[0]!
      .nombre,
  );
  // The panel lies over the chat rather than squeezing it: the message box keeps a usable width.
  const message = (await page.getByRole('textbox', { name: 'Message', exact: true }).boundingBox())!;
  expect(message.width).toBeGreaterThan(300);
  await page.screenshot({ path: 'test-results/screens/header-900-panel.png' });
});

test('the "…" menu works by keyboard and returns focus to its button', async ({ page }) => {
  await openConversation(page);
  await moreButton(page).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'More conversation actions' });
  await expect(moreButton(page)).toHaveAttribute('aria-expanded', 'true');
  const items = menu.getByRole('menuitem');
  await expect(items).toHaveText([
    /^Rename…/,
    /^Schedule a message…/,
    /^Export as Markdown/,
    /^Export as JSON/,
    /^Copy conversation link/,
    /^Archive/,
  ]);
  // Each action with a key of its own shows it, and says it to assistive tech.
  await expect(items.first()).toHaveAttribute('aria-keyshortcuts', 'F2');
  await expect(items.nth(2)).toContainText(/(Ctrl|Cmd)\+Shift\+S/);
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(moreButton(page)).toBeFocused();

  // ArrowUp opens on the last item; Enter chooses it.
  await page.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Escape');

  // A shortcut works with the menu closed: F2 renames, and the server has the new name.
  await page.keyboard.press('F2');
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByLabel('New name').fill('Named by keyboard');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(header(page).locator('h2.chat-title')).toHaveText('Named by keyboard');
  await expect
    .poll(async () => {
      const listed = (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
        conversaciones: { titulo: string | null }[];
      };
      return listed.conversaciones.map((c) => c.titulo);
    })
    .toContain('Named by keyboard');
});
