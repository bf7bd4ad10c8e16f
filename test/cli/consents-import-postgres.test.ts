import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, freshStore, tmp } from '../support/helpers.js';
import {
  consentsCsv,
  expectStoppedMidLoadThenCompleted,
  rowCounter,
  stopWhen,
  STOPPED_ROWS,
} from '../support/import-runs.js';
import { builtCli } from '../support/serve-process.js';

const HEADER = 'user_id,data_point_id,granted,granted_at,consent_version,ip_address';
const file = (name: string, content: string | Buffer) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const bin = builtCli;
const withoutIds = (text: string) =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');
const summaryOf = (stdout: string) => {
  const { seconds: _s, run_id: _r, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
  return rest;
};
const stats = async (db: string) => JSON.parse((await cli(['--db', db, 'consents', 'stats', '--json'])).stdout);

/**
 * A file with repeated rows, refused rows, quotes, backslashes, tabs and a multi-line field. Rows i, i + 1200 and
 * i + 2400 are one consent (1200 is a multiple of 3, 4, 5 and 200, so they agree on everything but a user agent of
 * their own where i % 200 = 100); 2,600 rows fill more than one transaction (MIXED_BATCH, 2,000 rows), so rows are
 * repeated within a transaction and across two.
 */
const MIXED_ROWS = 2_600;
const MIXED_BATCH = 2_000;
const batchEnv = { COMPLIANCE_IMPORT_BATCH_ROWS: String(MIXED_BATCH) };
function mixedFile(): string {
  const rows = [HEADER + ',user_agent'];
  for (let i = 0; i < MIXED_ROWS; i++)
    rows.push(
      `u${i % 1200},dp${i % 3},${i % 4 ? 'yes' : '0'},2026-01-0${1 + (i % 5)}T00:00:00Z,1.0,${i % 200 === 7 ? '1.2.3' : ''},"${i % 200 === 100 ? `other ${i}` : `ua ""${i % 1200}""`}, \\ tab\there"`,
    );
  rows.push('multi,dp0,true,2026-01-09T00:00:00Z,1.0,,"line one\nline two"');
  return file('mixed.csv', rows.join('\n') + '\n');
}

describe('consents import and export on PostgreSQL (the built CLI with --db postgres://…)', () => {
  // the built program imports and exports once (its bundled PostgreSQL writer and export cursor), is killed halfway and
  // runs twice at once; the other steps run the same code in process (cli()), as does the SQLite store it is held
  // against: consents-import.test.ts shows that the built CLI (its writer in a worker) gives the same summaries, rejects
  // and store there
  it('gives the summaries, rejects, store and export bytes of the SQLite import', async () => {
    expect(MIXED_ROWS).toBeGreaterThan(MIXED_BATCH);
    const f = mixedFile();
    const [pg, lite] = [await freshStore('postgres'), await freshStore('sqlite')];
    const dry = await cli(['--db', pg, 'consents', 'import', f, '--dry-run', '--json'], { env: batchEnv });
    expect(dry.code, dry.stderr).toBe(6);
    expect(summaryOf(dry.stdout)).toEqual(
      summaryOf((await cli(['--db', lite, 'consents', 'import', f, '--dry-run', '--json'], { env: batchEnv })).stdout),
    );
    expect((await stats(pg)).total_consents).toBe(0);

    const [rejPg, rejLite] = [join(tmp(), 'a.csv'), join(tmp(), 'b.csv')];
    const first = bin(['--db', pg, 'consents', 'import', f, '--rejects', rejPg, '--json'], batchEnv);
    const here = await cli(['--db', lite, 'consents', 'import', f, '--rejects', rejLite, '--json'], {
      env: batchEnv,
    });
    expect(first.code, first.stderr).toBe(6);
    expect(summaryOf(first.stdout)).toEqual(summaryOf(here.stdout));
    expect(summaryOf(first.stdout)).toMatchObject({ read: 2_601, rejected: 13 + 7, created: 1_195 });
    // the reasons of the writer's refusals name the stored consent, whose id differs between the two stores
    expect(withoutIds(readFileSync(rejPg, 'utf8'))).toBe(withoutIds(readFileSync(rejLite, 'utf8')));
    expect(await stats(pg)).toEqual(await stats(lite));

    // idempotent: a second run creates nothing
    expect(
      summaryOf((await cli(['--db', pg, 'consents', 'import', f, '--json'], { env: batchEnv })).stdout),
    ).toMatchObject({
      created: 0,
      unchanged: 2_588 - 7,
      rejected: 13 + 7,
    });

    for (const format of ['csv', 'ndjson']) {
      const args = ['--db', pg, 'consents', 'export', '--format', format];
      const a = format === 'csv' ? bin(args) : await cli(args);
      const b = await cli(['--db', lite, 'consents', 'export', '--format', format]);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout.length).toBeGreaterThan(50_000);
      expect(a.stdout === b.stdout, format).toBe(true);
      const filtered = ['--format', format, '--data-point', 'dp1', '--granted', 'false'];
      expect((await cli(['--db', pg, 'consents', 'export', ...filtered])).stdout).toBe(
        (await cli(['--db', lite, 'consents', 'export', ...filtered])).stdout,
      );
    }
    // and for a German spreadsheet: local times, ja/nein, `;`
    const german = ['--delimiter', ';', '--date-format', 'DD.MM.YYYY HH:mm:ss', '--time-zone', 'Europe/Berlin'];
    const words = [...german, '--true-values', 'ja', '--false-values', 'nein', '--bom'];
    const a = await cli(['--db', pg, 'consents', 'export', ...words]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/\n[^;\n]+;dp\d;(ja|nein);\d\d\.01\.2026 01:00:00;/);
    expect(a.stdout === (await cli(['--db', lite, 'consents', 'export', ...words])).stdout).toBe(true);
    // row-level security: another tenant's export holds its own consent only (a tenant unknown to the store is refused
    // with exit 3 and prints nothing, which would say nothing about the export)
    const others = file('other.csv', `${HEADER}\nsomeone-else,dp0,true,2026-01-01T00:00:00Z,1.0,\n`);
    expect((await cli(['--db', pg, '--tenant', 'other', 'consents', 'import', others])).code).toBe(0);
    const other = await cli(['--db', pg, '--tenant', 'other', 'consents', 'export', '--format', 'ndjson']);
    expect(other.code, other.stderr).toBe(0);
    expect(
      other.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).user_id),
    ).toEqual(['someone-else']);
  }, 120_000);

  it('leaves whole batches when killed halfway, a store that verifies, and completes without duplicates when run again', async () => {
    const f = consentsCsv(STOPPED_ROWS);
    const db = await freshStore('postgres');
    const rows = await rowCounter(db);
    const count = (table: string) => rows.count(`select count(*) as n from ${table}`);
    try {
      const killed = await stopWhen(
        ['--db', db, 'consents', 'import', f],
        async () => (await count('consent')) > 0,
        'SIGKILL',
      );
      expect(killed.signal).toBe('SIGKILL');
      // the server rolls back the batch the killed process had open once its sessions have ended
      for (let waited = 0; ; waited += 10) {
        const sessions = await rows.count(`select count(*) as n from pg_stat_activity where datname = current_database()
          and backend_type = 'client backend' and pid <> pg_backend_pid()`);
        if (sessions === 0) break;
        if (waited > 30_000) throw new Error('the killed import’s sessions did not end');
        await new Promise((r) => setTimeout(r, 10));
      }
      await expectStoppedMidLoadThenCompleted(db, f, rows);
    } finally {
      await rows.close();
    }
  }, 120_000);

  it('lets two imports of one file at the same time create each consent once', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 30_000; i++) lines.push(`twice${i},newsletter,true,2026-02-01T00:00:00Z,1.0,`);
    const f = file('twice.csv', lines.join('\n') + '\n');
    const db = await freshStore('postgres');
    const run = () =>
      new Promise<string>((resolve) => {
        const p = spawn(process.execPath, ['bin/compliance.js', '--db', db, 'consents', 'import', f, '--json']);
        let out = '';
        p.stdout.on('data', (c) => (out += c));
        p.on('exit', () => resolve(out));
      });
    const [a, b] = (await Promise.all([run(), run()])).map((o) => JSON.parse(o) as { created: number });
    expect(a.created + b.created).toBe(30_000);
    expect((await stats(db)).total_consents).toBe(30_000);
  }, 120_000);
});
