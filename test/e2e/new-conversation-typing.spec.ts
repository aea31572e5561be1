import { expect, test } from '@playwright/test';
import { openApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';
import {
  chatApp,
  chatTitle,
  conversationsOf,
  messageBox,
  messagesOf,
  newConversation,
  replies,
  replyEnded,
  sendAndWait,
  yourMessages,
} from './support/chat-page';

// Mod+N asks the server for a new conversation; a person types at once, before the answer comes. What they
// type belongs to the new conversation: none of it may stay in (or be lost from) the one shown before.
// The server here answers in milliseconds, so the page's bridge socket holds the answer of
// `createConversation` until the typing is done: a slow server, as a busy or distant one is (the real
// service still makes the conversation; only its answer waits).

const session = chatApp('new-conversation-typing@example.test');
let app: AppSession;
let agentId: string;
test.beforeAll(() => {
  app = session.app();
  agentId = session.agentId();
});

test('Mod+N then typing at once: every key lands in the new conversation, none in the one shown before', async ({
  page,
}) => {
  const server = await heldAnswers(page, 'createConversation');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'the earlier conversation');
  const [earlier] = await conversationsOf(app, agentId);
  const typed = 'typed the moment the new conversation was asked for';

  server.hold();
  await page.keyboard.press('Control+N');
  await page.keyboard.type(typed);
  server.release();

  await expect(chatTitle(page)).toHaveText('New conversation');
  await expect(messageBox(page)).toHaveValue(typed);
  await expect(messageBox(page)).toBeFocused();
  const made = (await conversationsOf(app, agentId)).filter((c) => c.id !== earlier!.id);
  expect(made).toHaveLength(1);

  // Sent from there, it is the new conversation's first message.
  await page.keyboard.press('Enter');
  await replyEnded(page, 1);
  expect((await messagesOf(app, agentId, made[0]!.id))[0]?.content).toBe(typed);
  expect((await messagesOf(app, agentId, earlier!.id)).map((m) => m.content)).not.toContain(typed);

  // The conversation shown before kept its own empty message box.
  await page.keyboard.press('Control+BracketRight');
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(yourMessages(page)).toContainText('the earlier conversation');
  await expect(messageBox(page)).toHaveValue('');
});

test('Mod+N, then another conversation picked before the server answers: the pick stands', async ({
  page,
}) => {
  const server = await heldAnswers(page, 'createConversation');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'the conversation picked while waiting');
  const before = (await conversationsOf(app, agentId)).map((c) => c.id);

  server.hold();
  await page.keyboard.press('Control+N');
  const list = page.getByRole('list', { name: 'Conversation list' });
  await list.getByRole('button').first().click();
  await expect(yourMessages(page)).toContainText('the conversation picked while waiting');
  await messageBox(page).fill('typed in the picked conversation');
  server.release();

  // The new conversation is made and listed, but the screen stays where the person went.
  await expect
    .poll(async () => (await conversationsOf(app, agentId)).filter((c) => !before.includes(c.id)).length)
    .toBe(1);
  await expect(list.getByRole('listitem')).toHaveCount(before.length + 1);
  await expect(yourMessages(page)).toContainText('the conversation picked while waiting');
  await expect(messageBox(page)).toHaveValue('typed in the picked conversation');
  await expect(messageBox(page)).toBeFocused();
});

