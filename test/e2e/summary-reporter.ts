import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { relative } from 'node:path';
import { firstLine, recordFileTimes } from '../../scripts/test-timings';

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
    const failures = this.errorsOutsideTests.map(
      (message) => `an error outside any test: ${firstLine(message)}`,
    );
    for (const test of this.all) {
      const result = this.last.get(test);
      if (result?.status === 'passed') passed += 1;
      else if (result?.status === 'skipped' && test.expectedStatus === 'skipped') skipped += 1;
      else {
        failed += 1;
        const where = `${relative(process.cwd(), test.location.file)}:${test.location.line} > ${test.title}`;
        failures.push(
          `${where}: ${result ? firstLine(result.error?.message ?? result.status) : 'did not run'}`,
        );
      }
    }
    console.log(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    // CI shows only the end of the output: each failure named on one line, which `npm test` repeats last.
    for (const line of failures) console.log(`e2e failed: ${line}`);
    recordFileTimes('e2e', this.fileTimes);
  }
}
