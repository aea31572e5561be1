import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores here: keep worker count modest so service-backed tests stay stable.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