test('a message leaves the box when sent: what is typed while the server answers stays for the next one', async ({
  page,
}) => {
  const server = await heldAnswers(page, 'sendMessage');
  await openApp(page, app);
  await newConversation(page);

  server.hold();
  await messageBox(page).fill('sent while the server is slow');
  await page.keyboard.press('Enter');
  await expect(yourMessages(page)).toContainText('sent while the server is slow');
  await expect(messageBox(page)).toHaveValue('');
  await page.keyboard.type('the next message');
  // The send's answer comes last, after the stream told the whole reply: the reply stays ended, shown once,
  // and the list says so.
  await expect(replies(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(replies(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  // Nor is the message shown twice meanwhile (the history, read at the turn's end, holds it too): a second
  // of the page at rest with the answer still out, since what is checked is that nothing comes.
  await page.waitForTimeout(1000);
  await expect(yourMessages(page)).toHaveCount(1);
  server.release();
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page)).toHaveAttribute('aria-busy', 'false');
  // Ended: the open conversation's row has no "Running" (a finished reply needs no badge).
  const openRow = page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');
  await expect(openRow).toBeVisible();
  await expect(openRow.getByLabel(/Last reply:/)).toHaveCount(0);

  await expect(messageBox(page)).toHaveValue('the next message');
  await page.keyboard.press('Enter');
  await replyEnded(page, 2);
  await expect(yourMessages(page)).toHaveCount(2);
  await expect(yourMessages(page).last()).toContainText('the next message');
});

test('a reply that ends while the history read before it is still out stays on screen, with its question', async ({
  page,
}) => {
  const reads = await heldAnswers(page, 'openConversation');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'a conversation to come back to');
  const list = page.getByRole('list', { name: 'Conversation list' });

  // Back to it from another: its history is read again, and that read's answer is held (the host read it
  // before the message below was sent) until the reply has ended.
  await newConversation(page);
  reads.hold();
  await list.getByRole('button', { name: /a conversation to come back to/ }).click();
  await expect(yourMessages(page)).toHaveCount(1);
  await messageBox(page).fill('said while the read was out');
  await page.keyboard.press('Enter');
  await replyEnded(page, 2);
  reads.release();

  await expect(yourMessages(page)).toHaveCount(2);
  await expect(yourMessages(page).last()).toContainText('said while the read was out');
  await expect(replies(page)).toHaveCount(2);
  await expect(replies(page).last()).toContainText('said while the read was out');
});

test('a message whose send is answered late shows once, though its conversation was opened again meanwhile', async ({
  page,
}) => {
  // The send's answer is held past the reply's end, and so is the history read of the conversation opened
  // again meanwhile: released together, the send's answer comes first, then the read, as a slow host gives.
  const host = await heldAnswers(page, ['sendMessage', 'openConversation']);
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'somewhere else first');
  await newConversation(page);
  const list = page.getByRole('list', { name: 'Conversation list' });

  host.hold();
  await messageBox(page).fill('answered late, shown once');
  await page.keyboard.press('Enter');
  await replyEnded(page, 1);
  await list.getByRole('button', { name: /somewhere else first/ }).click();
  await expect(yourMessages(page)).toContainText('somewhere else first');
  await list.getByRole('button', { name: /answered late, shown once/ }).click();
  await expect(yourMessages(page)).toContainText('answered late, shown once');
  host.release();
  // A read asked from now on is held in turn: the page shows what the released answers left.
  host.hold();

  // A model chosen after the release: its answer comes after the released ones, so when its note shows
  // they are in.
  const picker = page.getByRole('region', { name: 'Chat' }).getByRole('combobox', { name: 'Model' });
  await picker.selectOption('demo-deep');
  await expect(page.getByRole('status').filter({ hasText: 'applies from the next reply' })).toBeVisible();
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(replies(page)).toHaveCount(1);

  host.release();
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(yourMessages(page)).not.toContainText('Sending…');
  await expect(replies(page)).toHaveCount(1);
});

test('typed into the first screen’s box before the conversations come: the newest opens with the words', async ({
  page,
}) => {
  const server = await heldAnswers(page, 'listConversations');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'the newest conversation');
  const typed = 'typed before the list came';

  server.hold();
  await page.reload();
  // The welcome's box is there and takes keys before the list is (issue 40: the first screen).
  await expect(messageBox(page)).toBeFocused();
  await page.keyboard.type(typed);
  server.release();

  await expect(yourMessages(page)).toContainText('the newest conversation');
  await expect(messageBox(page)).toHaveValue(typed);
  await expect(messageBox(page)).toBeFocused();
});
