// The tests a mutation run (`npm run mutation`, stryker.config.mjs) measures the domain rules with: the unit tests of
// test/domain and the contract suite, and with MUTATION_CLI=1 the CLI tests that run the program in process, all of
// which run the rules from src/. Tests that start the built dist/ as a process never meet a mutant; store, server and migration tests exercise
// engines and transport, not rules.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import base from './vitest.config.js';
import LoadFailureReporter from './test/support/load-failure-reporter.js';
import { ReusingThreadsWorker } from './test/support/reusing-threads.js';

/**
 * Orders the test files of a mutant's run so that the ones likely to catch it come first. A run stops at the first
 * failing test (Stryker sets bail), and a mutant of module-level code (a schema's bounds, a pattern, a table) runs
 * every related file, which for a domain module is nearly all of them, as the contract suite imports every service.
 * First the files that import the mutated module themselves, then those named after its area or file (the DSFA
 * contract for dsfa.schema.ts), then the rest; pure rule tests before the contract suite, small files first. Only the
 * order changes, never which tests run.
 */
class LikelyKillersFirst extends BaseSequencer {
  private readonly sources = new Map<string, string>();

  private source(file: string): string {
    let s = this.sources.get(file);
    if (s === undefined) this.sources.set(file, (s = readFileSync(file, 'utf8')));
    return s;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Stryker's runner sets `related` to the mutated file (a sandbox copy of src/domain/<area>/<name>.ts)
    const mutated = this.ctx.config.related?.length === 1 ? this.ctx.config.related[0]!.replace(/\\/g, '/') : '';
    const m = /\/src\/domain\/(?:([^/]+)\/)?([^/.]+)[^/]*\.ts$/.exec(mutated);
    const area = m?.[1]?.replace(/s$/, '');
    const name = m?.[2];
    const module = mutated.replace(/^.*\/src\//, 'src/').replace(/\.ts$/, '.js');
    const rank = (f: TestSpecification) => {
      const test = basename(f.moduleId);
      const unit = f.moduleId.includes('/test/domain/');
      if (m && this.source(f.moduleId).includes(module)) return unit ? 0 : 1;
      if ((area && test.startsWith(area)) || (name && test.startsWith(name))) return unit ? 2 : 3;
      return unit ? 4 : 5;
    };
    const size = (f: TestSpecification) => this.source(f.moduleId).length;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(a) - size(b));
  }
}

const CLI_TESTS = [
  'consents-import',
  'consents-dialect',
  'dsfa-cli',
  'training-cli',
  'training-gate',
  'legal-cookie-cli',
  'junit-report',
];

// not mergeConfig: it would append to the base list of test files instead of replacing it
export default defineConfig({
  ...base,
  // MUTATION_REUSE=1: keep worker threads between mutants of function bodies (README: wall time; not the default)
  plugins: [
    process.env.MUTATION_REUSE === '1' && {
      // Stryker's runner asks for `pool: 'threads'` on top of any configuration; the pool is replaced once vitest has
      // resolved it (test/support/reusing-threads.ts: why, and which runs get a thread of their own)
      name: 'mutation-pool',
      configureVitest({ project }) {
        project.config.pool = 'reusing-threads';
        project.config.poolRunner = {
          name: 'reusing-threads',
          createPoolWorker: (options) => new ReusingThreadsWorker(options),
        };
      },
    },
  ],
  test: {
    ...base.test,
    projects: undefined, // one selection of its own, below
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: [
      'test/domain/**/*.test.ts',
      'test/contract/**/*.test.ts',
      // MUTATION_CLI=1 adds the CLI tests that run the program in process (test/support/helpers.ts `cli`), on SQLite.
      // They add about 35 s to the initial run and slow every mutant they cover, and every rule file scores 90 % or
      // more without them, so the default run (README: figures and wall time) leaves them out.
      ...(process.env.MUTATION_CLI === '1' ? CLI_TESTS : []).map((name) => `test/cli/${name}.test.ts`),
    ],
    exclude: ['test/domain/migrations*.test.ts'],
    globalSetup: ['test/mutation-setup.ts'],
    setupFiles: ['test/support/setup-file.ts', 'test/support/mutation-files.ts'],
    // Stryker starts a fresh worker for every mutant's run, so each mutant still meets freshly evaluated modules (a
    // mutant of module-level code included); within that run its test files share one module graph instead of each
    // importing the rules, the store and the server again: a run of the whole selection takes 30 s instead of 70 s
    isolate: false,
    sequence: { sequencer: LikelyKillersFirst },
    reporters: ['default', new LoadFailureReporter()],
  },
});
