import { availableParallelism } from 'node:os';

/**
 * How many test files run at once: the cores plus `beyondCores`, at most 4. A vitest file mostly waits on
 * real processes (the service, the CLI, a sync settling): with a worker per core the unit stage used 1.35
 * of 2 cores (`/usr/bin/time`), and one more worker took it from 268 s to 222 s. A Playwright file keeps
 * Chromium busy, and a worker more made the e2e stage slower, so it stays at one per core.
 * `AGENTDESK_TEST_WORKERS` overrides both (1 runs files one at a time, to read a failure's order of events).
 */
export function testWorkers({ beyondCores = 1 }: { beyondCores?: number } = {}): number {
  const asked = Number(process.env['AGENTDESK_TEST_WORKERS']);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return Math.max(1, Math.min(availableParallelism() + beyondCores, 4));
}
