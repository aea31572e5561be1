import { expect, test } from '@playwright/test';
import { withFullChromium } from './chromium';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';
import { newConversation } from './support/chat-page';

// The README: "notifies you when a reply finishes while its window is not focused (Settings can turn
// that off)". In browser mode the notification is the page's own, which the browser shows only once the
// person allowed it: Settings ticks its box only then, and ticking it asks. Browser mode against the real local service
// and its demo agent. Headless Chromium draws no notification and its page never loses the focus, so
// the page's Notification constructor is wrapped to record what it was asked to show (and still shows
// it), and document.hasFocus answers a flag the test sets; the permission is the browser's own.

let app: AppSession;

test.describe.configure({ mode: 'serial' });
// The full Chromium: the headless shell answers every notification permission "denied".
test.use(withFullChromium);

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'notify@example.test' });
});

test.afterAll(async () => {
  await app?.close();
});

const recordNotifications = `
  window.__shown = [];
  window.__focused = true;
  document.hasFocus = () => window.__focused;
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: options && options.body });
    }
  };
`;

test('Settings asks the browser to allow notifications, then a reply finished in the background notifies', async ({
  page,
  context,
}) => {
  await context.addInitScript(recordNotifications);
  await openApp(page, app);
  await showScreen(page, 'Settings');
  // The box shows what would really happen: not ticked while the browser has not allowed it.
  const notify = page.getByRole('checkbox', { name: /Notify me when a reply finishes/ });
  const note = page.getByRole('note', { name: 'Browser notifications' });
  await expect(notify).not.toBeChecked();
  await expect(note).toContainText('asks this browser to allow');

  await context.grantPermissions(['notifications'], { origin: app.mode.origin });
  // The box follows the saved setting, which lands after the browser's answer: click, then wait for the tick.
  await notify.click();
  await expect(notify).toBeChecked();
  await expect(note).toHaveCount(0);

  await showScreen(page, 'Chats');
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('wait 2');
  await box.press('Enter');
  // The window loses the focus as the reply starts (on a busy machine a later step could miss the 2 s).
  await page.evaluate('window.__focused = false');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText('Waiting 2 seconds');
  await expect
    .poll(() => page.evaluate('window.__shown'), { timeout: 20_000 })
    .toEqual([{ title: expect.any(String), body: 'The reply is ready.' }]);
});

test('with notifications turned off in Settings, nothing is shown and nothing is asked', async ({
  page,
  context,
}) => {
  await context.addInitScript(recordNotifications);
  await context.grantPermissions(['notifications'], { origin: app.mode.origin });
  await openApp(page, app);
  await showScreen(page, 'Settings');
  const notify = page.getByRole('checkbox', { name: /Notify me when a reply finishes/ });
  await expect(notify).toBeChecked();
  await notify.click();
  await expect(notify).not.toBeChecked();
  await expect(page.getByRole('note', { name: 'Browser notifications' })).toHaveCount(0);

  await showScreen(page, 'Chats');
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('wait 1');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toContainText('Waiting 1 second');
  await page.evaluate('window.__focused = false');
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  expect(await page.evaluate('window.__shown')).toEqual([]);
});
