import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openApp, type AppSession } from './support/app-session';
import { chatApp, messageBox, newConversation, replies, replyEnded, sendAndWait } from './support/chat-page';

// Issue 39, item 7 in browser mode against the real local service and its demo agent: a permission card is
// one key from the message box, focus comes back after the answer, and the answered card folds to one line
// that says what was chosen. axe on the folded cards and the versions switcher (item 1), in both themes.

const session = chatApp('permission-keyboard@example.test');
let app: AppSession;
test.beforeAll(() => {
  app = session.app();
});

async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    const result = await new AxeBuilder({ page })
      .include('.version-switcher')
      .include('.permission-card')
      .analyze();
    for (const v of result.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${theme} ${v.id} ${v.nodes[0]?.target.join(' ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

test('Shift+Tab from the message box reaches the first answer; the answer folds the card and gives the focus back', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  await messageBox(page).fill('write kb/keyboard.md\n```\ntyped without a mouse\n```');
  await messageBox(page).press('Enter');
  const card = replies(page)
    .last()
    .getByRole('region', { name: /Permission request: Write kb\/keyboard\.md/ });
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  // It is announced when it appears, with the way to reach it.
  await expect(card.getByRole('alert')).toContainText('Shift+Tab from the message box');
  await messageBox(page).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card).toContainText('Allowed once');
  await expect(card.getByRole('button')).toHaveCount(0);
  await expect(messageBox(page)).toBeFocused();
  await replyEnded(page, 1);
  // Folded, what was asked is still one click away.
  await card.getByText('Allowed once').click();
  await expect(card.getByLabel('New file content')).toContainText('+ typed without a mouse');

  // With nothing waiting, Shift+Tab leaves the message box as usual.
  await messageBox(page).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(messageBox(page)).not.toBeFocused();

  // A rejected request says so.
  await messageBox(page).fill('write kb/no.md\n```\nnot this\n```');
  await messageBox(page).press('Enter');
  const second = replies(page)
    .last()
    .getByRole('region', { name: /Permission request: Write kb\/no\.md/ });
  await second.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(second).toContainText('Rejected');
  await replyEnded(page, 2);

  // A retried exchange shows the versions switcher; the folded cards and the switcher pass axe.
  await sendAndWait(page, 'apples are red');
  await replies(page).last().getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('2/2');
  await replyEnded(page, 3);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Previous version' }).click();
  await expect(page.getByRole('group', { name: 'Versions of this exchange' })).toContainText('1/2');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the focus comes back to the message box when the answer arrives before the next frame', async ({
  page,
}) => {
  await openApp(page, app);
  await newConversation(page);
  // Chromium moves the focus off a button that became disabled only at its next frame. On a busy machine
  // the answer can come first, while the chosen button still holds the focus: kept as it is here, where the
  // answer buttons are never disabled, so their removal by the answer is what takes the focus away.
  await page.evaluate(`(() => {
    const inAnswers = (el) => el instanceof HTMLButtonElement && el.closest('.permission-options');
    const set = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      if (name === 'disabled' && inAnswers(this)) return;
      return set.call(this, name, value);
    };
    const property = Object.getOwnPropertyDescriptor(HTMLButtonElement.prototype, 'disabled');
    Object.defineProperty(HTMLButtonElement.prototype, 'disabled', {
      ...property,
      set(value) {
        if (!inAnswers(this)) property.set.call(this, value);
      },
    });
  })()`);
  await messageBox(page).fill('write kb/fast.md\n```\nanswered at once\n```');
  await messageBox(page).press('Enter');
  const card = replies(page)
    .last()
    .getByRole('region', { name: /Permission request: Write kb\/fast\.md/ });
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await messageBox(page).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card).toContainText('Allowed once');
  await expect(messageBox(page)).toBeFocused();
  await replyEnded(page, 1);
});
