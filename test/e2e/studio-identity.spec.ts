import { expect, test } from '@playwright/test';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('identity: name, prompt with its live count and mode, starters reordered; the service holds them', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Identity');

  await section.getByLabel('Name', { exact: true }).fill('Flower shop');
  const prompt = section.getByLabel('Prompt', { exact: true });
  // Over the limit: the count says so and nothing leaves the app.
  await prompt.fill('x'.repeat(20_001));
  await expect(section.getByText('20,001 / 20,000 characters — 1 too many')).toBeVisible();
  await section.getByRole('button', { name: 'Save identity' }).click();
  await expect(section.getByRole('alert').filter({ hasText: /20000|20,000/ })).toBeVisible();
  expect((await heldConfig(rig)).name).toBe('Assistant');

  await prompt.fill('You answer questions about flowers.');
  await expect(section.getByText('35 / 20,000 characters')).toBeVisible();
  await section.getByText('Replace them').click();
  await section.getByRole('button', { name: 'Add a starter' }).click();
  await section.getByLabel('Starter 1', { exact: true }).fill('What is in season?');
  await section.getByRole('button', { name: 'Add a starter' }).click();
  await section.getByLabel('Starter 2', { exact: true }).fill('Opening hours');
  await section.getByRole('button', { name: 'Move starter 2 up' }).click();
  await expect(section.getByLabel('Starter 1', { exact: true })).toHaveValue('Opening hours');
  await section.getByRole('button', { name: 'Save identity' }).click();

  const outcome = section.getByRole('status', { name: 'Save result' });
  await expect(outcome).toContainText('Saved.');
  // The service's note, in plain words (no "Server note:" label, no field names).
  await expect(outcome).toContainText('The new prompt applies from the next conversation');
  await expect(outcome).not.toContainText('Server note');
  await expect(outcome.getByRole('button', { name: 'Restart the agent' })).toBeVisible();
  await shoot(page, 'identity');

  const held = await heldConfig(rig);
  expect(held.name).toBe('Flower shop');
  expect(held.prompt).toBe('You answer questions about flowers.');
  expect(held.promptMode).toBe('replace');
  expect(held.starters).toEqual(['Opening hours', 'What is in season?']);

  // The new identity, tried at once beside it (the README's picture).
  await page.getByRole('button', { name: 'Try it' }).click();
  const panel = page.getByRole('complementary', { name: 'Try panel' });
  await panel.getByLabel('Message').fill('What is in season?');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(panel.getByRole('region', { name: 'Try reply' })).toContainText('What is in season?');
  await page.locator('.studio-body').evaluate((body) => body.scrollTo(0, 0));
  await shoot(page, 'overview');
});

test('unsaved edits are guarded; the section list works by keyboard; the shortcut toggles the studio', async ({
  page,
}) => {
  await page.goto(rig.mode.url);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const section = await openSection(page, 'Identity');
  await section.getByLabel('Name', { exact: true }).fill('Not saved');

  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: 'Engine and model' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByLabel('Name', { exact: true })).toHaveValue('Not saved');
  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: 'Engine and model' })
    .click();
  await page
    .getByRole('dialog', { name: 'Discard unsaved changes?' })
    .getByRole('button', { name: 'Discard changes' })
    .click();
  await expect(page.getByRole('region', { name: 'Engine and model' })).toBeVisible();
  expect((await heldConfig(rig)).name).toBe('Flower shop');

  // Arrow keys walk the section list; Enter opens the focused section.
  const nav = page.getByRole('navigation', { name: 'Studio sections' });
  await nav.getByRole('button', { name: 'Engine and model' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(nav.getByRole('button', { name: 'Channels and web search' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Channels and web search' })).toBeVisible();

  await page.keyboard.press('Control+Comma');
  await expect(nav).toBeHidden();
  await page.keyboard.press('Control+Shift+E');
  await expect(nav).toBeVisible();
});

test('unsaved edits are also guarded when another agent or the sync panel is picked', async ({ page }) => {
  const context = rig.mode.service()!.context;
  const person = (await context.identity.persons.findByEmail('studio@example.test'))!;
  await context.identity.agents.create(person.id, {
    name: 'Second agent',
    engine: 'engine-b',
    protocol: 'acp',
  });
  await page.goto(rig.mode.url);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const section = await openSection(page, 'Identity');
  await section.getByLabel('Name', { exact: true }).fill('Edited, not saved');

  // The sync panel asked for over unsaved edits: keep editing, and the studio stays.
  await page.getByRole('button', { name: /^Sync folder/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByLabel('Name', { exact: true })).toHaveValue('Edited, not saved');
  await expect(page.getByRole('region', { name: /^Sync folder · / })).toHaveCount(0);

  // Another agent: discard, and the studio follows to it.
  await page
    .getByRole('navigation', { name: 'Agents' })
    .getByRole('button', { name: /Second agent/ })
    .click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Second agent' })).toBeVisible();
  expect((await heldConfig(rig)).name).toBe('Flower shop');
});
