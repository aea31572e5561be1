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
