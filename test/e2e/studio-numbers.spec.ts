import { expect, test } from '@playwright/test';
import { openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig({
  workspace: {
    msgapp1: {
      numbers: [
        { id: 'n1', label: '+34 600 000 001' },
        { id: 'n2', label: '+34 600 000 002' },
      ],
      salesUrl: 'https://sales.example/pair',
    },
  },
});

test('msgapp1 numbers: mine and taken by another agent, a warning before taking one, cambiados after saving', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  // A second agent of the same person answers n2.
  const context = rig.mode.service()!.context;
  const person = (await context.identity.persons.findByEmail('studio@example.test'))!;
  const other = await context.identity.agents.create(person.id, {
    name: 'Other agent',
    engine: 'engine-b',
    protocol: 'acp',
  });
  expect((await rig.api.setMsgappNumbers(other.id, ['n2'])).ok).toBe(true);

  const section = await openSection(page, 'Business chat numbers');
  const second = section.getByRole('checkbox', { name: /\+34 600 000 002/ });
  await expect(section.getByText('answered by another agent')).toBeVisible();
  await expect(section.getByRole('link', { name: 'Pair a new one' })).toHaveAttribute(
    'href',
    'https://sales.example/pair',
  );
  await section.getByRole('checkbox', { name: /\+34 600 000 001/ }).check();
  await second.check();
  await expect(section.getByRole('alert')).toContainText('+34 600 000 002 is answered by another agent now');
  await expect(section.getByRole('alert')).toContainText('the other agent loses it');
  await shoot(page, 'numbers');
  await section.getByRole('button', { name: 'Save numbers' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText(
    'Saved: 2 numbers changed.',
  );

  const mine = await rig.api.getMsgappNumbers(rig.agentId);
  if (!mine.ok) throw new Error(mine.error.message);
  expect(mine.value.numbers.filter((n) => n.mine).map((n) => n.id)).toEqual(['n1', 'n2']);
  const theirs = await rig.api.getMsgappNumbers(other.id);
  expect(theirs.ok && theirs.value.numbers.find((n) => n.id === 'n2')?.mine).toBe(false);
});
