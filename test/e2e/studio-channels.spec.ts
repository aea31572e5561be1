import { expect, test } from '@playwright/test';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('channels and web search: only what changed is sent, and the service holds it', async ({ page }) => {
  await signInAndOpen(page, rig);
  const before = await heldConfig(rig);
  const section = await openSection(page, 'Channels and web search');
  const web = section.getByRole('checkbox', { name: /^Web — / });
  const search = section.getByRole('checkbox', { name: /^Web search/ });
  const wasWeb = await web.isChecked();
  await web.setChecked(!wasWeb);
  await search.setChecked(!before.webSearch);
  await expect(section.getByLabel('Connected page', { exact: true })).toContainText(
    before.msgapp2Page ? 'answers the connected page' : 'does not answer the connected page',
  );
  await section.getByRole('button', { name: 'Save channels' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  await shoot(page, 'channels');

  const held = await heldConfig(rig);
  expect(held.channels?.web).toBe(!wasWeb);
  expect(held.webSearch).toBe(!before.webSearch);
  // Untouched channels stay as they were.
  expect(held.channels?.workchat).toBe(before.channels?.workchat);
  expect(held.channels?.msgapp1).toBe(before.channels?.msgapp1);
  await expect(section.getByRole('button', { name: 'Save channels' })).toBeDisabled();
});
