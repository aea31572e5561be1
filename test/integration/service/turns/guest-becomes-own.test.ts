import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualTimers } from '../../../../src/service/manual-timers';
import { createHarness, type Harness } from './harness';

// A guest service (ServiceOptions.guest) beside another program's leaves the folder's scheduled turns and
// temp files to that one; when its program takes the folder over (becomeOwn, core/host/plumbing/guest-service.ts)
// it fires the schedules that fall due and sweeps the old temp files, not the young ones it may be writing.
// The real service and demo agent; only time is injected (ManualTimers).

const MIN = 60_000;
const clock = new ManualTimers();
let h: Harness;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-guest-'));
  h = await createHarness({ clock, guest: true, dataDir });
});
afterAll(() => h?.close());

function put(path: string, ageMs: number): string {
  const full = join(dataDir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, 'x');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(full, at, at);
  return full;
}

it('a guest fires no scheduled turn and sweeps nothing until it becomes the folder’s own service', async () => {
  const old = put('agents/a1/work/.agentdesk-tmp-0123456789ab', 3_600_000);
  const young = put('agents/a1/work/.agentdesk-tmp-ba9876543210', 0);
  const id = await h.conversation();
  const stream = await h.events(id);
  const made = await h.api('POST', h.path(id, '/schedule'), {
    prompt: 'scheduled while a guest',
    inMinutes: 5,
  });
  expect(made.status).toBe(201);

  clock.advance(5 * MIN);
  // A turn sent now runs at once (nothing scheduled got in before it), and the schedule is still pending.
  const sent = await h.send(id, { content: 'a turn of the guest’s own' });
  expect(sent.status).toBe(202);
  await stream.untilDone((await stream.nextNamed('started')).data.turnId as string);
  const listed = await h.api<{ programados: unknown[] }>('GET', h.path(id, '/schedule'));
  expect(listed.body.programados).toHaveLength(1);
  expect(existsSync(old)).toBe(true);

  await h.service.becomeOwn!();
  const started = await stream.nextNamed('started');
  const events = await stream.untilDone(started.data.turnId as string);
  expect(
    events
      .filter((e) => e.event === 'chunk')
      .map((e) => e.data.text)
      .join(''),
  ).toContain('scheduled while a guest');
  expect(existsSync(old)).toBe(false);
  expect(existsSync(young)).toBe(true);
});
