import { defineConfig } from 'vitest/config';

/**
 * Unit files that replace a module for their own file only (`vi.mock('electron')`, each with its own
 * fake): they keep a module graph of their own, like the integration files.
 */
const ownModules = [
  'test/unit/main/ipc-bridge.test.ts',
  'test/unit/main/main-process.test.ts',
  'test/unit/main/window.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Limits for a test that hangs, not waits: a passing test is never slowed by them, and a busy
    // machine (npm test -- --stress) can make a real service, CLI or agent start take many seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: keep worker count modest so service-backed tests stay stable.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ownModules,
          // Pure logic with no state of its own between files: each worker loads the sources once
          // for all of them instead of once per file (loading was two thirds of this part's time).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Real services, processes and harnesses that register hooks when loaded: a fresh module
          // graph per file.
          include: ['test/integration/**/*.test.ts', ...ownModules],
        },
      },
    ],
  },
});
