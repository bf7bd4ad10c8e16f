import { mkdtempSync, rmSync } from 'node:fs';
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

/**
 * The global setup of a mutation run (vitest.mutation.config.ts): test/global-setup.ts without building dist/ (no
 * test of the run starts the CLI as a process) and without PostgreSQL unless the selected backends need it. Every
 * Stryker worker runs it, and again after each timeout restarted it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-skips-'));
  project.provide('skippedLog', join(dir, 'skipped.ndjson'));
  const postgres = needsPostgres(process.env) ? await startTestPostgres() : undefined;
  if (postgres) project.provide('postgresUrl', postgres.url);
  return async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
