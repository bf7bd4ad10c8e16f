import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './support/postgres-server.js';

/** Whether the backends the environment selects (test/support/helpers.ts) include PostgreSQL. */
function needsPostgres(env: NodeJS.ProcessEnv): boolean {
  const listed = (v: string | undefined) => v?.split(',').filter(Boolean);
  const backends = listed(env.BACKENDS);
  const engines = listed(env.ENGINES);
  if (backends && !backends.some((b) => b.startsWith('postgres'))) return false;
  return !engines || engines.includes('postgres');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The global setup of a mutation run (vitest.mutation.config.ts): test/global-setup.ts without PostgreSQL unless the
 * selected backends need it. dist/ is built for the few CLI tests that also start the program as a process (a mutant
 * never reaches those; they must only pass). Every
 * Stryker worker runs it, and again after a timeout restarted it. The stores the tests create go to a folder of the
 * worker's own (TMPDIR), emptied after each test file (test/support/mutation-files.ts) and removed at the end; those
 * of a worker Stryker had to kill are removed by the next one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  for (const name of readdirSync(tmpdir())) {
    const pid = /^compliance-mutation-(\d+)-/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), `compliance-mutation-${process.pid}-`));
  const stores = join(dir, 'tmp');
  mkdirSync(stores);
  process.env.TMPDIR = stores;
  project.provide('skippedLog', join(dir, 'skipped.ndjson'));
  const postgres = needsPostgres(process.env) ? await startTestPostgres() : undefined;
  if (postgres) project.provide('postgresUrl', postgres.url);
  return async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
