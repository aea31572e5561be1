import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('bundle: export to a .zip and a folder, import a folder showing what was applied and ignored and the note, the 10 MB cap first', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  expect((await rig.api.updateAgentConfig(rig.agentId, { prompt: 'You sell flowers.' })).ok).toBe(true);
  const section = await openSection(page, 'Export and import');
  // "Bundle" is the API's word: on screen it is the agent's setup, exported and imported.
  await expect(section).not.toContainText(/bundle/i);
  const exportForm = section.getByRole('form', { name: 'Export the agent' });

  const zipPath = join(rig.scratch, 'out', 'agent.zip');
  await exportForm.getByLabel('Where on this computer').fill(zipPath);
  await exportForm.getByRole('button', { name: 'Export' }).click();
  await expect(exportForm.getByRole('status')).toContainText(`to ${zipPath}`);
  const zipped = unzipSync(new Uint8Array(await readFile(zipPath)));
  expect(new TextDecoder().decode(zipped['instructions.md'])).toContain('You sell flowers.');

  const folder = join(rig.scratch, 'out', 'agent-folder');
  await exportForm.getByLabel('A folder').check();
  await exportForm.getByLabel('Where on this computer').fill(folder);
  await exportForm.getByRole('button', { name: 'Export' }).click();
  await expect(exportForm.getByRole('status')).toContainText(`to ${folder}`);
  expect(await readFile(join(folder, 'instructions.md'), 'utf8')).toContain('You sell flowers.');

  // Edit the exported folder and bring it back.
  await writeFile(join(folder, 'instructions.md'), 'You sell flowers and plants.\n');
  await mkdir(join(folder, 'knowledge'), { recursive: true });
  await writeFile(join(folder, 'knowledge', 'hours.md'), 'Open 9 to 5.\n');
  await writeFile(join(folder, 'stray.txt'), 'not part of a bundle\n');

  // A file over 10 MB stops the import before anything is sent.
  await writeFile(join(folder, 'knowledge', 'video.bin'), '');
  await truncate(join(folder, 'knowledge', 'video.bin'), 11 * 1024 * 1024);
  const importForm = section.getByRole('form', { name: 'Import an agent' });
  await importForm.getByLabel('A folder or .zip exported from an agent, on this computer').fill(folder);
  await importForm.getByRole('button', { name: 'Import' }).click();
  await page
    .getByRole('dialog', { name: 'Replace the agent’s setup?' })
    .getByRole('button', { name: 'Import and replace' })
    .click();
  await expect(section.getByRole('alert')).toContainText(
    'a file to import may be at most 10 MB. Nothing was sent.',
  );
  expect((await heldConfig(rig)).prompt).toBe('You sell flowers.');
  await rm(join(folder, 'knowledge', 'video.bin'));

  await importForm.getByRole('button', { name: 'Import' }).click();
  const confirm = page.getByRole('dialog', { name: 'Replace the agent’s setup?' });
  await expect(confirm).toContainText('they lack are removed');
  await confirm.getByRole('button', { name: 'Import and replace' }).click();
  const result = section.getByRole('status', { name: 'Import result' });
  await expect(result).toContainText('Applied:');
  await expect(result).toContainText('knowledge/hours.md');
  await expect(result).toContainText('Ignored:');
  await expect(result).toContainText('stray.txt');
  await expect(result).toContainText('Note from the service:');
  await shoot(page, 'bundle');

  expect((await heldConfig(rig)).prompt).toContain('You sell flowers and plants.');
  const bundle = await rig.api.getBundle(rig.agentId);
  expect(bundle.ok && bundle.value.files.map((f) => f.path)).toContain('knowledge/hours.md');
});
