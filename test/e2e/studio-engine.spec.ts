import { expect, test } from '@playwright/test';
import { demoAgentCommand } from '../../src/service/engine/agent-command';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

// engine-d's command cannot start, so the service answers a real 502 for a change it saved; engine-c runs a
// second demo agent under a name of the owner's (as Settings → Agent programs would set it).
const rig = studioRig({
  engines: {
    'engine-c': { command: demoAgentCommand().command, name: 'Second demo agent' },
    'engine-d': { command: ['/nonexistent/agentdesk-agent'] },
  },
});

test('engine and model: a model change, an engine switch after confirmation, a 400 by the model field, a 502 with Restart', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Engine and model');
  const model = section.getByLabel('Model', { exact: true });
  await expect(model.locator('option')).toHaveText(['Demo Fast', 'Demo Deep']);
  await model.selectOption('demo-deep');
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(rig)).model).toBe('demo-deep');

  // Switching asks first, and says what is kept and what stays with the old engine.
  // Each engine is named by what it runs on this service (our extension `about.engines`).
  await expect(section.getByRole('radio', { name: /^Demo agent \(offline/ })).toBeChecked();
  await expect(section.getByRole('radio', { name: /Your command \(agentdesk-agent\)/ })).toBeVisible();
  await expect(section).not.toContainText('engine-b');
  await section.getByRole('radio', { name: /^Second demo agent/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to Second demo agent?' });
  await expect(dialog).toContainText('the name and prompt, skills, knowledge, channels and permissions');
  await expect(dialog).toContainText(
    'Stays with Demo agent (offline, answers by rule): the conversation memory',
  );
  await shoot(page, 'engine-confirm');
  await dialog.getByRole('button', { name: 'Switch engine' }).click();
  // "Saved." still shows from the model change, so wait for the switch's own answer: the page shows
  // the second demo agent chosen and its models offered again. Changing the engine behind the page before then
  // would race the switch (its machine stopped midway, the page left with no models to offer).
  await expect(section.getByRole('radio', { name: /^Second demo agent/ })).toBeChecked();
  await expect(model).toBeEnabled();
  await expect(model.locator('option')).toHaveText(['Demo Fast', 'Demo Deep']);
  await expect(model).toHaveValue('demo-fast');
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
  expect((await heldConfig(rig)).engine).toBe('engine-c');

  // The engine changes behind the page's back: the model it offers is now refused by the server (400).
  const behind = await rig.api.updateAgentConfig(rig.agentId, { engine: 'house-lite' });
  expect(behind.ok).toBe(true);
  await model.selectOption('demo-deep');
  await expect(section.locator('#studio-model-problem')).toContainText('is not a model of house-lite');
  await expect(model).toHaveAttribute('aria-invalid', 'true');

  // A change the machine does not take: saved, 502, Restart offered.
  await section.getByRole('radio', { name: /Your command/ }).click();
  await page
    .getByRole('dialog', { name: 'Switch to Your command (agentdesk-agent)?' })
    .getByRole('button', { name: 'Switch engine' })
    .click();
  const outcome = section.getByRole('alert', { name: 'Save result' });
  await expect(outcome).toContainText('Saved, but the agent did not take the change');
  await expect(outcome.getByRole('button', { name: 'Restart the agent' })).toBeVisible();
  await shoot(page, 'engine-502');
  expect((await heldConfig(rig)).engine).toBe('engine-d');
});
