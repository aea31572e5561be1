import { expect, test, type Page } from '@playwright/test';
import { openApp, startApp, type AppSession } from './support/app-session';

// Issue 29, item 5 (the header names the model the next reply will use), for a draft that + New reuses.
// Browser mode against the real local service and its demo agent, whose reply names the model it ran on;
// a second client of the same person changes the agent's model through the API meanwhile.

let app: AppSession;
let assistant: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'model-drafts@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  assistant = agents.agentes[0]!.id;
});
test.afterAll(async () => app?.close());

const chat = (page: Page) => page.getByRole('region', { name: 'Chat' });
const picker = (page: Page) => chat(page).getByRole('combobox', { name: 'Model' });
const lastReply = (page: Page) => page.getByRole('article', { name: 'Agent reply' }).last();
const agentList = (page: Page) => page.getByRole('navigation', { name: 'Agents' });
const conversationCount = async (agentId: string) =>
  (
    (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
      conversaciones: unknown[];
    }
  ).conversaciones.length;

async function setAgentModel(agentId: string, model: string): Promise<void> {
  const answer = await app.api(`/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model }),
  });
  expect(answer.status).toBe(200);
}

async function sendAndRead(page: Page, text: string): Promise<string> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(lastReply(page)).toContainText(text, { timeout: 30_000 });
  await expect(lastReply(page)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  return lastReply(page).innerText();
}

test('a reused draft names the agent’s model of the moment, changed elsewhere meanwhile', async ({
  page,
}) => {
  await openApp(page, app);
  expect(await sendAndRead(page, 'first words')).toContain('(model: demo-fast)');
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-fast');
  const conversations = await conversationCount(assistant);

  // Back to the first conversation; another client picks the agent's other model.
  await page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem').last().click();
  await expect(lastReply(page)).toContainText('first words');
  await setAgentModel(assistant, 'demo-deep');

  // + New reuses the empty draft: its header must name the model its first reply will use.
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-deep');
  expect(await conversationCount(assistant)).toBe(conversations);
  expect(await sendAndRead(page, 'second words')).toContain('(model: demo-deep)');
  await expect(picker(page)).toHaveValue('demo-deep');
});

test('drafts of two agents with different models each keep their own, across switches', async ({ page }) => {
  const made = await app.api('/api/v2/me/agents', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nombre: 'Quick helper' }),
  });
  expect(made.status).toBe(201);
  const helper = ((await made.json()) as { id: string }).id;
  // A new agent starts on its engine's default model, not the one Assistant was moved to.
  const config = (await (await app.api(`/api/v2/agents/${helper}`)).json()) as { model: string };
  expect(config.model).toBe('demo-fast');

  await openApp(page, app);
  await agentList(page)
    .getByRole('button', { name: /^Assistant/ })
    .click();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-deep');

  await agentList(page)
    .getByRole('button', { name: /^Quick helper/ })
    .click();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-fast');
  // The person picks the other model in this draft: the server keeps it for this conversation only.
  await picker(page).selectOption('demo-deep');
  await expect(
    chat(page).getByRole('status').filter({ hasText: 'applies from the next reply' }),
  ).toBeVisible();

  await agentList(page)
    .getByRole('button', { name: /^Assistant/ })
    .click();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-deep');
  // The note belonged to the other agent's draft.
  await expect(chat(page).getByRole('status').filter({ hasText: 'applies from the next reply' })).toHaveCount(
    0,
  );

  await agentList(page)
    .getByRole('button', { name: /^Quick helper/ })
    .click();
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(picker(page)).toHaveValue('demo-deep');
  expect(await sendAndRead(page, 'helper words')).toContain('(model: demo-deep)');
});
