import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { recordFileTimes } from '../../scripts/test-timings';

/**
 * Prints the plain closing line CI reads: `e2e: N passed, N failed, N skipped`.
 * Honest about what did not run: a test Playwright skipped because an earlier one failed, or
 * one that never started (a failing global setup, an interrupted run), counts as failed. Only
 * a test skipped on purpose counts as skipped. A retried test counts once, by its last result.
 * An error outside any test (a spec file that fails to load) counts as one failure.
 * Under `npm test` it also records each spec file's time (every run of its tests, hooks
 * included, retries and repeats too), for the slowest-files list.
 */
export default class SummaryReporter implements Reporter {
  private readonly last = new Map<TestCase, TestResult>();
  private all: TestCase[] = [];
  private readonly errorsOutsideTests: string[] = [];
  private readonly fileTimes = new Map<string, number>();

  onBegin(_config: FullConfig, suite: Suite): void {
    this.all = suite.allTests();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.last.set(test, result);
    const file = test.location.file;
    this.fileTimes.set(file, (this.fileTimes.get(file) ?? 0) + result.duration / 1000);
  }

  onError(error: TestError): void {
    this.errorsOutsideTests.push(error.message ?? '');
  }

  /** Playwright adds "No tests found" after a load error; that is the same failure, said twice. */
  private failuresOutsideTests(): number {
    const real = this.errorsOutsideTests.filter((message) => !/^(Error: )?No tests found/.test(message));
    return real.length > 0 ? real.length : Math.min(this.errorsOutsideTests.length, 1);
  }

  onEnd(_result: FullResult): void {
    let passed = 0;
    let failed = this.failuresOutsideTests();
    let skipped = 0;
    for (const test of this.all) {
      const result = this.last.get(test);
      if (!result) failed += 1;
      else if (result.status === 'passed') passed += 1;
      else if (result.status === 'skipped' && test.expectedStatus === 'skipped') skipped += 1;
      else failed += 1;
    }
    console.log(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    recordFileTimes('e2e', this.fileTimes);
  }
}
