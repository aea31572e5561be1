import { expect, test, type Locator, type Page } from '@playwright/test';
import { openApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';
import {
  chatApp,
  clipboardText,
  conversationStartingWith,
  messageBox,
  messagesOf,
  newConversation,
  replies,
  replyEnded,
  sendAndWait,
  transcript,
  yourMessages,
} from './support/chat-page';

// Issue 29, item 9 (the transcript's part): a skip link to the message box, and the transcript as one
// Tab stop with the roving focus of a log (arrows between messages, Enter into one, Escape back out);
// copy, retry and edit done by keyboard alone, checked through the API where the server's state changes.

const session = chatApp('transcript-keys@example.test');
let app: AppSession;
let agentId: string;
test.beforeAll(() => {
  app = session.app();
  agentId = session.agentId();
});

/** Whether the focused element is inside the transcript, and which message holds it (by label). */
const focusIn = (page: Page) =>
  page.evaluate<{
    inLog: boolean;
    isMessage: boolean;
    message: string | null;
    text: string;
    label: string | null;
  }>(`(() => {
    const active = document.activeElement;
    const log = document.querySelector('[role="log"]');
    const message = active?.closest('article.message');
    return {
      inLog: !!log && !!active && log.contains(active),
      isMessage: active?.matches('article.message') ?? false,
      message: message?.getAttribute('aria-label') ?? null,
      text: (active?.textContent ?? '').trim().slice(0, 40),
      label: active?.getAttribute('aria-label') ?? null,
    };
  })()`);

test('the skip link leads to the message box; the transcript is one Tab stop, walked with the arrows', async ({
  page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.mode.origin });
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'first words');
  await sendAndWait(page, 'second words');
  const sessionId = await conversationStartingWith(app, agentId, 'first words');

  // From the top of the page, the first Tab reaches the skip link; it leads to the message box.
  await page.evaluate(`(() => {
    const top = document.createElement('span');
    top.tabIndex = -1;
    document.body.prepend(top);
    top.focus();
  })()`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the message box' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(messageBox(page)).toBeFocused();

  // Back from the message box: past the composer's own buttons, the next stop is one message, the newest.
  for (let i = 0; i < 8 && !(await focusIn(page)).inLog; i++) await page.keyboard.press('Shift+Tab');
  expect(await focusIn(page)).toMatchObject({ inLog: true, isMessage: true, message: 'Agent reply' });
  await expect(replies(page).last()).toBeFocused();
  // One more step back leaves the transcript: no Thought, Details or action of any message is a stop.
  await page.keyboard.press('Shift+Tab');
  expect((await focusIn(page)).inLog).toBe(false);

  // Arrows move between messages; Home and End go to the ends.
  await replies(page).last().focus();
  await page.keyboard.press('ArrowUp');
  await expect(yourMessages(page).last()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(replies(page).first()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(yourMessages(page).first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(replies(page).last()).toBeFocused();
  // Page Up and Page Down move five messages, or to the end there is.
  await page.keyboard.press('PageUp');
  await expect(yourMessages(page).first()).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(replies(page).last()).toBeFocused();

  // Tab from a message leaves the transcript: its Thought and buttons are no stops of their own.
  await page.keyboard.press('Tab');
  expect((await focusIn(page)).inLog).toBe(false);

  // Enter goes into the message, to its first control; Enter there opens the Thought, Enter again closes it.
  await replies(page).last().focus();
  const thought = replies(page).last().locator('details.thought');
  await page.keyboard.press('Enter');
  expect(await focusIn(page)).toMatchObject({ inLog: true, isMessage: false, text: 'Thought' });
  await expect(thought).not.toHaveAttribute('open');
  await page.keyboard.press('Enter');
  await expect(thought).toHaveAttribute('open');
  await page.keyboard.press('Enter');
  await expect(thought).not.toHaveAttribute('open');

  // Inside, Tab walks the message's own controls, then leaves for the message box.
  const stops: string[] = ['Thought'];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    const at = await focusIn(page);
    if (!at.inLog) break;
    expect(at.message).toBe('Agent reply');
    stops.push(at.label ?? at.text);
  }
  // Branch too: this server offers fork (our extension).
  expect(stops).toEqual(['Thought', 'Copy Markdown', 'Copy text', 'Retry', 'Branch']);

  // Escape from a control comes back out to the message; Shift+Tab from the first control does too.
  await replies(page).last().focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(replies(page).last().getByRole('button', { name: 'Copy Markdown' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(replies(page).last()).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  await expect(replies(page).last()).toBeFocused();

  // Copy by keyboard.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(replies(page).last().getByRole('status')).toHaveText('Copied.');
  const stored = await messagesOf(app, agentId, sessionId);
  expect(await clipboardText(page)).toBe(stored[3]!.content);
});

test('a message with tool calls, code and links is still one stop; Enter reaches each of them', async ({
  page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.mode.origin });
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'list files');
  const long = 'x'.repeat(400);
  await sendAndWait(page, `see [the guide](https://example.test/guide)\n\n\`\`\`\n${long}\n\`\`\`\nand more`);

  // From the message box back: the newest reply, then (up past every message) out of the transcript.
  await messageBox(page).focus();
  for (let i = 0; i < 8 && !(await focusIn(page)).inLog; i++) await page.keyboard.press('Shift+Tab');
  await expect(replies(page).last()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect((await focusIn(page)).inLog).toBe(false);

  // Each message in turn: Tab from it leaves the transcript at once.
  for (const message of [yourMessages(page).last(), replies(page).first(), yourMessages(page).first()]) {
    await message.focus();
    await page.keyboard.press('Tab');
    expect((await focusIn(page)).inLog).toBe(false);
  }

  // Inside the person's message: its link, its code block's Copy (and the code, which scrolls), Edit.
  await yourMessages(page).last().focus();
  await page.keyboard.press('Enter');
  const inside: string[] = [];
  for (let i = 0; i < 8; i++) {
    const at = await focusIn(page);
    if (!at.inLog) break;
    expect(at.message).toBe('Your message');
    inside.push(at.label ?? at.text);
    await page.keyboard.press('Tab');
  }
  expect(inside[0]).toBe('the guide');
  expect(inside).toContain('Copy code');
  expect(inside.at(-1)).toBe('Edit');

  // The code block's Copy, by keyboard: the button says so, and the clipboard holds the code.
  await yourMessages(page).last().focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const copyCode = yourMessages(page).last().getByRole('button', { name: 'Copy code' });
  await expect(copyCode).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(copyCode).toHaveText('Copied');
  await expect(yourMessages(page).last().getByRole('status')).toHaveText('Code copied.');
  expect((await clipboardText(page)).trim()).toBe(long);

  // The tool call's Details are reached from inside the reply, and open with Enter.
  await replies(page).first().focus();
  await page.keyboard.press('Enter');
  const details = replies(page).first().locator('details.tool-detail summary').first();
  for (let i = 0; i < 6 && !(await details.evaluate((e) => e === e.ownerDocument.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(details).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(replies(page).first().locator('details.tool-detail').first()).toHaveAttribute('open');
  await page.keyboard.press('Escape');
  await expect(replies(page).first()).toBeFocused();
});

test('the focus stays on its message when a slow host has the history read again under it', async ({
  page,
}) => {
  const sends = await heldAnswers(page, 'sendMessage');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'first words');

  // The stream tells the whole reply while the send's answer is out; with it in, the history is read again
  // and the person's message is drawn as a new row (the reply that streamed keeps its row: chat.spec).
  // Meanwhile the person walks the transcript.
  const asked = async (text: string, count: number) => {
    sends.hold();
    await messageBox(page).fill(text);
    await messageBox(page).press('Enter');
    await replyEnded(page, count);
  };
  const redrawn = async (focused: Locator) => {
    const drawn = (await focused.elementHandle())!;
    sends.release();
    await expect.poll(() => drawn.evaluate((e) => e.isConnected)).toBe(false);
  };

  await asked('second words', 2);
  await replies(page).last().focus();
  await page.keyboard.press('ArrowUp');
  await expect(yourMessages(page).last()).toBeFocused();
  await redrawn(yourMessages(page).last());
  await expect(yourMessages(page).last()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(replies(page).first()).toBeFocused();

  // Inside the reply, on one of its controls: the reply that streamed here keeps its row through the read (the
  // person's message above it is drawn anew), so the control itself keeps the focus.
  await asked('third words', 3);
  await replies(page).last().focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const copy = replies(page).last().getByRole('button', { name: 'Copy Markdown' });
  await expect(copy).toBeFocused();
  const control = (await copy.elementHandle())!;
  await redrawn(yourMessages(page).last());
  expect(await control.evaluate((e) => e.isConnected && e === e.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(replies(page).last()).toBeFocused();
});

test('retry and edit by keyboard alone; each replaces the exchange on the server', async ({ page }) => {
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'kiwis are brown');
  const sessionId = await conversationStartingWith(app, agentId, 'kiwis are brown');
  const firstLines = async (): Promise<string[]> =>
    (await messagesOf(app, agentId, sessionId)).map((m) => m.content.split('\n')[0]!);

  // Retry: into the reply, its fourth control. The exchange is replaced, not repeated.
  await replies(page).last().focus();
  await page.keyboard.press('Enter');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Retry' })).toBeFocused();
  await page.keyboard.press('Enter');
  const versions = page.getByRole('group', { name: 'Versions of this exchange' });
  await expect(versions).toContainText('2/2');
  await replyEnded(page, 1);
  await expect.poll(firstLines).toEqual(['kiwis are brown', 'Hello! You said: "kiwis are brown".']);

  // Edit: up to the person's last message, Tab to Edit, change the text, Enter.
  await replies(page).last().focus();
  await page.keyboard.press('ArrowUp');
  await expect(yourMessages(page).last()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(yourMessages(page).last().getByRole('button', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Enter');
  const box = page.getByRole('textbox', { name: 'Edit your message' });
  await expect(box).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('kiwis are green inside');
  await page.keyboard.press('Enter');
  await expect(versions).toContainText('3/3');
  await replyEnded(page, 1);
  await expect
    .poll(firstLines)
    .toEqual(['kiwis are green inside', 'Hello! You said: "kiwis are green inside".']);
  await expect(yourMessages(page)).toHaveCount(1);
  await expect(transcript(page)).toContainText('kiwis are green inside');
});
