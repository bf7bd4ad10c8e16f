import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installHint, PROGRAMS, type Program } from './support/programs.js';
import { startTestPostgres } from './support/postgres-server.js';
import { makeStoreTemplates } from './support/store-templates.js';

/**
 * Builds dist/ once (the process-level tests run bin/compliance.js), starts the PostgreSQL server the tests share
 * (stopped at the end), and at the end of the run names every test that was skipped because a program outside Node
 * is missing, with the packages that provide them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'compliance-skips-'));
  const log = join(dir, 'skipped.ndjson');
  project.provide('skippedLog', log);
  const postgres = await startTestPostgres();
  project.provide('postgresUrl', postgres.url);
  const templates = await makeStoreTemplates(postgres.url, dir);
  project.provide('storeTemplates', { sqlite: templates.sqlite, postgres: templates.postgres });
  process.stdout.write(
    `PostgreSQL ${postgres.version} for the tests at ${postgres.url.replace(/:[^:@/]*@/, ':***@')}\n`,
  );
  return async () => {
    await templates.drop();
    await postgres.stop();
    let lines: string[] = [];
    try {
      lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    } catch {
      /* nothing was skipped */
    }
    rmSync(dir, { recursive: true, force: true });
    if (!lines.length) return;
    const skipped = lines.map((l) => JSON.parse(l) as { test: string; file?: string; missing: Program[] });
    const missing = [...new Set(skipped.flatMap((s) => s.missing))].sort();
    const out = [
      '',
      `NOTICE: ${skipped.length} test(s) skipped because these programs are not installed: ${missing.join(', ')}`,
      ...missing.map((p) => `  ${p} (${PROGRAMS[p].for}): ${installHint([p])}`),
      ...skipped.map((s) => `  skipped: ${s.file ?? ''} > ${s.test}`),
      `  install all: ${installHint(missing)}`,
      '  With CI=true or COMPLIANCE_TEST_STRICT=1 these tests fail instead of being skipped.',
      '',
    ];
    process.stdout.write(out.join('\n') + '\n');
  };
}
