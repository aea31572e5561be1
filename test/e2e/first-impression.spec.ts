import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openApp, screens, startApp, type AppSession } from './support/app-session';

// A new person's first minutes, in browser mode against the real local service and its demo agent:
// the agent greets them by name with its starters and a clear way to begin, the header says which
// agent, engine and model they talk to, and agent tokens are not mentioned where none is needed.
// A second app runs a service with a one-turn allowance, to see a 402 shown once, with its reason.

let app: AppSession;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'first@example.test' });
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
  const patched = await app.api(`/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ starters: ['What can you do?', 'list files'] }),
  });
  expect(patched.status).toBe(200);
});

test.afterAll(async () => {
  await app?.close();
});

const welcome = (page: Page) => page.getByRole('region', { name: /^Welcome to / });

test('an empty account is greeted by its agent, with starters and a new-conversation action', async ({
  page,
}) => {
  await openApp(page, app);
  const name = (await page
    .getByRole('navigation', { name: 'Agents' })
    .locator('.agent-name')
    .first()
    .textContent())!;
  await expect(welcome(page)).toBeVisible();
  await expect(welcome(page).getByRole('heading', { name: `Chat with ${name}` })).toBeVisible();
  // What runs the agent, in plain words (our service's about.engines): never the wire's engine id.
  await expect(welcome(page)).toContainText('Demo agent (offline, answers by rule), model ');
  await expect(welcome(page)).not.toContainText('engine-');
  await expect(welcome(page).getByRole('button', { name: 'What can you do?' })).toBeVisible();
  await expect(welcome(page).getByRole('button', { name: 'New conversation', exact: true })).toBeVisible();
  await expect(page.getByText('No agent token yet')).toHaveCount(0);
  await expect(page.getByText(/agent token/i)).toHaveCount(0);
  await page.screenshot({ path: join(screens, 'first-impression.png') });

  // A starter opens a conversation and sends itself.
  await welcome(page).getByRole('button', { name: 'What can you do?' }).click();
  await expect(page.getByRole('article', { name: 'Your message' })).toContainText('What can you do?');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toHaveAttribute(
    'aria-busy',
    'false',
    {
      timeout: 30_000,
    },
  );
  // The header names the agent and the model the next reply uses; never the wire's engine id.
  const header = page.getByRole('region', { name: 'Chat' }).locator('header');
  await expect(header).toContainText(name);
  await expect(header).not.toContainText('engine-');
  await expect(header.getByRole('combobox', { name: 'Model' })).toHaveValue(/^demo-/);
  await page.screenshot({ path: join(screens, 'agent-header.png') });

  const listed = (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
    conversaciones: unknown[];
  };
  expect(listed.conversaciones).toHaveLength(1);
});

test('an empty conversation greets by name; New conversation in the empty pane creates one', async ({
  page,
}) => {
  await openApp(page, app);
  await page.getByRole('button', { name: 'Start a new conversation' }).click();
  await expect(welcome(page)).toBeVisible();
  await expect(welcome(page).getByRole('button', { name: 'New conversation', exact: true })).toHaveCount(0);
  await expect(welcome(page).getByRole('button', { name: 'list files' })).toBeVisible();
  const listed = (await (await app.api(`/api/v2/me/agents/${agentId}/conversations`)).json()) as {
    conversaciones: unknown[];
  };
  expect(listed.conversaciones).toHaveLength(2);
});

test('a 402 shows the server message once, in a banner with its reason', async ({ browser, page }) => {
  const limited = await startApp(browser, {
    email: 'allowance@example.test',
    serviceConfig: { turns: { quota: { turns: 1 } } },
  });
  try {
    await openApp(page, limited);
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello once');
    await box.press('Enter');
    await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toHaveAttribute(
      'aria-busy',
      'false',
      {
        timeout: 30_000,
      },
    );
    await expect(page.getByRole('alert', { name: 'Allowance' })).toHaveCount(0);
    for (const text of ['hello twice', 'hello thrice']) {
      await box.fill(text);
      await box.press('Enter');
      await expect(page.getByRole('article', { name: 'Your message' }).last()).toContainText(text);
    }
    const banner = page.getByRole('alert', { name: 'Allowance' });
    await expect(banner).toHaveCount(1);
    await expect(banner).toContainText('Allowance used up.');
    await expect(banner).toContainText('Has usado los 1 turnos de tu asignación.');
    // The server's message is in the banner only, not under each refused message.
    await expect(page.getByText('Has usado los 1 turnos de tu asignación.')).toHaveCount(1);
    await page.screenshot({ path: join(screens, 'allowance-banner.png') });
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
  } finally {
    await limited.close();
  }
});
