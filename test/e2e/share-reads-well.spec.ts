import { expect, test } from '@playwright/test';
import { openApp } from './support/app-session';
import { chatApp, messageBox, newConversation, replies, replyEnded } from './support/chat-page';

// Issue 39, items 3 and 8: the public page of a shared conversation reads its Markdown as the app does (real
// headings, lists, tables, quotes and code labelled with its language; raw HTML stays text), the dialog
// does not promise "anyone" a link to this computer's own address, and "Link copied." leaves.
// Browser mode, the real local service over HTTP; the reader is a fresh Chromium page.

const session = chatApp('share-reads-well@example.test');
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const MARKDOWN = [
  'echo # Reading a CSV',
  'Here is **how** to compute it.',
  '## Steps',
  '- Open the file',
  '- Divide the sum',
  '',
  '| Step | Function |',
  '|---|---|',
  '| 1 | open() |',
  '',
  '```python',
  'print(sum([1, 2]))',
  '```',
  '',
  '> Tip: for big files use pandas',
  '',
  'Raw <b>tags</b> stay text.',
].join('\n');

test('the public page renders Markdown safely and the dialog says who can open a 127.0.0.1 link', async ({
  page,
  browser,
}) => {
  await openApp(page, session.app());
  await newConversation(page);
  await messageBox(page).fill(MARKDOWN);
  await messageBox(page).press('Enter');
  await replyEnded(page, 1);
  // In the app (04): the code block names its language and keeps its Copy button; the quote is styled.
  const reply = replies(page).last();
  await expect(reply.locator('.code-lang')).toHaveText('python');
  await expect(reply.getByRole('button', { name: 'Copy code' })).toBeVisible();
  const quote = reply.locator('blockquote');
  expect(
    await quote.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).borderLeftStyle),
  ).toBe('solid');

  await page
    .getByRole('region', { name: 'Chat' })
    .getByRole('button', { name: 'Share', exact: true })
    .click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  const url = await share.getByRole('textbox', { name: 'Public link' }).inputValue();
  expect(new URL(url).hostname).toBe('127.0.0.1');
  await expect(share).toContainText('Only this computer can open this link');
  await expect(share).not.toContainText('Anyone with this link');

  const reader = await browser.newPage();
  await reader.goto(url);
  const agent = reader.locator('ol.messages > li:not(.user) .text').first();
  await expect(agent.getByRole('heading', { level: 1, name: 'Reading a CSV' })).toBeVisible();
  await expect(agent.getByRole('heading', { level: 2, name: 'Steps' })).toBeVisible();
  await expect(agent.locator('strong')).toHaveText('how');
  await expect(agent.getByRole('listitem')).toHaveText(['Open the file', 'Divide the sum']);
  await expect(agent.getByRole('table').getByRole('cell', { name: 'open()' })).toBeVisible();
  await expect(agent.locator('.code-lang')).toHaveText('python');
  await expect(agent.locator('pre code')).toHaveText('print(sum([1, 2]))');
  expect(
    await agent
      .locator('pre')
      .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).fontFamily),
  ).toMatch(/mono|Menlo|Consolas/);
  await expect(agent.locator('blockquote')).toHaveText('Tip: for big files use pandas');
  await expect(agent).toContainText('Raw <b>tags</b> stay text.');
  await expect(agent.locator('b')).toHaveCount(0);
  await expect(agent).not.toContainText('**');
  await expect(agent).not.toContainText('```');
  await reader.close();
  await share.getByRole('button', { name: 'Done' }).click();
});

test('"Link copied." leaves after a few seconds', async ({ page }) => {
  await openApp(page, session.app());
  await page.getByRole('button', { name: 'Copy agent link' }).click();
  const note = page.getByRole('status').filter({ hasText: 'Link copied.' });
  await expect(note).toBeVisible();
  await expect(note).toHaveCount(0, { timeout: 6_000 });
});
