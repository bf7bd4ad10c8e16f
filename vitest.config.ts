import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/support/sequencer.js';

/**
 * Test files that share one module graph per worker (isolate: false): every folder but test/setup. A file in a fresh
 * process of its own evaluates vitest, the rules, the store and the server again; for these files that was about 280
 * of a run's 1,400 CPU-seconds on two cores (docs/development.md: CI time). They keep no state between files that
 * another file reads: what they change (a store, a server, a child process, an environment variable) they make and
 * undo themselves. The set-up tests, which build dist/, copy PostgreSQL's binaries and check the order of the files,
 * keep a process per file.
 */
const SHARED = [
  'test/domain/**/*.test.ts',
  'test/store/**/*.test.ts',
  'test/services/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/contract/**/*.test.ts',
  'test/server/**/*.test.ts',
];

/** What both groups of files run with (a project does not take these from the configuration around it). */
const project = (test: { name: string; include: string[]; exclude?: string[]; isolate?: boolean }) => ({
  define: { __VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    ...test,
    // run again before every file, shared module graph or not: what a file leaves behind is undone when it ends
    setupFiles: ['test/support/setup-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks' as const,
  },
});

export default defineConfig({
  define: { __VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    // once for the whole run, both groups included: dist/, the PostgreSQL server and the store templates
    globalSetup: ['test/global-setup.ts'],
    projects: [
      project({ name: 'shared', include: SHARED, isolate: false }),
      project({ name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED }),
    ],
    pool: 'forks',
    // vitest's default is one worker less than the cores: on a 2-core machine (CI) one file at a time. The files wait
    // on PostgreSQL, servers and programs more than they compute, so two at a time there (Stryker sets its own).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // the slowest files first, from test/durations.json on a fresh clone (test/support/sequencer.ts)
    sequence: { sequencer: SlowestFirst },
    reporters: ['default'],
  },
});
