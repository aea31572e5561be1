import { expect, test } from '@playwright/test';
import { openApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';
import { chatApp, chatTitle, messageBox, newConversation, sendAndWait } from './support/chat-page';

// While a slow host makes a new conversation, the person types into the box that stands in for it and
// moves the caret back into the text; when the conversation's own composer takes the words over, the caret
// stays where they put it (before, it jumped to the end: the next key, or a dictation, landed there).

const session = chatApp('new-conversation-caret@example.test');
let app: AppSession;
test.beforeAll(() => {
  app = session.app();
});

test('the caret put inside the words typed while the conversation is made stays there', async ({ page }) => {
  const server = await heldAnswers(page, 'createConversation');
  await openApp(page, app);
  // A conversation with a message first, so Mod+N has the server make a new one.
  await newConversation(page);
  await sendAndWait(page, 'an earlier conversation');

  server.hold();
  await page.keyboard.press('Control+N');
  await page.keyboard.type('Note: and thanks');
  await page.keyboard.press('Home');
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  await expect(messageBox(page)).toHaveValue('Note: and thanks');
  server.release();

  await expect(chatTitle(page)).toHaveText('New conversation');
  await expect(messageBox(page)).toBeFocused();
  await page.keyboard.type(' call me');
  await expect(messageBox(page)).toHaveValue('Note: call me and thanks');
});
