import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { relative } from 'node:path';
import { firstLine, recordFileTimes } from '../scripts/test-timings';

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
    const failures: string[] = unhandledErrors.map((e) => `an error outside any test: ${firstLine(e)}`);
    for (const module of testModules) {
      times.set(module.moduleId, fileSeconds(module));
      const tests = [...module.children.allTests()];
      // The PostgreSQL pass runs many of the same files again: say which pass failed.
      const pass = module.project.name === 'service-postgres' ? ' [postgres]' : '';
      const file = `${relative(process.cwd(), module.moduleId)}${pass}`;
      if (tests.length === 0 && module.state() !== 'passed') {
        failed += 1;
        failures.push(`${file}: did not load: ${firstLine(module.errors()[0]?.message)}`);
      }
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state !== 'failed' && !underFailedSuite(test)) skipped += 1;
        else {
          failed += 1;
          const why = test.result().errors?.[0]?.message ?? 'did not run: its suite failed';
          failures.push(`${file} > ${test.fullName}: ${firstLine(why)}`);
        }
      }
    }
    console.log(`unit: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    // CI shows only the end of the output: each failure named on one line, which `npm test` repeats last.
    for (const line of failures) console.log(`unit failed: ${line}`);
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
