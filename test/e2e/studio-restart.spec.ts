import { expect, test } from '@playwright/test';
import { heldConfig, openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('restart: warned before the click, confirmed after; a real 409 agente_no_acp hides what the engine cannot do', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'Restart');
  // A person's words: replies, not turns; the workspace, not its disk.
  await expect(section).toContainText('Replies in progress are interrupted');
  await expect(section).toContainText('The workspace survives');
  await expect(section).not.toContainText(/\bturns?\b|\bdisk\b/i);
  await section.getByRole('button', { name: 'Restart the agent' }).click();
  const outcome = section.getByRole('status', { name: 'Save result' });
  await expect(outcome).toContainText('Restarted. The agent is running again, with its workspace as it was.');
  await shoot(page, 'restart');
  const engines = rig.mode.service()!.context.engines;
  expect(engines.isAwake(rig.agentId)).toBe(true);

  // The engine loses its machine behind the page's back: the server's 409 is said, and the studio adapts.
  const moved = await rig.api.updateAgentConfig(rig.agentId, { engine: 'house-lite' });
  expect(moved.ok).toBe(true);
  await section.getByRole('button', { name: 'Restart the agent' }).click();
  await expect(page.getByRole('alert', { name: 'Save result' })).toContainText(
    'The server says this agent has no workspace of its own',
  );
  const nav = page.getByRole('navigation', { name: 'Studio sections' });
  await expect(nav.getByRole('button', { name: 'Restart' })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'MCP servers' })).toHaveCount(0);
  await expect(nav).toContainText('Not shown: MCP servers, Workspace files, Restart');
  await expect(nav).toContainText('Built-in lite assistant has no workspace of its own');
  await expect(page.getByText('How the prompt is used')).toBeHidden();
  await shoot(page, 'no-machine');
  expect((await heldConfig(rig)).hasMachine).toBe(false);
});
