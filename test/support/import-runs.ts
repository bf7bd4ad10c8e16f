import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { cli, tmp } from './helpers.js';

/**
 * The stopped local imports write 1,000 rows per transaction (COMPLIANCE_IMPORT_BATCH_ROWS in the CLI's environment):
 * a run of the same shape as one of 10,000-row transactions, at a fraction of the rows. The remote test's server keeps
 * its default (consents-import.test.ts says why).
 */
export const STOPPED_BATCH = 1_000;
export const STOPPED_ENV = { COMPLIANCE_IMPORT_BATCH_ROWS: String(STOPPED_BATCH) };

/**
 * Rows of the consent file that imports are stopped in: twelve whole transactions and half of one more. The tests stop
 * an import once its first transaction is committed; the eleven and a half still to write (about 30 ms each on an idle
 * machine, 0.1 s under load) leave the signal time to land, and a stop that landed after the end shows as a count
 * that is not a whole number of transactions.
 */
export const STOPPED_ROWS = 12.5 * STOPPED_BATCH;

/** A CSV file of `rows` new consents, each of its own user (one in three not granted); its path. */
export function consentsCsv(rows: number): string {
  const lines = ['user_id,data_point_id,granted,granted_at,consent_version,ip_address'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `user${i}@example.com,dp${i % 7},${i % 3 ? 'true' : 'false'},2026-02-01T00:00:00Z,1.0,10.0.${(i >> 8) & 255}.${i & 255}`,
    );
  const f = join(tmp(), 'consents.csv');
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** Counts rows of a store from outside the program writing it: a SQLite file or a PostgreSQL database (its URL). */
export interface RowCounter {
  count(sql: string): Promise<number>;
  close(): Promise<void>;
}

export async function rowCounter(target: string): Promise<RowCounter> {
  if (!target.startsWith('postgres')) {
    // one read-only connection: in WAL mode each statement sees the transactions committed before it
    const s = new Database(target, { readonly: true });
    return {
      count: async (sql) => Number((s.prepare(sql).get() as { n: number | bigint }).n),
      close: async () => void s.close(),
    };
  }
  const c = new pg.Client({ connectionString: target });
  await c.connect();
  return {
    count: async (sql) => Number((await c.query<{ n: string }>(sql)).rows[0]!.n),
    close: () => c.end(),
  };
}

/**
 * Runs the built CLI and sends it `signal` as soon as `started` answers true (polled every 10 ms), not after a fixed
 * delay, with 1,000-row transactions (STOPPED_ENV); answers its exit code, the signal that ended it and its stderr.
 */
export async function stopWhen(
  args: string[],
  started: () => Promise<boolean>,
  signal: 'SIGKILL' | 'SIGINT',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const p = spawn(process.execPath, ['bin/compliance.js', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...STOPPED_ENV },
  });
  let stderr = '';
  p.stderr.on('data', (c) => (stderr += c));
  const exit = new Promise<[number | null, NodeJS.Signals | null]>((r) => p.on('exit', (...a) => r(a)));
  let ended = false;
  void exit.then(() => (ended = true));
  for (let waited = 0; !(await started()); waited += 10) {
    if (ended || waited > 60_000) {
      p.kill('SIGKILL');
      throw new Error(`the import ended or did not start within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  p.kill(signal);
  const [code, by] = await exit;
  return { code, signal: by, stderr };
}

/**
 * What an import of the STOPPED_ROWS file killed while it writes leaves, on either engine: some whole batches and not
 * all of them, each consent with its `granted` entry, a run record counting what was committed, a chain that verifies;
 * then a second import of the same file completes it to exactly STOPPED_ROWS, with no duplicates.
 */
export async function expectStoppedMidLoadThenCompleted(db: string, file: string, rows: RowCounter): Promise<void> {
  const count = (table: string) => rows.count(`select count(*) as n from ${table}`);
  const partial = await count('consent');
  expect(partial).toBeGreaterThan(0);
  expect(partial).toBeLessThan(STOPPED_ROWS);
  expect(partial % STOPPED_BATCH).toBe(0);
  expect(await count('consent_history')).toBe(partial);
  const orphans = `consent c where not exists
    (select 1 from consent_history h where h.consent_id = c.id and h.action = 'granted')`;
  expect(await count(orphans)).toBe(0);
  // the run's record was written with each batch: it counts what was committed
  const [run] = JSON.parse((await cli(['--db', db, 'consents', 'imports', '--json'])).stdout).runs;
  expect(run).toMatchObject({ status: 'running', created: partial, finished_at: null });
  expect((await cli(['--db', db, 'audit', 'verify'])).code).toBe(0);

  const again = await cli(['--db', db, 'consents', 'import', file, '--json']);
  expect(JSON.parse(again.stdout)).toMatchObject({
    read: STOPPED_ROWS,
    created: STOPPED_ROWS - partial,
    unchanged: partial,
    rejected: 0,
  });
  expect(await count('consent')).toBe(STOPPED_ROWS);
  expect(await count('(select distinct user_id, data_point_id from consent) as d')).toBe(STOPPED_ROWS);
  expect(await count('consent_history')).toBe(STOPPED_ROWS);
  expect((await cli(['--db', db, 'audit', 'verify'])).code).toBe(0);
}
