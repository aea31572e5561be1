import { expect, test } from '@playwright/test';
import { openApp } from './support/app-session';
import { chatApp, messageBox, newConversation } from './support/chat-page';
import { controlPageTime, STEADY_CARET_AFTER_MS } from './support/page-clock';

// After a while with no key, pointer or focus change the message box's caret stops blinking and stays lit,
// as in native desktop apps (an idle window then repaints nothing); any input makes it blink again.
// `caret-animation` is what Chromium reads: auto blinks, manual holds the caret steady.

const session = chatApp('steady-caret@example.test');

test('the focused message box stops blinking after a while without input and blinks again on input', async ({
  page,
}) => {
  await controlPageTime(page);
  await openApp(page, session.app());
  await newConversation(page);
  const box = messageBox(page);
  await box.focus();
  await expect(box).toBeFocused();
  // From here the page's time moves only when the test moves it: a slow machine cannot run it out early.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

  await page.keyboard.type('h');
  await expect(box).toHaveValue('h');
  await expect(box).toHaveCSS('caret-animation', 'auto');
  await page.clock.runFor(STEADY_CARET_AFTER_MS - 1_000);
  await expect(box).toHaveCSS('caret-animation', 'auto');
  await page.clock.runFor(1_000);
  await expect(box).toHaveCSS('caret-animation', 'manual');

  // A key brings the blink back at once, and the box took the key.
  await page.keyboard.type('i');
  await expect(box).toHaveCSS('caret-animation', 'auto');
  await expect(box).toHaveValue('hi');

  // So does the pointer, without a click; the box keeps the focus.
  await page.clock.runFor(STEADY_CARET_AFTER_MS);
  await expect(box).toHaveCSS('caret-animation', 'manual');
  await page.mouse.move(40, 40);
  await page.mouse.move(60, 60);
  await expect(box).toHaveCSS('caret-animation', 'auto');
  await expect(box).toBeFocused();
});
