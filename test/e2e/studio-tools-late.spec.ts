import { expect, test } from '@playwright/test';
import { heldConfig, openSection, signInAndOpen, studioRig } from './studio-support';
import { heldAnswers } from './support/held-answers';

// The Tools section's parts come one after the other; a rig of its own, as a test signs in from the first run.
const rig = studioRig();

test('a tick made while the built-in tools are still coming is kept when they come', async ({ page }) => {
  // The host answers the section's ask for the built-in tools (it wakes the agent) only after the tick,
  // as on a busy machine; before, their coming put the whole form back as the server had it.
  const config = await heldAnswers(page, 'getAgentConfig');
  await signInAndOpen(page, rig);
  // The studio has its agent's configuration (its name heads it) before the section's own ask is held.
  await expect(page.getByRole('heading', { level: 1, name: 'Assistant' })).toBeVisible();
  config.hold();
  const section = await openSection(page, 'Tools');
  const connectors = section.getByRole('checkbox', { name: /^Your connected services( off)? — / });
  await connectors.uncheck();
  await expect(section.getByRole('checkbox', { name: /^To-do list — / })).toHaveCount(0);
  config.release();
  await expect(section.getByRole('checkbox', { name: /^To-do list — / })).toBeVisible();
  await expect(connectors).not.toBeChecked();
  await expect(section.getByRole('button', { name: 'Save tools' })).toBeEnabled();
  await section.getByRole('button', { name: 'Save tools' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(rig)).tools?.gs?.['connectors']).toBe(false);
});
