import { expect, test, type Page } from '@playwright/test';
import { startApp, type AppSession } from './app-session';

/**
 * Moves of a chat spec, as a person makes them, and the server's view of the result (through the API as
 * the same person): the transcript, the message box, the conversation the app shows.
 */

export const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
export const transcript = (page: Page) => page.getByRole('log', { name: 'Messages' });
export const replies = (page: Page) => transcript(page).getByRole('article', { name: 'Agent reply' });
/** The open conversation's title in the chat header (a dialog's own heading is not it). */
export const chatTitle = (page: Page) => page.getByRole('region', { name: 'Chat' }).locator('h2.chat-title');
export const yourMessages = (page: Page) => transcript(page).getByRole('article', { name: 'Your message' });

/**
 * Starts a new conversation from the sidebar and waits until it is the one on screen. The app asks the
 * server for it first; until the answer comes an empty message box stands in for it, whose words the new
 * conversation's composer takes over (new-conversation-typing.spec.ts). `fill` replaces a box's words, so
 * a spec that fills waits for the conversation itself.
 */
export async function newConversation(
  page: Page,
  start: () => Promise<void> = () => page.getByRole('button', { name: 'Start a new conversation' }).click(),
): Promise<void> {
  // Mod+N acts on the selected agent: right after a page opens, the agents may still be loading.
  await expect(page.getByRole('navigation', { name: 'Agents' }).locator('[aria-current="true"]')).toHaveCount(
    1,
  );
  await start();
  await expect(chatTitle(page)).toHaveText('New conversation');
  await expect(page.getByRole('region', { name: /^Welcome to / })).toBeVisible();
  await expect(messageBox(page)).toBeVisible();
  await expect(replies(page)).toHaveCount(0);
}

/** Types a message and sends it with Enter; resolves once its reply has ended. */
export async function sendAndWait(page: Page, text: string): Promise<void> {
  const before = await replies(page).count();
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await replyEnded(page, before + 1);
}

/** Waits until there are `count` replies and the last has ended. */
export async function replyEnded(page: Page, count: number): Promise<void> {
  await expect(replies(page)).toHaveCount(count, { timeout: 30_000 });
  await expect(replies(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
}

/** The first agent of the signed-in person. */
export async function firstAgent(app: AppSession): Promise<string> {
  const body = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  return body.agentes[0]!.id;
}

/** The agent's conversations as the server lists them, newest first. */
export async function conversationsOf(app: AppSession, agentId: string) {
  const res = await app.api(`/api/v2/me/agents/${agentId}/conversations`);
  return ((await res.json()) as { conversaciones: { id: string; titulo: string | null }[] }).conversaciones;
}

/** A conversation's messages as the server keeps them. */
export async function messagesOf(app: AppSession, agentId: string, sessionId: string) {
  const res = await app.api(`/api/v2/me/agents/${agentId}/conversations/${sessionId}?limit=200`);
  return ((await res.json()) as { messages: { role: string; content: string }[] }).messages;
}

/** The conversation the app shows: the newest one the server lists with these first words. */
export async function conversationStartingWith(app: AppSession, agentId: string, text: string) {
  for (const item of await conversationsOf(app, agentId)) {
    const first = (await messagesOf(app, agentId, item.id))[0];
    if (first?.content === text) return item.id;
  }
  throw new Error(`no conversation starts with ${JSON.stringify(text)}`);
}

/**
 * One app for a spec file, signed in as `email` (a password account, so the API is reachable as the
 * same person), with that person's first agent; started before the file's tests, closed after them.
 */
export function chatApp(email: string): { app(): AppSession; agentId(): string } {
  let app: AppSession | undefined;
  let agentId = '';
  test.beforeAll(async ({ browser }) => {
    app = await startApp(browser, { email });
    agentId = await firstAgent(app);
  });
  test.afterAll(async () => {
    await app?.close();
  });
  return {
    app: () => app!,
    agentId: () => agentId,
  };
}

/** What the page's clipboard holds (the page needs the clipboard permissions). */
export const clipboardText = (page: Page): Promise<string> =>
  page.evaluate<string>('navigator.clipboard.readText()');
