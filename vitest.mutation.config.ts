// The tests a mutation run (`npm run mutation`, stryker.config.mjs) measures the domain rules with: the unit tests of
// test/domain and the contract suite, which run the rules in process. CLI and process tests run the built dist/, which
// a mutant in src/ never reaches; store and server tests exercise engines and transport, not rules.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// not mergeConfig: it would append to the base list of test files instead of replacing it
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/domain/**/*.test.ts', 'test/contract/**/*.test.ts'] },
});
