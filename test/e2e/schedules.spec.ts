import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ManualTimers } from '../../src/service/manual-timers';
import { openApp, screens, startApp, type AppSession } from './support/app-session';
import { newConversation } from './support/chat-page';
import { chooseInHeaderMenu } from './support/header-menu';

// Scheduled turns in browser mode against the real local service and its demo agent. The service runs
// on a test clock (browser mode's test-only `serviceClock`), so a turn due in one minute runs as soon
// as the test moves the clock, and shows up in the open conversation like any turn. What the panel
// does is checked against the schedule the API stores.

let app: AppSession;
let clock: ManualTimers;
let agentId: string;

interface Stored {
  programados: {
    id: string;
    prompt: string;
    dueAt: string;
    repeatMin: number | null;
    until: string | null;
  }[];
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  clock = new ManualTimers(Date.now());
  app = await startApp(browser, { email: 'schedules@example.test', serviceClock: clock });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
});

test.afterAll(async () => {
  await app?.close();
});

const panel = (page: Page) => page.getByRole('region', { name: 'Scheduled messages' });

async function openNewConversation(page: Page): Promise<string> {
  await openApp(page, app);
  await newConversation(page);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const listed = (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
    conversaciones: { id: string }[];
  };
  await chooseInHeaderMenu(page, 'Schedule a message…');
  await expect(panel(page)).toBeVisible();
  return listed.conversaciones[0]!.id;
}

const stored = async (sessionId: string): Promise<Stored['programados']> =>
  (
    (await (
      await app.api(`/api/v2/me/agents/${agentId}/conversations/${sessionId}/schedule`)
    ).json()) as Stored
  ).programados;

test('a turn scheduled in one minute is stored, shown with its due time, and runs when the clock gets there', async ({
  page,
}) => {
  const sessionId = await openNewConversation(page);
  await expect(panel(page)).toContainText('Nothing is scheduled in this conversation.');
  await panel(page).getByLabel('Message to send').fill('echo scheduled hello');
  await panel(page).getByLabel('Minutes from now').fill('1');
  await panel(page).getByRole('button', { name: 'Schedule' }).click();

  const item = panel(page).getByRole('list', { name: 'Scheduled list' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('echo scheduled hello');
  await expect(item).toContainText('Once');
  const [saved] = await stored(sessionId);
  expect(saved).toMatchObject({ prompt: 'echo scheduled hello', repeatMin: null, until: null });
  expect(Date.parse(saved!.dueAt)).toBe(clock.now() + 60_000);
  await expect(item.locator('time')).toHaveAttribute('datetime', saved!.dueAt);
  await page.screenshot({ path: join(screens, 'schedules.png') });

  clock.advance(61_000);
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('scheduled hello', { timeout: 30_000 });
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  // Like any turn: the scheduled message shows above its reply.
  await expect(page.getByRole('article', { name: 'Your message' }).last()).toContainText(
    'echo scheduled hello',
  );
  await expect(item).toHaveCount(0);
  await expect(panel(page)).toContainText('Nothing is scheduled in this conversation.');
  expect(await stored(sessionId)).toEqual([]);
  await page.screenshot({ path: join(screens, 'schedules-ran.png') });
});

test('a repeating turn at a date and time; the service refusal is shown by its detalle', async ({ page }) => {
  const sessionId = await openNewConversation(page);
  const form = panel(page).getByRole('form', { name: 'New scheduled message' });
  // Scheduled messages, in a person's word: "turn" is the wire's.
  await expect(panel(page).getByRole('heading', { name: 'Scheduled messages' })).toBeVisible();
  await expect(panel(page)).not.toContainText(/\bturns?\b/i);
  await form.getByLabel('Message to send').fill('weekly report');
  await form.getByRole('radio', { name: /^At/ }).check();
  await form.getByLabel('Date and time').fill('2030-05-01T09:30');
  await form.getByRole('checkbox', { name: /Every/ }).check();
  await form.getByLabel('Repeat every (minutes)').fill('30');
  await form.getByLabel('Repeat until').fill('2030-04-01T09:30');
  await form.getByRole('button', { name: 'Schedule' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    /The end of the repeats is before the first time it would be sent/,
  );
  expect(await stored(sessionId)).toEqual([]);

  await form.getByLabel('Repeat until').fill('2030-05-02T09:30');
  await form.getByRole('button', { name: 'Schedule' }).click();
  const item = panel(page).getByRole('listitem');
  await expect(item).toContainText('Repeats every 30 min until');
  const [saved] = await stored(sessionId);
  expect(saved).toMatchObject({ prompt: 'weekly report', repeatMin: 30 });
  expect(saved!.dueAt).toBe(new Date('2030-05-01T09:30').toISOString());
  expect(saved!.until).toBe(new Date('2030-05-02T09:30').toISOString());
});

test('cancel asks first, then the API no longer lists the turn', async ({ page }) => {
  const sessionId = await openNewConversation(page);
  await panel(page).getByLabel('Message to send').fill('to be cancelled');
  await panel(page).getByLabel('Minutes from now').fill('30');
  await panel(page).getByRole('button', { name: 'Schedule' }).click();
  const item = panel(page).getByRole('listitem');
  await expect(item).toContainText('to be cancelled');
  expect(await stored(sessionId)).toHaveLength(1);

  await item.getByRole('button', { name: 'Cancel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this scheduled message?' });
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  expect(await stored(sessionId)).toHaveLength(1);
  await item.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Cancel it' }).click();
  await expect(item).toHaveCount(0);
  expect(await stored(sessionId)).toEqual([]);
});
