import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileTimes } from '../../../scripts/test-timings';

// The summary lines CI and people read must count what did not run as failed: a file that
// fails to load, a suite whose beforeAll throws, a test left unrun after an earlier failure.
// Each runner is started for real on fixture files that fail in those ways. Under `npm test`
// ($AGENTDESK_TEST_TIMINGS set) the same reporters record each file's time for the
// slowest-files list.

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
  const timings = mkdtempSync(join(tmpdir(), 'agentdesk-summary-times-'));
  afterAll(() => rmSync(timings, { recursive: true, force: true }));

  it('vitest: a file that fails to load and tests under a throwing beforeAll count as failed', () => {
    const line = summaryOf(
      'npx',
      ['vitest', 'run', '--config', resolve(fixtures, 'vitest/vitest.config.ts')],
      'unit:',
      { AGENTDESK_TEST_TIMINGS: timings },
    );
    expect(line).toBe('unit: 1 passed, 3 failed, 0 skipped');
    const files = readFileTimes(timings).filter((t) => t.stage === 'unit');
    expect(files.map((t) => t.file).sort()).toEqual([
      'test/fixtures/summary-lines/vitest/fails-to-load.case.ts',
      'test/fixtures/summary-lines/vitest/hook-throws.case.ts',
      'test/fixtures/summary-lines/vitest/passes.case.ts',
    ]);
    for (const t of files) expect(t.seconds).toBeGreaterThanOrEqual(0);
  }, 60_000);

  const playwright = ['playwright', 'test', '--config', resolve(fixtures, 'playwright/playwright.config.ts')];

  it('playwright: a test left unrun after an earlier failure counts as failed', () => {
    const line = summaryOf('npx', playwright, 'e2e:', {
      SUMMARY_CASE: 'serial.case.ts',
      AGENTDESK_TEST_TIMINGS: timings,
    });
    expect(line).toBe('e2e: 1 passed, 2 failed, 0 skipped');
    const files = readFileTimes(timings).filter((t) => t.stage === 'e2e');
    expect(files.map((t) => t.file)).toEqual(['test/fixtures/summary-lines/playwright/serial.case.ts']);
    expect(files[0]!.seconds).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('playwright: a spec that fails to load counts as failed', () => {
    const line = summaryOf('npx', playwright, 'e2e:', { SUMMARY_CASE: 'fails-to-load.case.ts' });
    expect(line).toBe('e2e: 0 passed, 1 failed, 0 skipped');
  }, 60_000);
});
