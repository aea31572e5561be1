import { defineConfig } from 'vitest/config';
import FileOrder from './test/support/file-order';
import { testWorkers } from './test/support/test-workers';

/**
 * Files that replace a module for their own file only (`vi.mock('electron')`, each with its own fake):
 * each keeps a module graph of its own.
 */
const ownModules = [
  'test/unit/main/ipc-bridge.test.ts',
  'test/unit/main/main-process.test.ts',
  'test/unit/main/window.test.ts',
];

/** Service integration files the PostgreSQL pass leaves out (README, "PostgreSQL instead of the file"). */
const storeBlindFiles = [
  'test/integration/service/engine/**',
  'test/integration/service/http/**',
  'test/integration/service/server/public-url.test.ts',
  'test/integration/service/server/trusted-proxy.test.ts',
  'test/integration/service/security/route-fuzz.test.ts',
  'test/integration/service/security/openapi-*.test.ts',
  'test/integration/service/security/hostile-input-{wire,paths}.test.ts',
  'test/integration/service/security/{workspace-links,host-guard,private-modes}.test.ts',
  'test/integration/service/spec-conformance/{raw-bodies,hostile-requests,workspace-paths,cache-headers}.test.ts',
  'test/integration/service/agent-config/{files,skills-mcp,parts,library-stt,config}.test.ts',
  'test/integration/service/agent-config/lent-tools-{sdk-client,methods}.test.ts',
  'test/integration/service/identity/{cli,bearer-matrix}.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Limits for a test that hangs, not waits: a passing test is never slowed by them, and a busy
    // machine (npm test -- --stress) can make a real service, CLI or agent start take many seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most files wait on real processes (a service, the CLI, a sync settling): with a worker per core the
    // stage used 1.35 of 2 cores, so there is one worker more than cores, at most 4 (268 s -> 222 s).
    maxWorkers: testWorkers(),
    // The longest files start first, so the workers finish together (test/support/file-order.ts).
    sequence: { sequencer: FileOrder },
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
          // The service's integration files that use the store, again, every service on PostgreSQL instead
          // of the embedded file (test/support/test-store.ts; README "Run it on a server").
          name: 'service-postgres',
          include: ['test/integration/service/**/*.test.ts'],
          exclude: [
            // Files that choose their engines themselves.
            'test/integration/service/cluster/**',
            'test/integration/service/cluster-*.test.ts',
            'test/integration/service/postgres-*.test.ts',
            'test/integration/service/store/**',
            // Files about what no store changes (the HTTP edge, the engine host, schema and fuzz sweeps,
            // the workspace on disk): a second pass of them would add minutes to `npm test` and test
            // nothing new. Everything else, every file that reads or writes the store, runs on both.
            ...storeBlindFiles,
          ],
          env: { AGENTDESK_TEST_STORE: 'postgres' },
          isolate: false,
        },
      },
    ],
  },
});
