import { expect, test, type Page } from '@playwright/test';
import { openApp, type AppSession } from './support/app-session';
import {
  chatApp,
  conversationStartingWith,
  conversationsOf,
  messagesOf,
  newConversation,
  replies,
  replyEnded,
  sendAndWait,
  transcript,
  yourMessages,
} from './support/chat-page';

// Issue 29, item 10: Branch makes a new conversation that starts with the history up to a reply (our
// service's fork extension). The new conversation is read back through the API, and its agent is shown
// to have received that history: the demo agent recalls the message before the branch point.

const session = chatApp('branch@example.test');
let app: AppSession;
let agentId: string;
test.beforeAll(() => {
  app = session.app();
  agentId = session.agentId();
});

const chatTitle = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title');

test('Branch from an earlier reply: a new conversation with the history up to it, which its agent knows', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'the cat is called Tom');
  await sendAndWait(page, 'the dog is called Rex');
  const original = await conversationStartingWith(app, agentId, 'the cat is called Tom');
  const before = (await conversationsOf(app, agentId)).length;

  const first = replies(page).first();
  await first.hover();
  await first.getByRole('button', { name: 'Branch' }).click();

  // The app opens the new conversation at once; the server holds it with the first two messages.
  await expect.poll(async () => (await conversationsOf(app, agentId)).length).toBe(before + 1);
  const forked = (await conversationsOf(app, agentId)).find((c) => c.titulo?.endsWith('(branch)'))!;
  expect(forked.id).not.toBe(original);
  await expect(chatTitle(page)).toHaveText(forked.titulo!);
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(replies(page)).toHaveCount(1);
  await expect(transcript(page)).not.toContainText('Rex');
  const copied = await messagesOf(app, agentId, forked.id);
  expect(copied.map((m) => m.content.split('\n')[0])).toEqual([
    'the cat is called Tom',
    'Hello! You said: "the cat is called Tom".',
  ]);

  // The fork's agent was given that history: it counts it and quotes the message before the branch.
  await sendAndWait(page, 'what is the cat called?');
  await replyEnded(page, 2);
  const reply = (await messagesOf(app, agentId, forked.id)).at(-1)!.content;
  expect(reply).toContain(
    'This is message 2 of our conversation; before this you said: "the cat is called Tom".',
  );
  // The original goes on untouched.
  expect(await messagesOf(app, agentId, original)).toHaveLength(4);
});

test('Branch by keyboard alone from the newest reply of a live conversation', async ({ page }) => {
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'pick a colour');
  const original = await conversationStartingWith(app, agentId, 'pick a colour');
  const before = (await conversationsOf(app, agentId)).length;

  await replies(page).last().focus();
  // Enter goes into the reply (its controls are no Tab stops until then); Tab through them to Branch.
  await page.keyboard.press('Enter');
  const focused = () => page.evaluate<string | null>('document.activeElement?.textContent ?? null');
  for (let i = 0; i < 8 && (await focused()) !== 'Branch'; i++) await page.keyboard.press('Tab');
  await expect(replies(page).last().getByRole('button', { name: 'Branch' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await conversationsOf(app, agentId)).length).toBe(before + 1);
  const forked = (await conversationsOf(app, agentId)).find(
    (c) => c.id !== original && c.titulo === 'pick a colour (branch)',
  );
  expect(forked).toBeDefined();
  expect((await messagesOf(app, agentId, forked!.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
  await expect(chatTitle(page)).toHaveText('pick a colour (branch)');
});
