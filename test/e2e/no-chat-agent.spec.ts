import { expect, test } from '@playwright/test';
import { agentWithoutMachine } from './support/agent-without-machine';
import { openApp, startApp, type AppSession } from './support/app-session';

// An agent whose engine has no conversations (the spec's 409 agente_no_acp, here our service's built-in lite
// assistant): the app says so in a person's words and what to do, never "engine without conversations".
// Browser mode against the real local service; the agent is made and moved through the API as a second client.

let app: AppSession;

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'no-chat@example.test' });
});
test.afterAll(async () => app?.close());

test('an agent that cannot chat says so plainly, in the list and where its conversations would be', async ({
  page,
}) => {
  const agentId = await agentWithoutMachine(app, 'Lite helper');
  // The server's answer the app must put in words.
  const conversations = await app.api(`/api/v2/me/agents/${agentId}/conversations`);
  expect(conversations.status).toBe(409);

  await openApp(page, app);
  const agents = page.getByRole('navigation', { name: 'Agents' });
  await agents.getByRole('button', { name: /^Lite helper/ }).click();
  await expect(agents.getByRole('button', { name: /^Lite helper/ })).toContainText('Cannot chat');
  await expect(page.getByRole('region', { name: 'Conversations' }).getByRole('note')).toHaveText(
    'This agent cannot hold conversations: it has no workspace of its own. To chat with it, choose another engine in Configure agent, under Engine and model. It still answers on its other channels.',
  );
  // Never the engine's id (house-lite) nor a sentence with the engine's name left out.
  await expect(page.locator('body')).not.toContainText(
    /house-lite|an engine,|engine without|on this engine/i,
  );
});
