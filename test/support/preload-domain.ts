// A setup file of the mutation run (vitest.mutation.config.ts): evaluates every module of src/domain before the first
// test file is collected. Test files share one module graph there, so a module is evaluated once per run; were that
// first evaluation a lazy import inside a test (`compliance redact` loads the CLI, which loads schemas), Stryker would
// take the module's top-level code for code of that one test and measure its mutants against that test alone.
import { readdirSync } from 'node:fs';

const domain = new URL('../../src/domain/', import.meta.url);
for (const file of readdirSync(domain, { recursive: true, encoding: 'utf8' }).sort())
  if (file.endsWith('.ts')) await import(new URL(file, domain).href);
