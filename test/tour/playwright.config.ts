import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../e2e/chromium';

// `npm run tour`: the screenshot tour of a new person's walk, apart from the e2e suite (it asserts only
// that each screen is reached; the pictures are for people to look at).
export default defineConfig({
  testDir: '.',
  testMatch: 'tour.spec.ts',
  outputDir: '../../test-results/tour-run',
  timeout: 300_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
});
