/**
 * Token refresh while the system clock jumps (issue 38, item 5): the real service (`npm run service`) and
 * the app's host (browser mode's createHost, its own process: host-clock-child.ts), both with the
 * clock-shift preload, which stands in for a system clock step on their machine (see
 * test/support/clock-shift-preload.mjs). The host asks for the agents several times at once after each
 * jump and counts the refresh requests it sends. An hour back: the token is not taken for expired and
 * nothing is refreshed. A day forward: the token (an hour's life) is over by the clock for both, and
 * is refreshed once for all the calls, not once each or in a loop; every call answers. The clock put
 * right again (a day back): the new token is used, not refreshed again. (That the token is also refreshed
 * when its life runs out on the monotonic clock, after the clock went back, is unit/core/auth.)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockShift, DAY, HOUR } from '../../support/clock-shift';
import { ensurePerson, startTestService } from '../../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../../support/service-process';

interface Answer {
  ok: number;
  failed: string[];
  refreshes: number;
}

const shift = clockShift();
let dir = '';
let service: ServiceProcess;
let host: ReturnType<typeof spawn>;
const answers: Answer[] = [];
let stderr = '';
let waiting: (() => void) | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-clock-tokens-'));
  const made = await startTestService({ dataDir: join(dir, 'service') });
  await ensurePerson(made).finally(() => made.close());
  service = await startServiceProcess({
    port: await freePort(),
    dataDir: join(dir, 'service'),
    env: shift.env,
  });
  host = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'host-clock-child.ts')], {
    env: { ...process.env, ...shift.env, HOST_DATA: join(dir, 'host'), SERVICE_URL: service.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  host.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let pending = '';
  host.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith('{"ok"')) answers.push(JSON.parse(line) as Answer);
    if (lines.some((line) => line.startsWith('{'))) waiting?.();
  });
  await nextLine();
}, 120_000);

afterAll(async () => {
  host?.kill('SIGKILL');
  await service?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
  shift.remove();
});

function nextLine(): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not answer; it said:\n${stderr}`)), 60_000);
    waiting = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/** `n` calls at once through the host; what they answered and the refreshes sent so far. */
async function calls(n: number): Promise<Answer> {
  const answered = nextLine();
  host.stdin!.write(`calls ${n}\n`);
  await answered;
  return answers.at(-1)!;
}

describe('token refresh when the clock jumps', () => {
  it('keeps the token when the clock goes back an hour', async () => {
    expect(await calls(3)).toEqual({ ok: 3, failed: [], refreshes: 0 });
    await shift.set(-HOUR);
    expect(await calls(5)).toEqual({ ok: 5, failed: [], refreshes: 0 });
  });

  it('refreshes once, not in a storm, when the clock goes a day forward, and keeps that token after', async () => {
    await shift.set(DAY);
    expect(await calls(5)).toEqual({ ok: 5, failed: [], refreshes: 1 });
    expect(await calls(5)).toEqual({ ok: 5, failed: [], refreshes: 1 });
    await shift.set(0);
    expect(await calls(3)).toEqual({ ok: 3, failed: [], refreshes: 1 });
  });
});
