// The setup file of the mutation run (vitest.mutation.config.ts), run before each test file. Test files share one
// module graph there (a fresh one for each mutant), which changes two things the tests otherwise get from isolation.
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, inject } from 'vitest';

// In the initial run, which records what each test covers, every module of src/domain is evaluated before the first
// test file is collected. A module is evaluated once per run: were that a lazy import inside a test (a CLI test loads
// a command's module when it runs the command), Stryker would take the module's top-level code for code of that one
// test and measure its mutants against that test alone. A mutant's run needs no such care (a mutant of top-level code is
// active before anything is imported), and skipping the imports there saves about 0.2 s a mutant.
const domain = new URL('../../src/domain/', import.meta.url);
if (inject('mode') !== 'mutant')
  for (const file of readdirSync(domain, { recursive: true, encoding: 'utf8' }).sort())
    if (file.endsWith('.ts')) await import(new URL(file, domain).href);

// A mutant of a function body is switched on in `beforeAll`, after the test file is imported. On a worker thread kept
// from an earlier mutant's run (test/support/reusing-threads.ts) the earlier mutant is still on while the file's own
// top-level code runs, which a fresh thread would run with none: switch it off here, before the test file is imported.
if (inject('mode') === 'mutant' && inject('mutantActivation') === 'runtime') {
  const stryker = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__;
  if (stryker) stryker.activeMutant = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by Stryker's vitest runner: the initial run records coverage, a mutant's run tests one mutant. */
    mode: 'dry-run' | 'mutant';
    /** Set by Stryker's vitest runner for a mutant's run: `static` for module-level code, activated before imports. */
    mutantActivation: 'static' | 'runtime';
  }
}

// the temp folders of test/support/helpers.ts go when their file ends (test/support/file-end.ts); the folder the
// mutation run's global setup gave this worker is emptied after every file too, of whatever else a test left there
afterAll(() => {
  const dir = tmpdir();
  if (basename(dir) !== 'tmp' || !basename(join(dir, '..')).startsWith('compliance-mutation-')) return;
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
});
