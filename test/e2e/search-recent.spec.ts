import { expect, test } from '@playwright/test';
import { openApp, screens, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';

// Mod+K with nothing typed lists the recent conversations of every agent (issue 39, item 8), in browser
// mode against the real local service: conversations made and named through the API, one of them with
// another agent; arrows and Enter open one, switching agent when needed.

let app: AppSession;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'recent@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  const other = (
    (await (
      await app.api('/api/v2/me/agents', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ nombre: 'Second helper' }),
      })
    ).json()) as { id: string }
  ).id;
  await named(agents.agentes[0]!.id, 'Oldest plan');
  await named(agents.agentes[0]!.id, 'Middle plan');
  await named(other, 'Plan with the second helper');
});
test.afterAll(async () => app?.close());

async function named(agentId: string, title: string): Promise<string> {
  const path = `/api/v2/me/agents/${agentId}/conversations`;
  const made = (await (await app.api(path, { method: 'POST' })).json()) as { id: string };
  await app.api(`${path}/${made.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  // One message, answered before the next conversation is made: the last turn's time orders the list.
  const sent = await app.api(`${path}/${made.id}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ turnId: crypto.randomUUID(), content: `About ${title}` }),
  });
  expect(sent.status).toBeLessThan(300);
  await expect
    .poll(async () => {
      const list = (await (await app.api(path)).json()) as {
        conversaciones: { id: string; ultimoTurno: { estado: string } | null }[];
      };
      return list.conversaciones.find((c) => c.id === made.id)?.ultimoTurno?.estado;
    })
    .toBe('done');
  return made.id;
}

test('Enter opens the highlighted conversation when another agent’s list arrives after the arrows', async ({
  page,
}) => {
  // The other agent's list is late (a busy host): the palette first lists the selected agent's two.
  const lists = await heldAnswers(page, 'listConversations');
  await openApp(page, app);
  await expect(page.getByRole('region', { name: 'Conversations' })).toContainText('Oldest plan');
  lists.hold();
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.press('Control+K');
  const recent = page
    .getByRole('dialog', { name: 'Search all conversations' })
    .getByRole('list', { name: 'Recent conversations' })
    .getByRole('button');
  await expect(recent).toHaveCount(2);
  await page.keyboard.press('ArrowDown');
  await expect(recent.nth(1)).toContainText('Oldest plan');
  await expect(recent.nth(1)).toHaveClass(/active/);
  // The late list puts another agent's newer conversation first: the highlight stays on its conversation.
  lists.release();
  await expect(recent).toHaveCount(3);
  await expect(recent.filter({ hasText: 'Oldest plan' })).toHaveClass(/active/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText('Oldest plan');
});

test('the empty palette lists the recent conversations of every agent; arrows and Enter open one', async ({
  page,
}) => {
  await openApp(page, app);
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search all conversations' });
  const recent = palette.getByRole('list', { name: 'Recent conversations' }).getByRole('button');
  // Newest first, over both agents.
  await expect(recent).toHaveCount(3);
  for (const [i, title] of ['Plan with the second helper', 'Middle plan', 'Oldest plan'].entries())
    await expect(recent.nth(i)).toContainText(title);
  await expect(recent.filter({ hasText: 'Plan with the second helper' })).toContainText('Second helper');
  await page.screenshot({ path: `${screens}/search-recent.png` });

  // Typing searches instead; emptying the box brings the recent ones back.
  const query = palette.getByRole('searchbox', { name: 'Search everything ever said' });
  await query.fill('zzzz-nothing');
  await expect(palette.getByRole('list', { name: 'Recent conversations' })).toHaveCount(0);
  await query.fill('');
  await expect(recent).toHaveCount(3);

  // Another agent's: a click opens it there.
  await recent.filter({ hasText: 'Plan with the second helper' }).click();
  await expect(palette).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText(
    'Plan with the second helper',
  );
  await expect(
    page.getByRole('navigation', { name: 'Agents' }).locator('[aria-current="true"]'),
  ).toContainText('Second helper');

  // By keyboard, with the pointer at rest over the list (where the click left it): arrows move the
  // highlight both ways, and Enter opens the highlighted one, not the first.
  await page.keyboard.press('Control+K');
  await expect(recent).toHaveCount(3);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(recent.nth(1)).toHaveClass(/active/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText('Middle plan');
});

test('Enter pressed the moment the palette first shows its results opens the first one', async ({ page }) => {
  // The palette's chunk is late (a busy machine), so the search has its answer before the palette can show
  // it, and the chunk's first commit shows the results at once. Enter is pressed right as they appear, in
  // the page's next microtask, before anything the browser schedules after the commit.
  let letChunkGo = () => {};
  const chunkMayGo = new Promise<void>((resolve) => (letChunkGo = resolve));
  await page.route(/\/assets\/Palette-[^/]*\.js$/, async (route) => {
    await chunkMayGo;
    await route.continue();
  });
  // The host's answer with the hits, seen on the bridge's socket as it reaches the page.
  const answered = new Promise<void>((resolve) =>
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"snippet"') && String(payload).includes('Middle')) resolve();
      }),
    ),
  );
  await openApp(page, app);
  await expect(page.getByRole('region', { name: 'Conversations' })).toContainText('Middle plan');
  await page.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.press('Control+K');
  await page.keyboard.type('Middle');
  // As a string: the page's DOM is not in this file's types.
  await page.evaluate(`{
    const press = new MutationObserver(() => {
      if (!document.querySelector('.search-results li')) return;
      press.disconnect();
      document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    press.observe(document.body, { childList: true, subtree: true });
  }`);
  await answered;
  letChunkGo();
  await expect(page.getByRole('dialog', { name: 'Search all conversations' })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title')).toHaveText('Middle plan');
});
