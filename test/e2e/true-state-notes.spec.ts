import { expect, test } from '@playwright/test';
import { openApp } from './support/app-session';
import {
  chatApp,
  messageBox,
  newConversation,
  sendAndWait,
  transcript,
  yourMessages,
} from './support/chat-page';

// Issue 39, item 5 (09): the model note takes a line of its own under the header instead of floating over
// the first message, and a failed start of dictation leaves the microphone button looking idle (the
// message box has the focus again). Browser mode, the real local service; the browser has no microphone.

const session = chatApp('true-state-notes@example.test');

test('the model note pushes the messages down instead of covering them', async ({ page }) => {
  await openApp(page, session.app());
  await newConversation(page);
  await sendAndWait(page, 'echo what is in the file?');
  const model = page.getByRole('region', { name: 'Chat' }).getByRole('combobox', { name: 'Model' });
  const options = await model
    .locator('option')
    .evaluateAll((all) => all.map((o) => o.getAttribute('value') ?? ''));
  const other = options.find((value) => value !== '') ?? '';
  const current = await model.inputValue();
  await model.selectOption(options.find((value) => value !== current) ?? other);
  const note = page.getByRole('status').filter({ hasText: 'The new model applies from the next reply.' });
  await expect(note).toBeVisible();
  const noteBox = (await note.boundingBox())!;
  const headerBox = (await page.locator('header.chat-header').boundingBox())!;
  const logBox = (await transcript(page).boundingBox())!;
  const firstMessage = (await yourMessages(page).first().boundingBox())!;
  // Below the header, above the messages' pane: nothing of the transcript lies under it.
  expect(noteBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height - 1);
  expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(logBox.y + 1);
  expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(firstMessage.y);
});

test('after "No microphone was found" the microphone button does not stay highlighted', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['microphone']);
  await openApp(page, session.app());
  await newConversation(page);
  const mic = page.getByRole('button', { name: 'Dictate' });
  await mic.click();
  await expect(page.getByRole('alert')).toContainText(/microphone/i);
  await expect(mic).not.toBeFocused();
  await expect(messageBox(page)).toBeFocused();
  await expect(page.getByRole('group', { name: 'Dictation' })).toHaveCount(0);
});
