import { expect, test } from '@playwright/test';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';
import {
  messageBox,
  newConversation,
  replies,
  replyEnded,
  sendAndWait,
  yourMessages,
} from './support/chat-page';

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

// A server with our fork but not the rewind (an older service, or another server that forks): Retry and Edit
// branch. The history before the person's last message goes to a new conversation where the edited text is
// sent; the two are linked on this computer as versions 1 and 2 of that exchange.
test.describe('on a server with the fork but no rewind', () => {
  let forking: SpecOnlyApp;
  test.beforeAll(async () => {
    forking = await startSpecOnlyApp(['forkConversation']);
  });
  test.afterAll(async () => {
    await forking?.close();
  });

  test('Edit branches: the new conversation holds one copy, linked to the earlier one as ‹ 1/2 ›', async ({
    page,
  }) => {
    await signInToSpecOnly(page, forking);
    await newConversation(page);
    await sendAndWait(page, 'wait 0');
    await sendAndWait(page, 'pears are green');
    const texts = async (sessionId: string) => {
      const read = await forking.api.getConversation(forking.agentId, sessionId);
      if (!read.ok) throw new Error(read.error.message);
      return read.value.messages.map((m) => m.content.split('\n')[0]);
    };
    const listed = async () => {
      const list = await forking.api.listConversations(forking.agentId);
      if (!list.ok) throw new Error(list.error.message);
      return list.value.map((c) => c.id);
    };
    const [original] = await listed();

    const last = yourMessages(page).last();
    await last.hover();
    await last.getByRole('button', { name: 'Edit' }).click();
    const box = page.getByRole('textbox', { name: 'Edit your message' });
    await box.fill('pears are yellow');
    await box.press('Enter');
    await expect.poll(async () => (await listed()).length).toBe(2);
    const branched = (await listed()).find((id) => id !== original)!;
    await expect
      .poll(() => texts(branched))
      .toEqual(['wait 0', 'Waiting 0 seconds…', 'pears are yellow', 'Hello! You said: "pears are yellow".']);
    const read = await forking.api.getConversation(forking.agentId, branched);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.messages[3]!.content).toContain('before this you said: "wait 0".');
    // The earlier conversation is left as it was.
    expect(await texts(original!)).toEqual([
      'wait 0',
      'Waiting 0 seconds…',
      'pears are green',
      'Hello! You said: "pears are green".',
    ]);

    // The switcher goes from the new version to the earlier conversation and back.
    const versions = page.getByRole('group', { name: 'Versions of this exchange' });
    await expect(versions).toContainText('2/2');
    await expect(yourMessages(page).last()).toContainText('pears are yellow');
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await expect(versions).toContainText('1/2');
    await expect(yourMessages(page).last()).toContainText('pears are green');
    await versions.getByRole('button', { name: 'Next version' }).click();
    await expect(yourMessages(page).last()).toContainText('pears are yellow');
    expect(forking.spec.refused.filter((r) => r.includes('/rewind') || r.includes('/versions'))).toEqual([]);
  });
});
