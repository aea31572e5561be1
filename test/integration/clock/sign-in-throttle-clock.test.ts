/**
 * The sign-in throttle while the system clock jumps (issue 38, item 5): the real service (`npm run service`)
 * over HTTP, its clock moved back an hour and then forward a day by the clock-shift preload, which stands
 * in for a system clock step (see test/support/clock-shift-preload.mjs). Two failures per account are free, then
 * each next attempt waits 2 s, doubling. A wait set before the clock went back lasts what it asked, not
 * an hour more; a day forward ends a wait as a day passing would; either way guessing is still slowed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockShift, DAY, HOUR } from '../../support/clock-shift';
import { freePort, startServiceProcess, type ServiceProcess } from '../../support/service-process';
import { addAdmin, ADMIN, ProxyClient, serviceCli } from '../service/server/harness';

const shift = clockShift();
const PERSON = { email: 'person@example.test', password: 'another long password' };
let data = '';
let service: ServiceProcess;

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'agentdesk-clock-throttle-'));
  await writeFile(
    join(data, 'config.json'),
    JSON.stringify({ signInThrottle: { freeFailures: 2, firstDelaySeconds: 2 } }),
  );
  await addAdmin(data);
  const added = await serviceCli([
    'user',
    'add',
    '--email',
    PERSON.email,
    '--password',
    PERSON.password,
    '--data',
    data,
  ]);
  if (added.code !== 0) throw new Error(added.stderr);
  service = await startServiceProcess({ port: await freePort(), dataDir: data, env: shift.env });
}, 120_000);

afterAll(async () => {
  await service?.kill('SIGKILL');
  await rm(data, { recursive: true, force: true });
  shift.remove();
});

/** One attempt through the sign-in form, from a browser with no session yet. */
const signIn = (email: string, password: string) => new ProxyClient(service.url).signIn(email, password);

async function failThrice(email: string): Promise<void> {
  for (let n = 0; n < 3; n++) expect((await signIn(email, 'wrong password')).status).toBe(401);
}

describe('the sign-in throttle when the clock jumps', () => {
  it('keeps a wait set before the clock went back an hour to what it asked', async () => {
    await failThrice(ADMIN.email);
    expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(429);

    await shift.set(-HOUR);
    const held = await signIn(ADMIN.email, ADMIN.password);
    expect(held.status).toBe(429);
    // Not the hour the clock went back plus the wait: at most the 2 s the third failure asked for.
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, Number(held.headers['retry-after']) * 1000 + 100));
    expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(303);

    // Guessing is still slowed on the clock as it reads now.
    await failThrice(ADMIN.email);
    const again = await signIn(ADMIN.email, ADMIN.password);
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(2);
  });

  it('ends a wait when the clock goes a day forward, and slows guessing after it', async () => {
    await failThrice(PERSON.email);
    expect((await signIn(PERSON.email, PERSON.password)).status).toBe(429);

    // From an hour back to a day ahead: as a machine waking from a day's sleep, the wait is over.
    await shift.set(DAY);
    const after = await signIn(PERSON.email, PERSON.password);
    expect(after.status, after.body.slice(0, 600)).toBe(303);

    await failThrice(PERSON.email);
    const held = await signIn(PERSON.email, PERSON.password);
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(2);
  });
});
