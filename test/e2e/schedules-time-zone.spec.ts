import { expect, test } from '@playwright/test';
import { openApp, startApp, type AppSession } from './support/app-session';
import { conversationAction } from './support/new-user-walk';

// Schedules speak the person's time zone (here Europe/Madrid, set on the browser) while the wire carries
// instants: a time typed in the form reaches the API as the right UTC instant, and one stored through the
// API shows in Madrid time, with the zone named (British English: a 24-hour clock). Browser mode on the real
// local service.

test.use({ timezoneId: 'Europe/Madrid', locale: 'en-GB' });

let app: AppSession;
let agentId: string;

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'time-zone@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

test('a time typed in Madrid is stored as its instant, and a stored instant shows in Madrid time', async ({
  page,
}) => {
  const made = (await (
    await app.api(`/api/v2/me/agents/${agentId}/conversations`, { method: 'POST' })
  ).json()) as { id: string };
  const schedule = `/api/v2/me/agents/${agentId}/conversations/${made.id}/schedule`;
  await openApp(page, app);
  await page.getByRole('list', { name: 'Conversation list' }).getByRole('button').first().click();
  await conversationAction(page, /^Schedule/);
  const panel = page.getByRole('region', { name: 'Scheduled messages' });
  await expect(panel).toContainText('Times are in your time zone, Europe/Madrid (');
  await expect(panel).not.toContainText('UTC');

  // Summer: Madrid is UTC+2.
  await panel.getByLabel('Message to send').fill('summer check');
  await panel.getByRole('radio', { name: /At/ }).check();
  await panel.getByLabel('Date and time').fill('2030-07-01T09:30');
  await panel.getByRole('button', { name: 'Schedule' }).click();
  const items = panel.getByRole('list', { name: 'Scheduled list' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  const stored = (await (await app.api(schedule)).json()) as { programados: { dueAt: string }[] };
  expect(stored.programados.map((p) => p.dueAt)).toEqual(['2030-07-01T07:30:00.000Z']);
  await expect(items.first()).toContainText('09:30');

  // Winter, stored through the API: 17:00 UTC is 18:00 in Madrid.
  await app.api(schedule, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'winter check', dueAt: '2030-01-15T17:00:00.000Z' }),
  });
  await page.reload();
  await page.getByRole('list', { name: 'Conversation list' }).getByRole('button').first().click();
  await conversationAction(page, /^Schedule/);
  const winter = panel.getByRole('listitem').filter({ hasText: 'winter check' });
  await expect(winter).toContainText('18:00');
  await expect(winter.locator('time')).toHaveAttribute('datetime', '2030-01-15T17:00:00.000Z');
});
