import { expect, test, type Page } from '@playwright/test';
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

// Issue 29, item 1 (and the composer part of item 7): a message's actions in browser mode against the
// real local service and its demo agent. What changes on the server is read back through the API as
// the same person: the agent received the retried and the edited text as new turns.

const session = chatApp('message-actions@example.test');
let app: AppSession;
let agentId: string;
test.beforeAll(() => {
  app = session.app();
  agentId = session.agentId();
});

async function openWithClipboard(page: Page): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.mode.origin });
  await openApp(page, app);
}

test('copy a reply as Markdown and as plain text; the person’s own Markdown is rendered, not shown raw', async ({
  page,
}) => {
  await openWithClipboard(page);
  await newConversation(page);
  const asked = 'Make **this** bold, `that` code, and <b>this</b> stays text';
  await sendAndWait(page, asked);

  // The person's message: Markdown rendered by the reply renderer, raw HTML kept as text.
  const mine = yourMessages(page).last();
  await expect(mine.locator('strong')).toHaveText('this');
  await expect(mine.locator('code')).toHaveText('that');
  await expect(mine.locator('b')).toHaveCount(0);
  await expect(mine).not.toContainText('**');
  await expect(mine).toContainText('<b>this</b> stays text');

  const sessionId = await conversationStartingWith(app, agentId, asked);
  const stored = (await messagesOf(app, agentId, sessionId))[1]!.content;

  const reply = replies(page).last();
  await reply.hover();
  await reply.getByRole('button', { name: 'Copy Markdown' }).click();
  await expect(reply.getByRole('status')).toHaveText('Copied.');
  expect(await clipboardText(page)).toBe(stored);

  await reply.getByRole('button', { name: 'Copy text' }).click();
  // The clipboard is written after the click returns, and held the Markdown until then: wait for the change.
  // The text is what the reply shows: its marks gone, its HTML the characters the screen shows.
  await expect
    .poll(() => clipboardText(page))
    .toContain('You said: "Make this bold, that code, and <b>this</b> stays text".');
  const plain = await clipboardText(page);
  expect(plain).not.toContain('**');
  expect(plain).not.toContain('`');
});

test('Retry and Edit work in place: one copy of the message for the agent, the earlier version kept behind ‹ 1/2 ›', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'wait 0');
  await sendAndWait(page, 'apples are red');
  const sessionId = await conversationStartingWith(app, agentId, 'wait 0');

  // Only the last reply offers Retry; it replaces the exchange instead of adding one.
  await expect(replies(page).first().getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await replies(page).last().getByRole('button', { name: 'Retry' }).click();
  await expect
    .poll(async () => (await messagesOf(app, agentId, sessionId)).map((m) => m.content.split('\n')[0]))
    .toEqual(['wait 0', 'Waiting 0 seconds…', 'apples are red', 'Hello! You said: "apples are red".']);
  // The agent was given only what stayed: the message before is "wait 0", not a first "apples are red".
  // (Polled: the reply's stored text may still be growing when the list first matched.)
  await expect
    .poll(async () => (await messagesOf(app, agentId, sessionId))[3]?.content ?? '')
    .toContain('This is message 2 of our conversation; before this you said: "wait 0".');
  await expect(yourMessages(page)).toHaveCount(2);
  const versions = page.getByRole('group', { name: 'Versions of this exchange' });
  await expect(versions).toContainText('2/2');
  // It ends under the person's message, in the messages' column, not out at the transcript's edge.
  const [message, switcher] = await Promise.all([
    yourMessages(page).last().boundingBox(),
    versions.boundingBox(),
  ]);
  expect(Math.abs(switcher!.x + switcher!.width - (message!.x + message!.width))).toBeLessThan(2);

  // The earlier version stays readable, with the keyboard too, and the live one comes back.
  await versions.getByRole('button', { name: 'Previous version' }).focus();
  await page.keyboard.press('Enter');
  await expect(versions).toContainText('1/2');
  await expect(versions).toContainText('An earlier version');
  await versions.getByRole('button', { name: 'Next version' }).click();
  await expect(versions).toContainText('2/2');

  // Only the last message of the person offers Edit; Escape leaves it unchanged.
  await expect(yourMessages(page).first().getByRole('button', { name: 'Edit' })).toHaveCount(0);
  const last = yourMessages(page).last();
  await last.hover();
  await last.getByRole('button', { name: 'Edit' }).click();
  const box = page.getByRole('textbox', { name: 'Edit your message' });
  await expect(box).toHaveValue('apples are red');
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(last.getByRole('button', { name: 'Edit' })).toBeFocused();

  await last.getByRole('button', { name: 'Edit' }).click();
  await box.fill('plums are purple');
  await box.press('Enter');
  await expect
    .poll(async () => (await messagesOf(app, agentId, sessionId)).map((m) => m.content.split('\n')[0]))
    .toEqual(['wait 0', 'Waiting 0 seconds…', 'plums are purple', 'Hello! You said: "plums are purple".']);
  const stored = await messagesOf(app, agentId, sessionId);
  expect(stored[3]!.content).toContain('before this you said: "wait 0".');
  await expect(versions).toContainText('3/3');

  // After a reload the versions are still there, read from the server.
  await page.reload();
  await expect(yourMessages(page).last()).toContainText('plums are purple');
  await expect(versions).toContainText('3/3');
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(versions).toContainText('1/3');
  await expect(yourMessages(page).last()).toContainText('apples are red');
});

