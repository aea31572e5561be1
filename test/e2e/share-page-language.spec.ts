import { expect, test, type Browser } from '@playwright/test';
import { openApp, startApp, type AppSession } from './support/app-session';
import { newConversation } from './support/chat-page';

// Issue 29, item 4: the public page of a shared conversation is in the reader's language, with times in
// the reader's own time zone, and shows none of the wire's Spanish. The conversation is shared from the
// app (browser mode, real local service); readers are Chromium contexts with their own locale and zone.

let app: AppSession;
let url: string;
let sentAt: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'share-language@example.test' });
});

test.afterAll(async () => {
  await app?.close();
});

test('the person shares a conversation from the app', async ({ page }) => {
  await openApp(page, app);
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('echo bonjour');
  await box.press('Enter');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toHaveAttribute(
    'aria-busy',
    'false',
    {
      timeout: 30_000,
    },
  );
  await page
    .getByRole('region', { name: 'Chat' })
    .getByRole('button', { name: 'Share', exact: true })
    .click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await share.getByRole('button', { name: 'Create public link' }).click();
  url = await share.getByRole('textbox', { name: 'Public link' }).inputValue();
  expect(url).toMatch(/\/s\//);

  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  const agentId = agents.agentes[0]!.id;
  const list = (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
    conversaciones: { id: string }[];
  };
  const thread = (await (
    await app.api(`/api/v2/me/agents/${agentId}/conversations/${list.conversaciones[0]!.id}`)
  ).json()) as { messages: { at: string }[] };
  sentAt = thread.messages[0]!.at;
});

/** Node's and Chromium's ICU may differ in which space they put in a time: compare with plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

async function readAs(browser: Browser, locale: string, timezoneId: string) {
  const context = await browser.newContext({ locale, timezoneId });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

test('a French reader in Tokyo reads French words and Tokyo times', async ({ browser }) => {
  const { context, page } = await readAs(browser, 'fr-FR', 'Asia/Tokyo');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('body')).toContainText('Une copie en lecture seule');
  await expect(page.locator('li.user .who')).toContainText('Personne');
  const local = new Date(sentAt).toLocaleString('fr', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Asia/Tokyo',
  });
  const time = page.locator('li.user time').first();
  await expect.poll(async () => plain(await time.textContent())).toBe(plain(local));
  await expect(page.locator('body')).not.toContainText(sentAt);
  await context.close();
});

test('a reader whose language the page lacks gets English, in their own zone', async ({ browser }) => {
  const { context, page } = await readAs(browser, 'ja-JP', 'America/Sao_Paulo');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const body = page.locator('body');
  await expect(body).toContainText('A read-only copy of a conversation');
  await expect(page.locator('li.assistant .who').first()).toContainText('Agent');
  await expect(body).not.toContainText(/Conversación|solo lectura|Persona|Agente/);
  const local = new Date(sentAt).toLocaleString('en', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Sao_Paulo',
  });
  const time = page.locator('li.user time').first();
  await expect.poll(async () => plain(await time.textContent())).toBe(plain(local));
  await context.close();
});
