import { expect, test } from '@playwright/test';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('tools: a service tool off, an extension off (with the restart warning), a channel veto and its return to default', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Tools');
  await expect(section.getByText('Changing one restarts the agent')).toBeVisible();
  // Tools are named for a person, each with one line; the wire's names stay on the wire.
  await expect(section).not.toContainText('account_files');
  await expect(
    section.getByRole('checkbox', { name: /^Your file library — The agent can list/ }),
  ).toBeVisible();
  await section.getByRole('checkbox', { name: /^Your connected services — / }).uncheck();
  await section.getByRole('checkbox', { name: /^To-do list — / }).uncheck();
  await section.getByRole('checkbox', { name: 'Send you a file on Scheduled' }).uncheck();
  await section.getByRole('button', { name: 'Save tools' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  await shoot(page, 'tools');

  const held = await heldConfig(rig, true);
  expect(held.tools?.gs?.['connectors']).toBe(false);
  expect(held.extensions?.find((e) => e.name === 'todo')?.enabled).toBe(false);
  expect(held.tools?.channels?.['programado']?.['send_file']).toBe(false);
  expect(held.tools?.channels?.['chat']?.['send_file']).toBe(true);

  // Ticking the vetoed cell returns it to its default.
  await section.getByRole('checkbox', { name: 'Send you a file on Scheduled' }).check();
  await section.getByRole('button', { name: 'Save tools' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(rig)).tools?.channels?.['programado']?.['send_file']).toBe(true);
});
