import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

async function workspace(): Promise<Record<string, number>> {
  const result = await rig.api.listWorkspace(rig.agentId, '');
  if (!result.ok) throw new Error(result.error.message);
  return Object.fromEntries(result.value.files.map((f) => [f.path, f.size]));
}

test('workspace files: a tree with sizes, upload with the 10 MB cap checked first, view, delete after confirmation', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const written = await rig.api.writeWorkspaceFile(
    rig.agentId,
    'notes/today.md',
    new TextEncoder().encode('# Today\n'),
  );
  expect(written.ok).toBe(true);
  const section = await openSection(page, 'Workspace files');
  const tree = section.getByRole('tree', { name: 'Workspace files' });
  await expect(tree.getByRole('treeitem', { name: 'notes/today.md, 8 B' })).toBeVisible();

  const hello = join(rig.scratch, 'hello.txt');
  const prices = join(rig.scratch, 'prices.csv');
  await writeFile(hello, 'hello from the studio\n');
  await writeFile(prices, 'flower,price\nrose,3\n');
  await section.getByLabel('Upload files').setInputFiles([hello, prices]);
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Uploaded 2 files.');
  await expect(tree.getByRole('treeitem', { name: 'hello.txt, 22 B' })).toBeVisible();
  expect(await workspace()).toMatchObject({ 'hello.txt': 22, 'prices.csv': 20, 'notes/today.md': 8 });

  const big = join(rig.scratch, 'video.bin');
  await writeFile(big, '');
  await truncate(big, 11 * 1024 * 1024);
  await section.getByLabel('Upload files').setInputFiles([big]);
  await expect(section.getByRole('alert', { name: 'Save result' })).toContainText('over the 10 MB limit');
  expect(Object.keys(await workspace())).not.toContain('video.bin');

  await tree.getByRole('button', { name: 'View hello.txt' }).click();
  await expect(section.getByRole('region', { name: 'Contents of hello.txt' })).toContainText(
    'hello from the studio',
  );
  await shoot(page, 'files');

  await tree.getByRole('button', { name: 'Delete prices.csv' }).click();
  await page
    .getByRole('dialog', { name: 'Delete prices.csv?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Deleted prices.csv.');
  await expect(tree.getByRole('treeitem', { name: /^prices\.csv/ })).toHaveCount(0);
  expect(Object.keys(await workspace())).not.toContain('prices.csv');
  await expect(section.getByRole('button', { name: 'Open the synced folder' })).toHaveCount(0);

  // Once the agent is synced, the section offers its folder.
  await page.getByRole('button', { name: /^Sync folder/ }).click();
  const panel = page.getByRole('region', { name: /^Sync folder · / });
  await panel.getByLabel('Folder path').fill(join(rig.scratch, 'synced'));
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  await expect(panel.getByRole('region', { name: 'Sync status' }).getByRole('status')).toHaveText(
    'Up to date',
  );
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const again = await openSection(page, 'Workspace files');
  await expect(again.getByRole('button', { name: 'Open the synced folder' })).toBeVisible();
});
