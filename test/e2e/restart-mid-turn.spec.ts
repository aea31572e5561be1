import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startService, type RunningService } from '../../src/service/index';
import { openApp, screens } from './support/app-session';
import { chatApp, messageBox, newConversation, replies, replyEnded, yourMessages } from './support/chat-page';

// Issue 38, item 1, as the person sees it in the app (browser mode, the real local service): the service
// goes down in the middle of a turn and comes back on the same port and data. The reply that was streaming
// ends in words saying why, stops showing as busy, and the next message is answered; nothing waits for ever.

const chat = chatApp('restart-mid-turn@example.test');
let restarted: RunningService | undefined;
test.afterAll(async () => {
  await restarted?.close();
});

test('a turn cut by a service restart ends in words, and the next message is answered', async ({ page }) => {
  const app = chat.app();
  await openApp(page, app);
  await newConversation(page);
  await messageBox(page).fill('wait 30');
  await messageBox(page).press('Enter');
  const cut = replies(page).last();
  await expect(cut).toHaveAttribute('aria-busy', 'true');
  // The demo agent's wait is a tool call: the service goes down while it runs.
  await expect(cut.getByLabel('Tool status')).toHaveText('Running');

  const running = app.service();
  const port = Number(new URL(running.url).port);
  await running.close();
  restarted = await startService({ dataDir: join(app.dataDir, 'local-service'), port });

  // The turn's end reaches the app over its reconnected stream: said, not left spinning.
  await expect(cut).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  await expect(cut).toContainText(/The service (stopped|restarted) while this turn was running/);
  await expect(cut).toContainText('Send your message again to continue.');
  // Its tool call, left running, says it will not finish; and the turn is shown once (the history read
  // when the service came back holds it too).
  await expect(cut.getByLabel('Tool status')).toHaveText('Interrupted');
  await expect(replies(page)).toHaveCount(1);
  await expect(yourMessages(page)).toHaveCount(1);
  await page.screenshot({ path: join(screens, 'restart-mid-turn.png') });

  // The conversation goes on: the next message gets its reply.
  await expect(page.getByRole('status', { name: 'Offline' })).toHaveCount(0, { timeout: 20_000 });
  await messageBox(page).fill('Hello again');
  await messageBox(page).press('Enter');
  await replyEnded(page, 2);
  await expect(yourMessages(page)).toHaveCount(2);
  await expect(replies(page).last()).toContainText('You said: "Hello again"');
});
