// A reporter of the mutation run only (vitest.mutation.config.ts). StrykerJS's vitest runner (9.6.1, and 10.0.0 the
// same: stryker-js issue 6150) builds a mutant's result from the tests vitest collected. A mutant of module-level code
// that makes a module throw while it loads (a schema helper that returns nothing, an emptied table a schema is built
// from) fails every test file that imports the module before a single test is collected, and with no failed test
// Stryker scores the mutant "survived" although the suite plainly catches it. This reporter gives each test file that
// failed without a test one failed test carrying the file's error, which is what a reader of the run sees too.
import type { RunnerTask, RunnerTestCase, RunnerTestFile } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';

export const LOAD_FAILURE_TEST = 'the test file loads';

/** Adds the failed test to each file whose run failed before any test was collected; returns how many it added. */
export function markUnloadableFiles(files: RunnerTestFile[]): number {
  let added = 0;
  for (const file of files) {
    if (file.result?.state !== 'fail' || file.tasks.length > 0) continue;
    const test = {
      type: 'test',
      id: `${file.id}_load`,
      name: LOAD_FAILURE_TEST,
      fullName: `${file.name} > ${LOAD_FAILURE_TEST}`,
      mode: 'run',
      file,
      suite: file,
      meta: {},
      annotations: [],
      artifacts: [],
      timeout: 0,
      context: undefined,
      result: { state: 'fail', errors: file.result.errors ?? [{ message: 'the test file failed to load' }] },
    } as unknown as RunnerTestCase;
    (file.tasks as RunnerTask[]).push(test);
    added++;
  }
  return added;
}

export default class LoadFailureReporter implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    if (this.vitest) markUnloadableFiles(this.vitest.state.getFiles());
  }
}
