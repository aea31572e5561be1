import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './test/e2e/chromium';
import { testWorkers } from './test/support/test-workers';

// Playwright empties its output folder when a run starts, so two runs at once (two people, or
// a run while another is still writing traces) would delete each other's artifacts: each run
// gets a folder of its own. Workers inherit the variable, so they agree with the main process.
process.env['AGENTDESK_E2E_RUN'] ??= `${Date.now()}-${process.pid}`;

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/e2e/run-${process.env['AGENTDESK_E2E_RUN']}`,
  // Limits for a hang, not waits: a passing test is never slowed by them, and with every core busy
  // (npm test -- --stress) the longest specs take twice what they take on a quiet machine.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Each spec file starts its own browser mode and service (own data folder, ephemeral ports), so files
  // run side by side: one worker per core, at most 4. A third on two cores made the stage slower (368 s
  // against 346 s, load 12): Chromium keeps the cores busy, unlike the unit stage's waits on processes.
  fullyParallel: false,
  workers: testWorkers({ beyondCores: 0 }),
  retries: 0,
  reporter: [['list'], ['./test/e2e/summary-reporter.ts']],
  // Names the run's throwaway PostgreSQL cluster; the first spec that asks for a database starts it.
  globalSetup: './test/support/postgres-run.ts',
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    // A failure leaves its screenshot and error-context.md (the page's accessibility tree, the call log).
    // A trace recorded for every test, to keep the failures' ones, costs a fifth of a run's CPU
    // (a screencast and DOM snapshots at every step): it is on where flakes are hunted, under
    // npm test -- --stress, or by hand: npx playwright test --trace=retain-on-failure <file>.
    trace: 'off',
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
});
