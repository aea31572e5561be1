import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

async function skillsHeld() {
  const result = await rig.api.listSkills(rig.agentId);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

test('skills: install from the catalog and from a folder (checked first), remove with confirmation', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Skills');
  const catalog = section.getByRole('list', { name: 'Community catalog' });
  const first = (await skillsHeld()).community[0]!;
  await catalog.getByRole('button', { name: `Install ${first.slug}` }).click();
  const installed = section.getByRole('list', { name: 'Installed skills' });
  await expect(installed).toContainText(first.slug);
  expect((await skillsHeld()).skills.map((s) => s.slug)).toContain(first.slug);

  // A folder without frontmatter is refused before anything is sent.
  const bad = join(rig.scratch, 'plain-notes');
  await mkdir(bad, { recursive: true });
  await writeFile(join(bad, 'SKILL.md'), '# Just notes\n');
  await section.getByLabel('Skill folder').setInputFiles(bad);
  await expect(section.getByRole('alert', { name: 'Save result' })).toContainText('YAML frontmatter');

  // Over 25 MB is refused on sizes alone.
  const big = join(rig.scratch, 'big-skill');
  await mkdir(big, { recursive: true });
  await writeFile(join(big, 'SKILL.md'), '---\ndescription: Big\n---\n');
  await writeFile(join(big, 'data.bin'), '');
  await truncate(join(big, 'data.bin'), 26 * 1024 * 1024);
  await section.getByLabel('Skill folder').setInputFiles(big);
  await expect(section.getByRole('alert', { name: 'Save result' })).toContainText('the limit is 25 MB');

  const folder = join(rig.scratch, 'flower-prices');
  await mkdir(join(folder, 'scripts'), { recursive: true });
  await writeFile(
    join(folder, 'SKILL.md'),
    '---\nname: flower-prices\ndescription: Looks up flower prices by season.\n---\n\nUse scripts/prices.sh.\n',
  );
  await writeFile(join(folder, 'scripts', 'prices.sh'), 'echo "roses: 3"\n');
  await section.getByLabel('Skill folder').setInputFiles(folder);
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Installed flower-prices');
  await expect(installed).toContainText('Looks up flower prices by season.');
  await shoot(page, 'skills');
  const held = (await skillsHeld()).skills.find((s) => s.slug === 'flower-prices');
  expect(held?.files).toEqual(expect.arrayContaining(['SKILL.md', 'scripts/prices.sh']));
  expect((await skillsHeld()).skills.map((s) => s.slug)).not.toContain('plain-notes');
  expect((await skillsHeld()).skills.map((s) => s.slug)).not.toContain('big-skill');

  await installed.getByRole('button', { name: 'Remove flower-prices' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the skill flower-prices?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Removed flower-prices');
  expect((await skillsHeld()).skills.map((s) => s.slug)).not.toContain('flower-prices');
});