test('a failed turn and a stopped one each offer Retry beside the reason, which replaces them', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'fail');
  const sessionId = await conversationStartingWith(app, agentId, 'fail');
  const failed = replies(page).last();
  await expect(failed.getByRole('alert')).toContainText('Failed on purpose');
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
  await replyEnded(page, 1);
  await expect
    .poll(async () => (await messagesOf(app, agentId, sessionId)).filter((m) => m.role === 'user').length)
    .toBe(1);

  await messageBox(page).fill('wait 30');
  await messageBox(page).press('Enter');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const stopped = replies(page).last();
  await expect(stopped.getByText('Stopped.')).toBeVisible();
  await stopped.getByRole('button', { name: 'Retry' }).click();
  await expect
    .poll(
      async () => (await messagesOf(app, agentId, sessionId)).filter((m) => m.content === 'wait 30').length,
    )
    .toBe(1);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await replyEnded(page, 2);

  // Read back from the history after a reload, each still offers its Retry beside the reason.
  await page.reload();
  await replyEnded(page, 2);
  await expect(replies(page).first().getByRole('alert')).toContainText('Failed on purpose');
  await expect(replies(page).first().getByRole('button', { name: 'Retry' })).toHaveCount(1);
  await expect(replies(page).last().getByText('Stopped.')).toBeVisible();
  await expect(replies(page).last().getByRole('button', { name: 'Retry' })).toHaveCount(1);
});

