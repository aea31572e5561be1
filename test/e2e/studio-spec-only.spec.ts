import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openSection, shoot } from './studio-support';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';
import { heldConfig, openStudio } from './support/spec-only-studio';

// The whole agent studio against a server that offers exactly the spec (test/support/spec-only-server.ts
// in front of the real local service and its demo agent), signed in through "Another server". Each
// section is used as far as the spec allows and what the service then holds is read back through the
// API as a second client. After every test the app has asked that server for nothing outside the spec.

let app: SpecOnlyApp;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});

test.afterAll(async () => {
  await app.close();
});

test.afterEach(() => {
  expect(app.spec.refused).toEqual([]);
});

test('identity and model are saved through the spec-only server and read back', async ({ page }) => {
  await signInToSpecOnly(page, app);

  const identity = await openStudio(page, app, 'Identity');
  await identity.getByLabel('Name', { exact: true }).fill('Spec shop');
  await identity.getByLabel('Prompt', { exact: true }).fill('You answer from the spec alone.');
  await identity.getByRole('button', { name: 'Add a starter' }).click();
  await identity.getByLabel('Starter 1', { exact: true }).fill('What can you do?');
  await identity.getByRole('button', { name: 'Save identity' }).click();
  await expect(identity.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  const saved = await heldConfig(app);
  expect(saved.name).toBe('Spec shop');
  expect(saved.prompt).toBe('You answer from the spec alone.');
  expect(saved.starters).toEqual(['What can you do?']);

  const engine = await openSection(page, 'Engine and model');
  await engine.getByLabel('Model').selectOption('demo-deep');
  await expect(engine.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(app)).model).toBe('demo-deep');
});

test('MCP servers: the whole list is saved and read back', async ({ page }) => {
  const section = await openStudio(page, app, 'MCP servers');
  await section.getByRole('button', { name: 'Import mcp.json' }).click();
  await section
    .getByLabel(/Paste an mcp.json/)
    .fill(JSON.stringify({ mcpServers: { docs: { url: 'https://mcp.example.com/mcp' } } }));
  await section.getByRole('button', { name: 'Import', exact: true }).click();
  await section.getByRole('button', { name: 'Save the list' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText(
    'The agent was restarted to load them.',
  );
  const servers = await app.api.getMcpServers(app.agentId);
  expect(servers.ok && servers.value.servers).toEqual([
    expect.objectContaining({ name: 'docs', url: 'https://mcp.example.com/mcp' }),
  ]);
});

test('skills: installed from a folder, then removed', async ({ page }) => {
  const folder = join(app.scratch, 'spec-notes');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'SKILL.md'), '---\nname: spec-notes\ndescription: Notes on the spec.\n---\n');
  const section = await openStudio(page, app, 'Skills');
  await section.getByLabel('Skill folder').setInputFiles(folder);
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Installed spec-notes');
  const slugs = async () => {
    const listed = await app.api.listSkills(app.agentId);
    return listed.ok ? listed.value.skills.map((s) => s.slug) : [];
  };
  expect(await slugs()).toContain('spec-notes');

  const installed = section.getByRole('list', { name: 'Installed skills' });
  await installed.getByRole('button', { name: 'Remove spec-notes' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the skill spec-notes?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Removed spec-notes');
  expect(await slugs()).not.toContain('spec-notes');
});

test('workspace files: an upload is listed; opening or downloading one says the server only lists', async ({
  page,
}) => {
  const section = await openStudio(page, app, 'Workspace files');
  await section.getByLabel('Upload files').setInputFiles({
    name: 'prices.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('roses: 3\n'),
  });
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Uploaded 1 file.');
  const tree = section.getByRole('tree', { name: 'Workspace files' });
  await expect(tree.getByRole('treeitem', { name: 'prices.md, 9 B' })).toBeVisible();

  const listOnly = section.getByRole('status').filter({ hasText: 'This server only lists workspace files' });
  await tree.getByRole('button', { name: 'Download prices.md' }).click();
  await expect(listOnly).toBeVisible();
  await tree.getByRole('button', { name: 'View prices.md' }).click();
  await expect(listOnly).toBeVisible();
  await expect(section.getByRole('region', { name: 'Contents of prices.md' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await shoot(page, 'spec-only-files');
  // The file is still there, whole: nothing was replaced by a listing.
  const read = await app.api.readWorkspaceFile(app.agentId, 'prices.md');
  expect(read.ok && read.value.kind === 'bytes' && new TextDecoder().decode(read.value.bytes)).toBe(
    'roses: 3\n',
  );
});

test('restart and try work as on our own service', async ({ page }) => {
  const section = await openStudio(page, app, 'Restart');
  await section.getByRole('button', { name: 'Restart the agent' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText(
    'Restarted. The agent is running again',
  );

  await page.getByRole('button', { name: 'Try it' }).click();
  const panel = page.getByRole('complementary', { name: 'Try panel' });
  await panel.getByLabel('Message').fill('hello through the spec');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(panel.getByRole('region', { name: 'Try reply' })).toContainText('hello through the spec');
});
