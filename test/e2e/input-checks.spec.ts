import { expect, test } from '@playwright/test';
import { heldConfig, openSection, signInAndOpen, studioRig } from './studio-support';

// Input checked before sending, in the studio against the real local service: empty starters are left out
// (and each empty row says so first), and an MCP server name with spaces and capitals is refused in words,
// offered as a valid name, and only that enters the list. What the service holds is read back through the API.

const rig = studioRig();

test('empty starters are left out and said so; only the real ones are saved', async ({ page }) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Identity');
  for (let i = 0; i < 3; i += 1) await section.getByRole('button', { name: 'Add a starter' }).click();
  await section.getByLabel('Starter 2', { exact: true }).fill('What can you do?');
  await section.getByLabel('Starter 3', { exact: true }).fill('   ');
  await expect(section.getByText('Empty: left out when you save')).toHaveCount(2);
  await section.getByRole('button', { name: 'Save identity' }).click();
  await expect(section.getByText('2 empty starters were left out.')).toBeVisible();
  await expect.poll(async () => (await heldConfig(rig)).starters).toEqual(['What can you do?']);
  await expect(section.getByLabel('Starter 1', { exact: true })).toHaveValue('What can you do?');
  await expect(section.getByLabel('Starter 2', { exact: true })).toHaveCount(0);

  // Only empty ones added: nothing is sent, and the rows go.
  await section.getByRole('button', { name: 'Add a starter' }).click();
  await section.getByRole('button', { name: 'Save identity' }).click();
  await expect(section.getByText('An empty starter was left out.')).toBeVisible();
  await expect(section.getByLabel('Starter 2', { exact: true })).toHaveCount(0);
  expect((await heldConfig(rig)).starters).toEqual(['What can you do?']);
});

test('an MCP name with spaces and capitals is refused in words and offered as a valid slug', async ({
  page,
}) => {
  await page.goto(rig.mode.url);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const section = await openSection(page, 'MCP servers');
  await section.getByRole('button', { name: 'Add a server' }).click();
  const form = section.getByRole('form', { name: 'New MCP server' });
  await form.getByLabel('Name').fill('Everything Server');
  await form.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/mcp');
  await form.getByRole('button', { name: 'Add server' }).click();
  const problem = form.getByRole('alert');
  await expect(problem).toContainText('A server name uses only lowercase letters, digits, - and _');
  expect(await problem.innerText()).not.toMatch(/[[\]^$]/);
  await expect(form.getByLabel('Name')).toBeFocused();
  const servers = section.getByRole('list', { name: 'MCP servers' }).getByRole('listitem');
  await expect(servers).toHaveCount(0);

  await form.getByRole('button', { name: 'Use “everything-server”' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('everything-server');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(servers).toHaveCount(1);
  await expect(servers.first()).toContainText('everything-server');

  // A second server may not take a name already in the list.
  await section.getByRole('button', { name: 'Add a server' }).click();
  await form.getByLabel('Name').fill('everything-server');
  await form.getByLabel('URL', { exact: true }).fill('https://other.example.com/mcp');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form.getByRole('alert')).toContainText('Another server is already named “everything-server”.');
  await form.getByRole('button', { name: 'Cancel' }).click();

  // Adding saved it (one step): the server holds the one valid server, nothing else.
  await expect
    .poll(
      async () => {
        const held = await rig.api.getMcpServers(rig.agentId);
        return held.ok ? held.value.servers.map((s) => s.name) : [];
      },
      { timeout: 30_000 },
    )
    .toEqual(['everything-server']);
});
