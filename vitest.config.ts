import { defineConfig } from 'vitest/config';

/**
 * Files that replace a module for their own file only (`vi.mock('electron')`, each with its own fake):
 * each keeps a module graph of its own.
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
    // Names the run's throwaway PostgreSQL cluster; the first file that asks for a database starts it.
    globalSetup: ['./test/support/postgres-run.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-modules',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ownModules,
          // Each worker loads the sources once for all its files instead of once per file: loading
          // the service again for every file was most of the stage's time (29 security and identity
          // files: 332 s isolated, 98 s shared). Files share modules, so a helper module must not hold
          // per-file state or register hooks when loaded: it hangs cleanups on the test that made
          // the thing (onTestFinished) or registers hooks from a function each file calls.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'own-modules',
          include: ownModules,
        },
      },
      {
        extends: true,
        test: {
          // The service's integration files again, every service on PostgreSQL instead of the embedded
          // file (test/support/test-store.ts; README "Run it on a server"). Files that choose their
          // engines themselves (cluster, harness, store) run once, in shared-modules.
          name: 'service-postgres',
          include: ['test/integration/service/**/*.test.ts'],
          exclude: [
            'test/integration/service/cluster/**',
            'test/integration/service/cluster-*.test.ts',
            'test/integration/service/postgres-*.test.ts',
            // Runs each case on both engines itself.
            'test/integration/service/store/**',
          ],
          env: { AGENTDESK_TEST_STORE: 'postgres' },
          isolate: false,
        },
      },
    ],
  },
});
