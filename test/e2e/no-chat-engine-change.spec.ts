import { expect, test } from '@playwright/test';
import { agentWithoutMachine } from './support/agent-without-machine';
import { openApp, startApp, type AppSession } from './support/app-session';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// An agent that "Cannot chat" (its engine has no machine: the spec's hasMachine false, 409 agente_no_acp)
// gets an engine with a machine in Configure agent: the app learns it from the server's answer at once, so
// the person chats right away, without a reload or signing out. Browser mode against the real local service;
// the agent is made and moved to the engine without a machine through the API as a second client.
// The same walk against a server that offers exactly the spec (test/support/spec-only-server.ts): hasMachine
// is the spec's, so nothing of it rests on our extensions.

test.describe('on our local service', () => {
  let app: AppSession;

  test.beforeAll(async ({ browser }) => {
    app = await startApp(browser, { email: 'no-chat-change@example.test' });
  });
  test.afterAll(async () => app?.close());

  test('choosing an engine with a machine in Configure agent lets the agent chat at once', async ({
    page,
  }) => {
    await agentWithoutMachine(app, 'Lite helper');

    await openApp(page, app);
    const agents = page.getByRole('navigation', { name: 'Agents' });
    const agent = agents.getByRole('button', { name: /^Lite helper/ });
    await agent.click();
    await expect(agent).toContainText('Cannot chat');
    const conversations = page.getByRole('region', { name: 'Conversations' });
    await expect(conversations.getByRole('note')).toContainText('choose another engine in Configure agent');

    // What the note says to do: another engine, in Configure agent, under Engine and model.
    await page.getByRole('button', { name: /^Configure agent/ }).click();
    const sections = page.getByRole('navigation', { name: 'Studio sections' });
    await sections.getByRole('button', { name: 'Engine and model' }).click();
    const section = page.getByRole('region', { name: 'Engine and model', exact: true });
    await section.getByRole('radio', { name: /^Demo agent \(offline/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Switch to Demo agent \(offline, answers by rule\)\?/ });
    await dialog.getByRole('button', { name: 'Switch engine' }).click();
    await expect(section.getByRole('radio', { name: /^Demo agent \(offline/ })).toBeChecked();
    await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
    // The sections only an engine with a machine has are offered again.
    await expect(sections.getByRole('button', { name: 'Restart' })).toBeVisible();
    await expect(agent).not.toContainText('Cannot chat');

    // Back in the chat: the agent's conversations were read again, and a message gets its reply.
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await expect(conversations.getByRole('note')).toHaveCount(0);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello after the switch');
    await box.press('Enter');
    await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
      'Hello after the switch',
    );
    await expect(agent).not.toContainText('Cannot chat');
  });
});

test.describe('on a spec-only server', () => {
  let app: SpecOnlyApp;
  test.beforeAll(async () => {
    app = await startSpecOnlyApp();
  });
  test.afterAll(async () => app?.close());
  test.afterEach(() => {
    expect(app.spec.refused).toEqual([]);
  });

  test('the engine chosen in Configure agent lets the agent chat at once', async ({ page }) => {
    const moved = await app.api.updateAgentConfig(app.agentId, { engine: 'house-lite' });
    expect(moved.ok).toBe(true);
    await signInToSpecOnly(page, app);
    const agent = page.getByRole('navigation', { name: 'Agents' }).locator('button[aria-current="true"]');
    await expect(agent).toContainText('Cannot chat');

    await page.getByRole('button', { name: /^Configure agent/ }).click();
    await page
      .getByRole('navigation', { name: 'Studio sections' })
      .getByRole('button', { name: 'Engine and model' })
      .click();
    const section = page.getByRole('region', { name: 'Engine and model', exact: true });
    // Without our words for engines the app names them from the spec's ids.
    await section.getByRole('radio', { name: /^Engine B/ }).click();
    await page
      .getByRole('dialog', { name: 'Switch to Engine B?' })
      .getByRole('button', { name: 'Switch engine' })
      .click();
    await expect(section.getByRole('radio', { name: /^Engine B/ })).toBeChecked();
    await expect(agent).not.toContainText('Cannot chat');

    await page.getByRole('button', { name: 'Back to chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello from the spec');
    await box.press('Enter');
    await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
      'Hello from the spec',
    );
  });
});
