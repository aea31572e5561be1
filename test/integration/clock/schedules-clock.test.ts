/**
 * Scheduled turns while the system clock jumps (issue 38, item 5): the real service (`npm run service`)
 * over HTTP, its clock moved back an hour and then forward a day by the clock-shift preload, which stands
 * in for a system clock step (see test/support/clock-shift-preload.mjs). Due times are wall-clock instants (the
 * API's `dueAt`); the service's timers wait on the monotonic clock, so only a service that notices the
 * jump fires what fell due. An hour back fires nothing again; a day forward fires each item that fell
 * due once (missed repeats are skipped, as after downtime) and moves a repeating one to its next future
 * occurrence.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockShift, DAY, HOUR } from '../../support/clock-shift';
import {
  ensurePerson,
  firstAgentId,
  refreshGrant,
  signIn,
  startTestService,
} from '../../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../../support/service-process';

const shift = clockShift();
let data = '';
let service: ServiceProcess;
let tokens = { access_token: '', refresh_token: '' };
let path = '';

interface Scheduled {
  id: string;
  prompt: string;
  dueAt: string;
  repeatMin: number | null;
}

async function call(method: string, url: string, body?: object): Promise<Response> {
  return fetch(`${service.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

async function schedule(body: object): Promise<Scheduled> {
  const answer = await call('POST', `${path}/schedule`, body);
  expect(answer.status, await answer.clone().text()).toBe(201);
  return ((await answer.json()) as { programado: Scheduled }).programado;
}

const pending = async () =>
  ((await (await call('GET', `${path}/schedule`)).json()) as { programados: Scheduled[] }).programados;

/** How many turns each prompt started in the conversation (its question as the person's message). */
async function sent(): Promise<Map<string, number>> {
  const answer = await call('GET', `${path}?limit=200`);
  const { messages } = (await answer.json()) as { messages: { role: string; content: string }[] };
  const counts = new Map<string, number>();
  for (const m of messages) if (m.role === 'user') counts.set(m.content, (counts.get(m.content) ?? 0) + 1);
  return counts;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'agentdesk-clock-schedules-'));
  const made = await startTestService({ dataDir: data });
  let agentId: string;
  try {
    await ensurePerson(made);
    tokens = await signIn(made);
    agentId = await firstAgentId(made, tokens.access_token);
  } finally {
    await made.close();
  }
  service = await startServiceProcess({ port: await freePort(), dataDir: data, env: shift.env });
  const created = await call('POST', `/api/v2/me/agents/${agentId}/conversations`);
  path = `/api/v2/me/agents/${agentId}/conversations/${((await created.json()) as { id: string }).id}`;
}, 120_000);

afterAll(async () => {
  await service?.kill('SIGKILL');
  await rm(data, { recursive: true, force: true });
  shift.remove();
});

describe('scheduled turns when the clock jumps', () => {
  it('fires nothing again when the clock goes back an hour', async () => {
    const hourly = await schedule({ prompt: 'hourly', inMinutes: 0.01, repeatMin: 60 });
    await until(async () => (await sent()).get('hourly') === 1, 'the hourly turn ran once');
    const next = (await pending()).find((item) => item.id === hourly.id)!;
    expect(Date.parse(next.dueAt)).toBe(Date.parse(hourly.dueAt) + HOUR);

    await shift.set(-HOUR);
    // A turn fired as soon as its item is due; the service looks at the clock every second.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await sent()).get('hourly')).toBe(1);
    expect((await pending()).find((item) => item.id === hourly.id)?.dueAt).toBe(next.dueAt);
  });

  it('fires what fell due once when the clock goes a day forward, and moves repeats on', async () => {
    // Made on the clock an hour back: a one-off due in 12 hours and one due in two days.
    await schedule({ prompt: 'in twelve hours', inMinutes: 12 * 60 });
    await schedule({ prompt: 'in two days', inMinutes: 2 * 24 * 60 });

    await shift.set(DAY);
    // The access token (an hour's life) ended with the jump: refreshed as a client would.
    const refreshed = await refreshGrant(service, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    tokens = (await refreshed.json()) as typeof tokens;
    await until(async () => {
      const counts = await sent();
      return counts.get('hourly') === 2 && counts.get('in twelve hours') === 1;
    }, 'the hourly turn and the twelve-hour one ran');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const counts = await sent();
    // Once each, not once per missed hour; what is not yet due waits.
    expect(counts.get('hourly')).toBe(2);
    expect(counts.get('in twelve hours')).toBe(1);
    expect(counts.get('in two days')).toBeUndefined();
    const left = await pending();
    expect(left.map((item) => item.prompt).sort()).toEqual(['hourly', 'in two days']);
    const nextHourly = Date.parse(left.find((item) => item.prompt === 'hourly')!.dueAt);
    expect(nextHourly).toBeGreaterThan(shift.now());
    expect(nextHourly).toBeLessThanOrEqual(shift.now() + HOUR);
  });
});
