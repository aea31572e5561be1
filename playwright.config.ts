import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './test/e2e/chromium';

// Playwright empties its output folder when a run starts, so two runs at once (two people, or
// a run while another is still writing traces) would delete each other's artifacts: each run
// gets a folder of its own. Workers inherit the variable, so they agree with the main process.
process.env['AGENTDESK_E2E_RUN'] ??= `${Date.now()}-${process.pid}`;

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/e2e/run-${process.env['AGENTDESK_E2E_RUN']}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['./test/e2e/summary-reporter.ts']],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
});
