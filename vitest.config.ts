import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // Limits for a test that hangs, not waits: a passing test is never slowed by them, and a busy
    // machine (npm test -- --stress) can make a real service, CLI or agent start take many seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: keep worker count modest so service-backed tests stay stable.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
