import { expect, test, type Page } from '@playwright/test';
import { seedConversations } from '../bench/seed-conversations';
import { openApp } from './support/app-session';
import { chatApp, chatTitle, transcript } from './support/chat-page';

// A conversation opens at its last message and stays there while its rows settle (measured taller than
// the virtualiser's guess, code laid out), and opens there again when the person comes back. Before, the
// list's own scroll moves read as the person scrolling away: it stopped ~100 px short of the end, and
// a second visit opened it further up still, its last message off screen.

const session = chatApp('transcript-bottom@example.test');

const reply = (n: number) =>
  `Step ${n}, with its code:\n\n\`\`\`ts\nexport function step${n}(input: number): number {\n  return input * ${n} + 1;\n}\n\`\`\`\n\nIt returns one more than the input times ${n}.`;

/** One conversation of 20 messages: questions, and replies with a code block. */
const seedSteps = (title: string) =>
  seedConversations(session.app().mode, {
    conversations: 1,
    messagesEach: 20,
    title: () => title,
    text: (_c, m) => (m % 2 ? reply(m) : `Question ${m}?`),
  });

/** How far the transcript is scrolled from its end, in px. */
const fromBottom = (page: Page) =>
  transcript(page).evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('list', { name: 'Conversation list' }).getByText(title, { exact: true }).click();
  await expect(chatTitle(page)).toHaveText(title);
}

test('a conversation opens at its last message, and again when the person comes back to it', async ({
  page,
}) => {
  await seedConversations(session.app().mode, {
    conversations: 2,
    messagesEach: 40,
    title: (c) => `Tall conversation ${c + 1}`,
    text: (c, m) => (m === 39 ? `Last words of conversation ${c + 1}.` : m % 2 ? reply(m) : `Question ${m}?`),
  });
  await openApp(page, session.app());
  for (const c of [1, 2, 1]) {
    await open(page, `Tall conversation ${c}`);
    await expect(transcript(page).getByText(`Last words of conversation ${c}.`)).toBeInViewport();
    await expect.poll(() => fromBottom(page)).toBeLessThan(2);
  }
});

/** Where the transcript is scrolled to, in px from its top. */
const fromTop = (page: Page) => transcript(page).evaluate((el) => el.scrollTop);

/** The person's wheel, 800 px up (rows measured as they come into view change the height below). */
async function scrollUp(page: Page): Promise<void> {
  const was = await fromTop(page);
  await transcript(page).hover();
  await page.mouse.wheel(0, -800);
  await expect.poll(() => fromTop(page)).toBeLessThan(was - 400);
}

test('only the person takes the transcript off its end: its own moves and a resize go back down', async ({
  page,
}) => {
  await seedConversations(session.app().mode, {
    conversations: 1,
    messagesEach: 40,
    title: () => 'Moved conversation',
    text: (_c, m) => (m === 39 ? 'Last words of the moved one.' : m % 2 ? reply(m) : `Question ${m}?`),
  });
  await openApp(page, session.app());
  await open(page, 'Moved conversation');
  await expect.poll(() => fromBottom(page)).toBeLessThan(2);

  // A move the person did not make (as the virtualiser's, keeping a row in place from a stale offset).
  await transcript(page).evaluate((el) => (el.scrollTop -= 500));
  await expect.poll(() => fromBottom(page)).toBeLessThan(2);
  // The window shrinks and grows: still at the end.
  await page.setViewportSize({ width: 1280, height: 480 });
  await expect.poll(() => fromBottom(page)).toBeLessThan(2);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect.poll(() => fromBottom(page)).toBeLessThan(2);
  await expect(transcript(page).getByText('Last words of the moved one.')).toBeInViewport();

  // The person scrolls up: from then on the list stays where they put it, through a resize too.
  await scrollUp(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  await expect(transcript(page).getByText('Last words of the moved one.')).not.toBeInViewport();
  expect(await fromBottom(page)).toBeGreaterThan(100);
});

/**
 * A row's index and where it shows, in px below the transcript's top: the row with `index`, else the row at the
 * top of the view (null: that row is not drawn).
 */
const rowPlace = (page: Page, index?: string) =>
  transcript(page).evaluate((el, i) => {
    const view = el.getBoundingClientRect().top;
    const rows = [...el.querySelectorAll('.message-row[data-index]')];
    const row =
      i === undefined
        ? rows.find((r) => r.getBoundingClientRect().bottom > view + 1)
        : rows.find((r) => r.getAttribute('data-index') === i);
    return row
      ? { index: row.getAttribute('data-index')!, top: Math.round(row.getBoundingClientRect().top - view) }
      : null;
  }, index);

/** Until the list stops moving (the wheel's scroll may still be running, rows still being measured). */
async function stillFor(page: Page): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await rowPlace(page));
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [200] },
    )
    .toBe(true);
}

// What the person reads stays put: the row at the top of their view does not move on screen. The list's
// scrollTop may change under it (rows above measured taller than guessed are made up for), so it is the
// row's place on screen that is compared.
test('the person reading further up stays there while a reply grows below', async ({ page }) => {
  await seedSteps('Read while it answers');
  await openApp(page, session.app());
  await open(page, 'Read while it answers');
  await page.getByRole('textbox', { name: 'Message' }).fill('wait 3');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const answer = transcript(page).getByRole('article', { name: 'Agent reply' }).last();
  await expect(answer).toContainText('Waiting 3 seconds');
  await scrollUp(page);
  await stillFor(page);
  // Away from the end indeed (rows above measured far taller than they are shrank once seen, and the view was
  // back at the end, following the reply).
  expect(await fromBottom(page)).toBeGreaterThan(400);
  const reading = (await rowPlace(page))!;
  await expect(answer).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(answer).toContainText('Done waiting 3 seconds.');
  const now = await rowPlace(page, reading.index);
  expect(now, `row ${reading.index} was ${reading.top} px below the top`).not.toBeNull();
  expect(Math.abs(now!.top - reading.top)).toBeLessThan(2);
  expect(await fromBottom(page)).toBeGreaterThan(100);
});

// Rows drawn off screen are measured at their own height. The markdown's off-screen skipping laid out the
// rows the list first drew (at its top, before it went to the end) as a 600 px guess each, measured so and
// kept: the list was thousands of px too tall, and shrank under the person's wheel as those rows came back
// into view, once right back to its end.
test('a conversation is as tall as its messages: rows first drawn off screen are measured at their height', async ({
  page,
}) => {
  await seedSteps('Measured off screen');
  await openApp(page, session.app());
  await open(page, 'Measured off screen');
  await expect.poll(() => fromBottom(page)).toBeLessThan(2);
  // A question and a reply at the end, as drawn; the 20 messages are ten such pairs.
  const pair = await transcript(page).evaluate((el) => {
    const rows = [...el.querySelectorAll('.message-row')];
    const height = (i: number) =>
      rows.find((r) => r.getAttribute('data-index') === String(i))!.getBoundingClientRect().height;
    return height(18) + height(19);
  });
  const tall = await transcript(page).evaluate((el) => el.scrollHeight);
  expect(tall).toBeGreaterThan(10 * pair * 0.8);
  expect(tall).toBeLessThan(10 * pair * 1.2);
});
