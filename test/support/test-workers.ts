import { availableParallelism } from 'node:os';

/**
 * How many test files run at once, in vitest and in Playwright alike: one more than the cores, at most 4.
 * A file mostly waits on real processes (the service, the CLI, a browser, a sync settling), so a worker per
 * core left a third of the CPU idle (measured with `/usr/bin/time` over each stage: 1.1 to 1.35 of 2 cores).
 * `AGENTDESK_TEST_WORKERS` overrides it (1 runs files one at a time, to read a failure's order of events).
 */
export function testWorkers(): number {
  const asked = Number(process.env['AGENTDESK_TEST_WORKERS']);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return Math.max(1, Math.min(availableParallelism() + 1, 4));
}
