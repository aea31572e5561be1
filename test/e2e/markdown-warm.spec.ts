import { expect, test } from '@playwright/test';
import { openApp, startApp, type AppSession } from './support/app-session';

// The Markdown renderer (its own script chunk) is loaded while the chat waits for the person, not when a
// reply's first chunk needs it: running that script is one task of 50-80 ms, which showed as a long task
// inside the first streamed reply (bench:ui). In browser mode against the real local service.

let app: AppSession;

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'warm@example.test' });
});
test.afterAll(async () => app?.close());

const rendererLoaded =
  "performance.getEntriesByType('resource').some((entry) => /markdown-render/.test(entry.name))";

test('an open conversation with nothing in it yet has the Markdown renderer loaded before any reply', async ({
  page,
}) => {
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  const path = `/api/v2/me/agents/${agents.agentes[0]!.id}/conversations`;
  const made = (await (await app.api(path, { method: 'POST' })).json()) as { id: string };
  await app.api(`${path}/${made.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Nothing said yet' }),
  });

  await openApp(page, app);
  const chat = page.getByRole('region', { name: 'Chat' });
  await expect(chat.locator('h2.chat-title')).toHaveText('Nothing said yet');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  // Nothing on the page needs Markdown yet…
  await expect(chat.getByRole('article', { name: 'Agent reply' })).toHaveCount(0);
  // …and the renderer comes all the same, once the page is idle.
  await expect.poll(() => page.evaluate(rendererLoaded)).toBe(true);
});
