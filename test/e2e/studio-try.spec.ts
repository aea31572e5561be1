import { expect, test } from '@playwright/test';
import { shoot, signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('try panel: a reply the session remembers, msgapp1 as a phone-number session, 409 turno_en_curso, cancel, 502', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  await page.getByRole('button', { name: 'Try it' }).click();
  const panel = page.getByRole('complementary', { name: 'Try panel' });
  await panel.getByLabel('Session', { exact: true }).fill('studio-1');
  await panel.getByLabel('Message').fill('hello from the studio');
  await panel.getByRole('button', { name: 'Send try' }).click();
  const reply = panel.getByRole('region', { name: 'Try reply' });
  await expect(reply).toContainText('hello from the studio');
  await expect(reply).toContainText('Session studio-1');
  await shoot(page, 'try');
  // The service keeps the session: the next turn in it, sent through the API, recalls the first.
  const next = await rig.api.tryAgent(rig.agentId, { text: 'and again', session: 'studio-1' });
  expect(next.ok && next.value.text).toContain('hello from the studio');

  // As a business chat customer, the session is a phone number: checked before sending.
  await panel.getByLabel('As a business chat customer').check();
  await panel.getByLabel('Customer phone number (10 to 15 digits)').fill('not-a-phone');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(panel.getByRole('alert')).toContainText('phone number of 10 to 15 digits');
  await panel.getByLabel('Customer phone number (10 to 15 digits)').fill('34600000001');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(reply).toContainText('Session 34600000001');
  await panel.getByLabel('As a business chat customer').uncheck();

  // A turn already running in the session: the server's 409 in plain words.
  const busy = new AbortController();
  const running = rig.api.tryAgent(
    rig.agentId,
    { text: 'wait 20', session: 'busy' },
    { signal: busy.signal },
  );
  await expect.poll(() => rig.mode.service()!.context.engines.isAwake(rig.agentId)).toBe(true);
  await panel.getByLabel('Session', { exact: true }).fill('busy');
  await panel.getByLabel('Message').fill('are you there?');
  // The API's request may still be on its way to the service: send again until the session is busy.
  await expect(async () => {
    await panel.getByRole('button', { name: 'Send try' }).click();
    await expect(panel.getByRole('alert')).toContainText(
      'A try is still running in this session. Wait for it to finish',
      { timeout: 3_000 },
    );
  }).toPass();
  busy.abort();
  await running;

  // A slow turn shows its spinner and can be cancelled.
  await panel.getByLabel('Session', { exact: true }).fill('slow');
  await panel.getByLabel('Message').fill('wait 30');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(panel.getByRole('status')).toContainText('of up to 180 s');
  await shoot(page, 'try-waiting');
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByRole('alert')).toContainText('Stopped waiting');

  // On house-lite a failed turn has no text: the server's 502 in plain words.
  expect((await rig.api.updateAgentConfig(rig.agentId, { engine: 'house-lite' })).ok).toBe(true);
  await panel.getByLabel('Session', { exact: true }).fill('fails');
  await panel.getByLabel('Message').fill('fail');
  await panel.getByRole('button', { name: 'Send try' }).click();
  await expect(panel.getByRole('alert')).toContainText('The try failed without a reply');
  // The wire's words (turno_en_curso, "turn") stay on the wire.
  await expect(panel).not.toContainText(/turno|\bturns?\b/i);
  await shoot(page, 'try-502');
});
