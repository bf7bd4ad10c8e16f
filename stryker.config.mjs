// StrykerJS (`npm run mutation`): mutation testing of the domain rules, not part of `npm test`. Each mutant runs only
// the tests that covered it (per-test coverage) among the vitest files related to the mutated file (docs/development.md: figures
// and wall time); `npx stryker run --mutate <file>` measures one file. 9.x because StrykerJS 10 needs Node 22. The rules are engine- and transport-neutral: the contract suite on the embedded SQLite
// store reaches every one of them in process; PostgreSQL and the HTTP face would only multiply the run time.
process.env.BACKENDS ??= 'sqlite';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/domain/**/*.ts',
    // interfaces, types, constant lists, the error type and the injected clock hold no rule a test could catch breaking
    '!src/domain/**/*.store.ts',
    '!src/domain/**/*.port.ts',
    '!src/domain/**/*.values.ts',
    '!src/domain/clock.ts',
    '!src/domain/errors.ts',
    '!src/domain/report.ts',
  ],
  ignorePatterns: ['dist', 'bench-results', 'reports', 'coverage', '.ci'],
  // Mutants in module-level code (the WP248 criteria, the redaction patterns, the bounds and messages of the zod
  // schemas) are "static": evaluated once, when a test file imports the module. Stryker runs each with every related
  // test file and activates it before those files import anything (vitest evaluates every module afresh per test
  // file), so they are measured like any other mutant; LikelyKillersFirst in vitest.mutation.config.ts keeps that cheap.
  // `ignoreStatic: true` would not just skip them: a static mutant that one test also reached at run time (through a
  // lazy import, as a test that runs the CLI in process loads its commands) is run against that test alone,
  // activated after the import, and survives whatever the other tests check.
  ignoreStatic: false,
  concurrency: 2,
  // a mutant of module-level code runs every related test file, about a minute on a busy machine: that must not read
  // as a timeout (which counts as caught); endless loops stop at Stryker's hit limit long before
  timeoutMS: 60_000,
  timeoutFactor: 2,
  // A run keeps its results in reports/stryker-incremental.json and the next one reuses every result whose mutant and
  // tests have not changed: a killed mutant whose killing test is the same, a surviving one that no new test covers. A
  // run of some files (`--mutate`) keeps the other files' results, so the report always covers every file. Stryker
  // sees changes to the mutated files and the test files only: after a change elsewhere (a store, the server, a test
  // helper) `--force` runs everything again.
  incremental: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
