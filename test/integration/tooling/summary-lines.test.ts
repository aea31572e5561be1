import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The summary lines CI and people read must count what did not run as failed: a file that
// fails to load, a suite whose beforeAll throws, a test left unrun after an earlier failure.
// Each runner is started for real on fixture files that fail in those ways.

const repo = resolve(import.meta.dirname, '../../..');
const fixtures = resolve(repo, 'test/fixtures/summary-lines');

function summaryOf(
  command: string,
  args: string[],
  prefix: string,
  env: Record<string, string> = {},
): string | undefined {
  const run = spawnSync(command, args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, CI: '', ...env },
  });
  return `${run.stdout}\n${run.stderr}`.split('\n').find((line) => line.startsWith(prefix));
}

describe('summary lines', () => {
  it('vitest: a file that fails to load and tests under a throwing beforeAll count as failed', () => {
    const line = summaryOf(
      'npx',
      ['vitest', 'run', '--config', resolve(fixtures, 'vitest/vitest.config.ts')],
      'unit:',
    );
    expect(line).toBe('unit: 1 passed, 3 failed, 0 skipped');
  }, 60_000);

  const playwright = ['playwright', 'test', '--config', resolve(fixtures, 'playwright/playwright.config.ts')];

  it('playwright: a test left unrun after an earlier failure counts as failed', () => {
    const line = summaryOf('npx', playwright, 'e2e:', { SUMMARY_CASE: 'serial.case.ts' });
    expect(line).toBe('e2e: 1 passed, 2 failed, 0 skipped');
  }, 60_000);

  it('playwright: a spec that fails to load counts as failed', () => {
    const line = summaryOf('npx', playwright, 'e2e:', { SUMMARY_CASE: 'fails-to-load.case.ts' });
    expect(line).toBe('e2e: 0 passed, 1 failed, 0 skipped');
  }, 60_000);
});
