import { availableParallelism } from 'node:os';
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
  // Limits for a hang, not waits: a passing test is never slowed by them, and with every core busy
  // (npm test -- --stress) the longest specs take twice what they take on a quiet machine.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Each spec file starts its own browser mode and service (own data folder, ephemeral ports), so files
  // could run side by side; but on a 2-core machine two browsers and two services at once starved
  // replies and sync cycles past their limits (hostile-content and sync-notes failed so in a fresh run
  // that passed them alone). One worker per two cores, at most 4.
  fullyParallel: false,
  workers: Math.max(1, Math.min(Math.floor(availableParallelism() / 2), 4)),
  retries: 0,
  reporter: [['list'], ['./test/e2e/summary-reporter.ts']],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
});
