import { expect, test } from '@playwright/test';
import { openApp, showScreen, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';

// The conversation list on a slow host: the page's bridge socket holds the answers of `listConversations`,
// so the listing read when the app opens comes after the person has made a conversation. Browser mode
// against the real local service and its demo agent.

let app: AppSession;

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'conversation-list-late@example.test' });
});
test.afterAll(async () => app?.close());

test('a conversation made while the list is still on its way stays in the list', async ({ page }) => {
  const host = await heldAnswers(page, 'listConversations');
  host.hold();
  await openApp(page, app);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('made while listing');
  await box.press('Enter');
  // Made and named: in the list before the listing comes.
  const rows = page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('made while listing');

  // The listing, read before the conversation was made, now arrives.
  host.release();
  // One more answer, asked for after it, has reached the page: so has the listing.
  await showScreen(page, 'Account');
  await expect(page.getByRole('list', { name: 'Saved servers list' })).toContainText('In use');
  await showScreen(page, 'Chats');
  // Read once, not waited for: the list's own refresh would bring it back some seconds later.
  expect(await rows.allInnerTexts()).toHaveLength(1);
  await expect(rows.first()).toContainText('made while listing');
});
