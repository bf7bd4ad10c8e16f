import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker less than the cores: on a 2-core machine (CI) one file at a time. The files wait
    // on PostgreSQL, servers and programs more than they compute, so two at a time there (Stryker sets its own).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
