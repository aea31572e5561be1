import { expect, test } from '@playwright/test';
import { openApp } from './support/app-session';
import { chatApp, conversationsOf, messagesOf, replyEnded, yourMessages } from './support/chat-page';
import { heldAnswers } from './support/held-answers';

// A starter opens its conversation and sends itself at once, so the conversation's first history read and
// the message race each other to the service. On a busy machine the read is served after the message (and
// here after its whole reply): the read then holds the message the chat shows live. The page's bridge
// socket holds the read's call until the service has the turn, as a busy host would.

const session = chatApp('starter-read-late@example.test');

test('a starter whose conversation is read after it was sent shows once, with one reply', async ({
  page,
}) => {
  const app = session.app();
  const agentId = session.agentId();
  const patched = await app.api(`/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ starters: ['What can you do?'] }),
  });
  expect(patched.status).toBe(200);
  const server = await heldAnswers(page, 'openConversation', { calls: true });
  await openApp(page, app);
  const welcome = page.getByRole('region', { name: /^Welcome to / });

  server.hold();
  await welcome.getByRole('button', { name: 'What can you do?' }).click();
  // The service stores the message and its reply while the conversation's read still waits to reach it.
  await expect
    .poll(
      async () => {
        const [made] = await conversationsOf(app, agentId);
        return made ? (await messagesOf(app, agentId, made.id)).map((m) => m.role) : [];
      },
      { timeout: 30_000 },
    )
    .toEqual(['user', 'assistant']);
  server.release();

  // The late read's answer is in the page (two frames after it crossed): from then on the message is there
  // once, its reply once, and it stays so.
  await expect.poll(() => server.answered(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await expect(yourMessages(page)).toHaveText([/^What can you do\?/]);
  await replyEnded(page, 1);
  await expect(yourMessages(page)).toHaveText([/^What can you do\?/]);
});
