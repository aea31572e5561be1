import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { shoot } from './studio-support';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';
import { heldConfig, openStudio } from './support/spec-only-studio';

// The agent studio's other sections (channels, tools, the skills catalog, bundle, msgapp1 numbers)
// against a server that offers exactly the spec (test/support/spec-only-server.ts in front of the real
// local service and its demo agent), signed in through "Another server"; studio-spec-only.spec.ts has
// identity, MCP, skills from a folder, files, restart and try. What the service holds afterwards is read
// back through the API as a second client, and the app asks that server for nothing outside the spec.

let app: SpecOnlyApp;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});

test.afterAll(async () => {
  await app.close();
});

test.afterEach(async ({ page }) => {
  expect(app.spec.refused).toEqual([]);
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\[object Object\]|TypeError|undefined|HTTP 404/);
});

test('channels and web search are saved and read back', async ({ page }) => {
  await signInToSpecOnly(page, app);
  const before = await heldConfig(app);
  const section = await openStudio(page, app, 'Channels and web search');
  await section.getByRole('checkbox', { name: /^Web search/ }).setChecked(!before.webSearch);
  await section.getByRole('button', { name: 'Save channels' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(app)).webSearch).toBe(!before.webSearch);
});

test('tools: a service tool off and a channel veto are saved and read back', async ({ page }) => {
  const section = await openStudio(page, app, 'Tools');
  // This server does not describe its tools (`about` is our extension): each is named from its id.
  await expect(
    section.getByRole('checkbox', { name: /^Connectors — This server does not describe/ }),
  ).toBeVisible();
  await section.getByRole('checkbox', { name: /^Connectors — / }).uncheck();
  await section.getByRole('checkbox', { name: 'Send file on Scheduled' }).uncheck();
  await section.getByRole('button', { name: 'Save tools' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  const tools = (await heldConfig(app)).tools;
  expect(tools?.gs?.['connectors']).toBe(false);
  expect(tools?.channels?.['programado']?.['send_file']).toBe(false);
});

test('skills: one installed from the community catalog, through the spec route alone', async ({ page }) => {
  const listed = await app.api.listSkills(app.agentId);
  if (!listed.ok) throw new Error(listed.error.message);
  const first = listed.value.community.find((item) => !item.installed)!;
  const section = await openStudio(page, app, 'Skills');
  await section
    .getByRole('list', { name: 'Community catalog' })
    .getByRole('button', { name: `Install ${first.slug}` })
    .click();
  await expect(section.getByRole('list', { name: 'Installed skills' })).toContainText(first.slug);
  const after = await app.api.listSkills(app.agentId);
  expect(after.ok && after.value.skills.map((s) => s.slug)).toContain(first.slug);
});

test('bundle: exported to a .zip, then a changed one imported', async ({ page }) => {
  expect((await app.api.updateAgentConfig(app.agentId, { prompt: 'You answer from the spec.' })).ok).toBe(
    true,
  );
  const section = await openStudio(page, app, 'Export and import');
  const exportForm = section.getByRole('form', { name: 'Export the agent' });
  const zipPath = join(app.scratch, 'agent.zip');
  await exportForm.getByLabel('Where on this computer').fill(zipPath);
  await exportForm.getByRole('button', { name: 'Export' }).click();
  await expect(exportForm.getByRole('status')).toContainText(`to ${zipPath}`);
  const files = unzipSync(new Uint8Array(await readFile(zipPath)));
  expect(new TextDecoder().decode(files['instructions.md'])).toContain('You answer from the spec.');

  files['instructions.md'] = strToU8('You answer from the spec, briefly.\n');
  files['knowledge/faq.md'] = strToU8('Questions and answers.\n');
  await writeFile(zipPath, zipSync(files));
  const importForm = section.getByRole('form', { name: 'Import an agent' });
  await importForm.getByLabel('A folder or .zip exported from an agent, on this computer').fill(zipPath);
  await importForm.getByRole('button', { name: 'Import' }).click();
  await page
    .getByRole('dialog', { name: 'Replace the agent’s setup?' })
    .getByRole('button', { name: 'Import and replace' })
    .click();
  const result = section.getByRole('status', { name: 'Import result' });
  await expect(result).toContainText('Applied:');
  await expect(result).toContainText('knowledge/faq.md');
  expect((await heldConfig(app)).prompt).toContain('You answer from the spec, briefly.');
});

test('msgapp1 numbers: without a business workspace the section says there is nothing to link', async ({
  page,
}) => {
  const numbers = await app.api.getMsgappNumbers(app.agentId);
  expect(numbers.ok && numbers.value.hasWorkspace).toBe(false);
  const section = await openStudio(page, app, 'Business chat numbers');
  await expect(section).toContainText(
    'This account has no business workspace, so there are no numbers to link.',
  );
  await shoot(page, 'spec-only-numbers');
});
