import { expect, test } from '@playwright/test';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';
import { messageBox, newConversation, replies, replyEnded, sendAndWait } from './support/chat-page';

// Issue 29, item 10 against a server that has only the spec (test/support/spec-only-server.ts): its
// /openapi.yaml lists no fork, so the app hides Branch and never asks for it. The spec's own actions
// (copy, retry, edit) stay, and retry works there through the spec's POST messages.

let app: SpecOnlyApp;

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});
test.afterAll(async () => {
  await app?.close();
});

test('no Branch where the server offers no fork; Copy and Retry still work', async ({ page }) => {
  await signInToSpecOnly(page, app);
  await newConversation(page);
  await sendAndWait(page, 'hello from the spec');
  const reply = replies(page).last();
  await reply.hover();
  await expect(reply.getByRole('button', { name: 'Copy Markdown' })).toBeVisible();
  await expect(reply.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Branch', exact: true })).toHaveCount(0);

  await reply.getByRole('button', { name: 'Retry' }).click();
  await replyEnded(page, 2);
  const list = await app.api.listConversations(app.agentId);
  if (!list.ok) throw new Error(list.error.message);
  const sessionId = list.value[0]!.id;
  const stored = await app.api.getConversation(app.agentId, sessionId);
  if (!stored.ok) throw new Error(stored.error.message);
  expect(stored.value.messages.filter((m) => m.content === 'hello from the spec')).toHaveLength(2);
  await expect(messageBox(page)).toBeVisible();

  // The app asked this server for nothing outside the spec to decide (its description is in the spec).
  // It read the server's description (served, not refused) and never tried the fork route.
  expect(app.spec.refused).not.toContain('GET /openapi.yaml');
  expect(app.spec.refused.filter((request) => request.includes('/fork'))).toEqual([]);
});
