import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order vitest starts the unit stage's files in, so its workers finish together instead of one long file
 * running alone at the end. Vitest's own order (kept within each project) puts the files that took longest
 * last time first, or the largest on a fresh clone, but takes projects alphabetically: the shared-modules
 * project, which holds the longest files, came last, and its 100 s file started minutes into a busy run.
 * Projects stay in blocks: a worker is reused for the next file only when that file is of the same project.
 */
export default class FileOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = PROJECTS_FIRST.indexOf(file.project.name);
      return at === -1 ? PROJECTS_FIRST.length : at;
    };
    const hint = (file: TestSpecification) => {
      const at = SLOW_FILES.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? SLOW_FILES.length : at;
    };
    // Array.prototype.sort is stable: vitest's order stays among files of one rank.
    return sorted.sort((a, b) => rank(a) - rank(b) || hint(a) - hint(b));
  }
}

/** The project with the longest files first; the PostgreSQL pass's files are all short. */
const PROJECTS_FIRST = ['shared-modules'];

/**
 * The longest files (`npm test`'s slowest-files list), first even on a fresh clone where vitest knows no
 * timings and would order by size: each took 30 s or more quiet, or 100 s or more in a whole run under a CPU hog.
 */
const SLOW_FILES = [
  'test/integration/sync/outsider-headless.test.ts',
  'test/integration/sync/outsider-once.test.ts',
  'test/integration/sync/sync-model.test.ts',
  'test/integration/sync/sync-poll-idle.test.ts',
  'test/integration/service/cluster/two-processes.test.ts',
];