test('a reply stopped before it said a word keeps its place, its reason and its Retry after a reload', async ({
  page,
}) => {
  // Stopped while it waits for a permission, the agent has written nothing: the server keeps no reply for
  // it. Retried in place and stopped the same way again, it is still one message, with its reason.
  await openApp(page, app);
  await newConversation(page);
  const asked = 'write silent.txt\n```\nnever written\n```';
  for (const count of [1, 2]) {
    if (count === 1) {
      await messageBox(page).fill(asked);
      await messageBox(page).press('Enter');
    } else {
      await replies(page).last().getByRole('button', { name: 'Retry' }).click();
    }
    await expect(replies(page)).toHaveCount(1);
    // A question still open (its answers offered): the first reply's card, answered by its Stop, stays a region
    // until the Retry's rewind takes that reply away, and a Stop pressed then stopped the new reply unasked.
    await expect(replies(page).last().getByRole('button', { name: 'Allow once' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await replyEnded(page, 1);
    await expect(replies(page).last().getByText('Stopped.')).toBeVisible();
  }
  const sessionId = await conversationStartingWith(app, agentId, asked);
  const stored = await messagesOf(app, agentId, sessionId);
  expect(stored.map((m) => m.role)).toEqual(['user']);

  await page.reload();
  await expect(yourMessages(page)).toHaveCount(1);
  await replyEnded(page, 1);
  const reply = replies(page).last();
  await expect(reply.getByText('Stopped.')).toBeVisible();
  await expect(reply.getByRole('group', { name: 'Tool call: Write silent.txt' })).toBeVisible();
  await expect(replies(page).last().getByRole('button', { name: 'Retry' })).toHaveCount(1);
});

test('a Stop whose answer comes late does not stop the reply a Retry started meanwhile', async ({ page }) => {
  // The service answers a cancel once the turn has ended, so on a busy machine the stream's word that it
  // stopped can come first, and the person can press Retry before the answer arrives. The bridge socket
  // holds that answer until the new reply runs: it is about the old turn, and must leave the new one alone.
  const cancels = await heldAnswers(page, 'cancelTurn');
  await openApp(page, app);
  await newConversation(page);
  await messageBox(page).fill('wait 20');
  await messageBox(page).press('Enter');
  await expect(replies(page).last().getByRole('group', { name: 'Tool call: Wait 20 s' })).toBeVisible();
  cancels.hold();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const stopped = replies(page).last();
  await expect(stopped.getByText('Stopped.')).toBeVisible();
  await stopped.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
  await expect(replies(page)).toHaveCount(1);
  const retried = replies(page).last();
  await expect(retried.getByRole('group', { name: 'Tool call: Wait 20 s' })).toBeVisible();
  cancels.release();

  // The late answer changed nothing: the new reply still runs, and Stop stops it.
  await expect(page.getByText('Nothing was running')).toHaveCount(0);
  await expect(retried).toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await replyEnded(page, 1);
  await expect(retried.getByText('Stopped.')).toBeVisible();
  const sessionId = await conversationStartingWith(app, agentId, 'wait 20');
  const lastTurn = async () => {
    const res = await app.api(`/api/v2/me/agents/${agentId}/conversations/${sessionId}`);
    return ((await res.json()) as { ultimoTurno: { estado: string } | null }).ultimoTurno?.estado;
  };
  await expect.poll(lastTurn).toBe('stopped');
  const asked = (await messagesOf(app, agentId, sessionId)).filter((m) => m.role === 'user');
  expect(asked.map((m) => m.content)).toEqual(['wait 20']);
});

test('a message sent while a Retry is on its way goes after the retried one, not between its steps', async ({
  page,
}) => {
  // A Retry rewinds the conversation, reads it again, then sends. The bridge socket holds the rewind's answer
  // (the rewind itself is done at once, as on a busy machine), and meanwhile the person sends another message.
  // Sent at once, it would reach the emptied conversation first and the retried message would come after it.
  const rewinds = await heldAnswers(page, 'rewindConversation');
  await openApp(page, app);
  await newConversation(page);
  await sendAndWait(page, 'pears are green');
  const sessionId = await conversationStartingWith(app, agentId, 'pears are green');
  rewinds.hold();
  await replies(page).last().getByRole('button', { name: 'Retry' }).click();
  await expect.poll(async () => (await messagesOf(app, agentId, sessionId)).length).toBe(0);
  await messageBox(page).fill('figs are sweet');
  await messageBox(page).press('Enter');
  await expect(messageBox(page)).toHaveValue('');
  // Time for a send that does not wait to reach the server before the Retry goes on.
  await page.waitForTimeout(500);
  rewinds.release();

  await expect
    .poll(async () =>
      (await messagesOf(app, agentId, sessionId)).filter((m) => m.role === 'user').map((m) => m.content),
    )
    .toEqual(['pears are green', 'figs are sweet']);
  await expect(yourMessages(page)).toContainText(['pears are green', 'figs are sweet']);
  // Sent while the retried reply runs, it may join that reply ("Added to the running reply") or get its own:
  // either way the agent answers it after the retried message.
  await expect(replies(page).last()).toContainText('before this you said: "pears are green"', {
    timeout: 30_000,
  });
  await expect(replies(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
});

test('a sent image shows its picture at once; Send is off while there is nothing to send', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeDisabled();
  await messageBox(page).fill('   ');
  await expect(send).toBeDisabled();
  await messageBox(page).fill('x');
  await expect(send).toBeEnabled();
  await messageBox(page).fill('');
  await expect(send).toBeDisabled();

  // A file alone is something to send.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await page
    .getByLabel('Choose files to attach')
    .setInputFiles([{ name: 'dot.png', mimeType: 'image/png', buffer: png }]);
  await expect(send).toBeEnabled();
  await messageBox(page).fill('echo look');
  await send.click();
  const sent = yourMessages(page).last();
  await expect(sent.getByRole('list', { name: 'Attachments' })).toContainText('dot.png');
  await expect(sent.locator('img.attachment-thumbnail')).toHaveAttribute('src', /^data:image\//);
  await replyEnded(page, 1);
  await expect(transcript(page)).toContainText('dot.png (image/png');
});
