import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { recordFileTimes } from '../scripts/test-timings';

/**
 * Prints the plain closing line CI reads: `unit: N passed, N failed, N skipped`.
 * Honest about what did not run: a test file that fails to load counts as one failure, and a
 * test left unrun because its suite's hook threw (vitest marks it skipped) counts as failed.
 * Only a test that was skipped on purpose counts as skipped.
 * Under `npm test` it also records how long each file took, for the slowest-files list.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const times = new Map<string, number>();
    for (const module of testModules) {
      times.set(module.moduleId, fileSeconds(module));
      const tests = [...module.children.allTests()];
      if (tests.length === 0 && module.state() !== 'passed') failed += 1;
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else if (underFailedSuite(test)) failed += 1;
        else skipped += 1;
      }
    }
    console.log(`unit: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    recordFileTimes('unit', times);
  }
}

/** A file's own time: loading it and its imports, setting it up, and its tests and hooks. */
function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  const ms =
    d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
  return ms / 1000;
}

/** A test whose file or an enclosing suite failed (a throwing beforeAll, say) never ran. */
function underFailedSuite(test: TestCase): boolean {
  let parent: TestSuite | TestModule = test.parent;
  for (;;) {
    if (parent.state() === 'failed' || parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
    parent = parent.parent;
  }
}
