import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { IMPORT_BATCH } from '../../src/backend/local/import-batch-rows.js';
import { startsThreads } from '../../src/store/sqlite/thread-roles.js';
import { cli, freshStore, useServer, tmp, tmpDb } from '../support/helpers.js';
import {
  consentsCsv,
  expectStoppedMidLoadThenCompleted,
  rowCounter,
  stopWhen,
  STOPPED_BATCH,
  STOPPED_ROWS,
} from '../support/import-runs.js';
import { builtCli } from '../support/serve-process.js';

const HEADER = 'user_id,data_point_id,granted,granted_at,consent_version,ip_address';
const file = (name: string, content: string | Buffer) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const stats = async (db: string) => JSON.parse((await cli(['--db', db, 'consents', 'stats', '--json'])).stdout);
const withoutIds = (text: string) =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');
const summaryOf = (stdout: string) =>
  JSON.parse(stdout) as {
    run_id: string | null;
    read: number;
    created: number;
    unchanged: number;
    revoked: number;
    rejected: number;
    seconds: number;
  };

describe('consents import from files', () => {
  it('imports the sample, then creates nothing the second time', async () => {
    const db = tmpDb();
    const r = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(summaryOf(r.stdout)).toMatchObject({ read: 4, created: 4, unchanged: 0, rejected: 0 });
    expect(Object.keys(summaryOf(r.stdout)).sort()).toEqual([
      'created',
      'read',
      'rejected',
      'renewed',
      'revoked',
      'run_id',
      'seconds',
      'unchanged',
    ]);
    const again = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    expect(summaryOf(again.stdout)).toMatchObject({ created: 0, unchanged: 4 });
    expect(await stats(db)).toMatchObject({
      total_consents: 4,
      active_consents: 2,
      revoked_consents: 1,
      unique_users: 3,
    });
  });

  it('exits 2 before writing anything when a required column is missing, or the delimiter is wrong', async () => {
    const db = tmpDb();
    const missing = await cli(['--db', db, 'consents', 'import', file('m.csv', 'user_id,granted\nu,true\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required column\(s\) data_point_id/);
    const semi = file('semi.csv', 'user_id;data_point_id;granted\nu;x;true\n');
    const wrong = await cli(['--db', db, 'consents', 'import', semi, '--delimiter', ',']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/delimiter/);
    expect((await stats(db)).total_consents).toBe(0);
    const right = await cli(['--db', db, 'consents', 'import', semi, '--delimiter', ';', '--json']);
    expect(summaryOf(right.stdout).created).toBe(1);
  });

  it('exits 2 when the file cannot be read', async () => {
    const r = await cli(['--db', tmpDb(), 'consents', 'import', join(tmp(), 'nope.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*no such file/);
    const dir = await cli(['--db', tmpDb(), 'consents', 'import', tmp()]);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toMatch(/not a regular file/);
  });

  it('writes every refused row to --rejects, beyond the 10,000 the summary lists', async () => {
    const db = tmpDb();
    const lines = [HEADER];
    for (let i = 0; i < 12_500; i++)
      lines.push(i % 5 ? `u${i},dp,true,2026-01-01T00:00:00Z,1.0,` : `u${i},dp,true,2026-01-01T00:00:00Z,1.0,10.0.0.1`);
    const rejects = join(tmp(), 'r.csv');
    const r = await cli([
      '--db',
      db,
      'consents',
      'import',
      file('many.csv', lines.join('\n').replaceAll('true', 'vielleicht')),
      '--rejects',
      rejects,
      '--json',
    ]);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 12_500, created: 0, rejected: 12_500 });
    const out = readFileSync(rejects, 'utf8').trim().split('\n');
    expect(out).toHaveLength(12_501);
    expect(out.at(-1)).toMatch(/^12501,"granted: expected a boolean \(true\/false, 1\/0, yes\/no\), got ""/);
    expect((await stats(db)).total_consents).toBe(0);
  });

  it('writes COMPLIANCE_IMPORT_BATCH_ROWS rows per transaction; a value it cannot use exits 2 before any store is made', async () => {
    const rows = [HEADER];
    for (let i = 0; i < 2500; i++) rows.push(`batch${i},newsletter,true,2026-01-01T00:00:00Z,1.0,`);
    const f = file('batches.csv', rows.join('\n') + '\n');
    const transactions = async (rowsPerTransaction?: string) => {
      const db = tmpDb();
      const env = rowsPerTransaction ? { COMPLIANCE_IMPORT_BATCH_ROWS: rowsPerTransaction } : {};
      const r = await cli(['--db', db, 'consents', 'import', f, '--json'], { env });
      expect(summaryOf(r.stdout), r.stderr).toMatchObject({ created: 2500, rejected: 0 });
      // one journal entry of the rows written per transaction
      const s = new Database(db, { readonly: true });
      try {
        return (s.prepare("select count(*) as n from journal where op = 'batch'").get() as { n: number }).n;
      } finally {
        s.close();
      }
    };
    expect(await transactions()).toBe(1);
    expect(await transactions('1000')).toBe(3);
    expect(await transactions('100')).toBe(25);
    for (const wrong of ['1500', '99', '20000', 'viele', '-1000']) {
      const db = tmpDb();
      const r = await cli(['--db', db, 'consents', 'import', f], { env: { COMPLIANCE_IMPORT_BATCH_ROWS: wrong } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`invalid COMPLIANCE_IMPORT_BATCH_ROWS: "${wrong}"`);
      expect(r.stderr).toContain('from 100 to 1000, or 2000, 3000 … 10000');
      expect(existsSync(db)).toBe(false);
    }
  });

  it('handles BOM, quoted newlines, a 10,000-character field and bad rows, reporting line numbers', async () => {
    const db = tmpDb();
    const long = 'x'.repeat(10_000);
    const parts: Buffer[] = [
      Buffer.from('\uFEFF' + HEADER + ',user_agent\n'),
      Buffer.from('ok1,newsletter,true,2026-01-01T00:00:00Z,1.0,,"line one\nline two"\n'), // lines 2-3
      Buffer.from(`ok2,newsletter,true,2026-01-01T00:00:00Z,1.0,,${long}\n`), // line 4: too long for user_agent (max 1000)
      Buffer.from('bad,newsletter,true,2026-01-01T00:00:00Z,1.0,,,surplus\n'), // line 5: too many fields
      Buffer.from('ok3,newsletter,true,2026-01-01T00:00:00Z,1.0,999.1.1.1,\n'), // line 6: bad IP
      Buffer.from('ok4,newsletter,true,2026-01-01T00:00:00Z,1.0,::1,\n'), // line 7
      Buffer.from('ok5,newsletter\n'), // line 8: too few fields
    ];
    const rejects = join(tmp(), 'rejects.csv');
    const r = await cli([
      '--db',
      db,
      'consents',
      'import',
      file('mixed.csv', Buffer.concat(parts)),
      '--rejects',
      rejects,
      '--json',
    ]);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 6, created: 2, rejected: 4 });
    // the refused rows themselves, as read (BOM left out), after their line and reason
    const lines = readFileSync(rejects, 'utf8').trim().split('\n');
    expect(lines[0]).toBe(`line,reason,${HEADER},user_agent`);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([4, 5, 6, 8]);
    expect(lines[1]).toBe(
      `4,user_agent: Too big: expected string to have <=1000 characters,ok2,newsletter,true,2026-01-01T00:00:00Z,1.0,,${long}`,
    );
    expect(lines[2]).toBe('5,"expected 7 fields, found 8",bad,newsletter,true,2026-01-01T00:00:00Z,1.0,,,surplus');
    expect(lines[3]).toBe(
      '6,ip_address: expected an IPv4 or IPv6 address,ok3,newsletter,true,2026-01-01T00:00:00Z,1.0,999.1.1.1,',
    );
    expect(lines[4]).toBe('8,"expected 7 fields, found 2",ok5,newsletter');
    const list = JSON.parse((await cli(['--db', db, 'consents', 'list', '--json'])).stdout);
    expect(list.consents.map((c: { user_id: string }) => c.user_id).sort()).toEqual(['ok1', 'ok4']);
    expect(list.consents.find((c: { user_id: string }) => c.user_id === 'ok1').user_agent).toBe('line one\nline two');
  });

  it('maps other column names with --map, validates without writing on --dry-run, reads NDJSON', async () => {
    const db = tmpDb();
    const f = file('crm.csv', 'Email,Zweck,Zustimmung\nm@example.com,newsletter,ja\nn@example.com,newsletter,no\n');
    const dry = await cli([
      '--db',
      db,
      'consents',
      'import',
      f,
      '--map',
      'email=user_id',
      '--map',
      'zweck=data_point_id,zustimmung=granted',
      '--dry-run',
      '--json',
    ]);
    expect(dry.code).toBe(6); // "ja" is not a boolean
    expect(summaryOf(dry.stdout)).toMatchObject({ read: 2, created: 1, rejected: 1 });
    expect(existsSync(db)).toBe(false); // a dry run on a store that does not exist creates none
    const nd = file(
      'c.ndjson',
      '{"user_id":"p","data_point_id":"x","granted":true}\nnot json\n{"user_id":"q","data_point_id":"x","granted":"no"}\n',
    );
    const r = await cli(['--db', db, 'consents', 'import', nd, '--json']);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 3, created: 2, rejected: 1 });
    expect((await cli(['--db', db, 'consents', 'import', f, '--map', 'email=nonsense'])).code).toBe(2);
    const crm = await cli([
      '--db',
      db,
      'consents',
      'import',
      'fixtures/consents/crm-export.csv',
      '--delimiter',
      ';',
      '--json',
      '--map',
      'Email=user_id,Zweck=data_point_id,Zustimmung=granted',
      '--map',
      'Datum=granted_at',
      '--map',
      'Version=consent_version',
      '--map',
      'Kanal=source',
    ]);
    expect(crm.code).toBe(6);
    expect(summaryOf(crm.stdout)).toMatchObject({ read: 4, created: 3, rejected: 1 });
    expect(crm.stderr).toMatch(/line 5: granted/);
    const jm = JSON.parse((await cli(['--db', db, 'consents', 'list', '--user-id', 'müller; jürgen', '--json'])).stdout)
      .consents[0];
    expect(jm).toMatchObject({
      source: 'Filiale "Nord"',
      granted_at: '2026-03-02T13:00:00.000Z',
      consent_version: '2.0',
    });
  });

  it('exports CSV that imports into an empty store with the same statistics', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv']);
    const out = join(tmp(), 'export.csv');
    expect((await cli(['--db', db, 'consents', 'export', '--format', 'csv', '-o', out])).code).toBe(0);
    const copy = tmpDb();
    expect(summaryOf((await cli(['--db', copy, 'consents', 'import', out, '--json'])).stdout).created).toBe(4);
    expect(await stats(copy)).toEqual(await stats(db));
    const piped = await cli(['--db', db, 'consents', 'export', '--format', 'ndjson', '--data-point', 'newsletter']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(2);
  });
});

const runsServer = useServer();
let runsTenants = 0;

describe.each([
  { face: 'local', open: () => ['--db', tmpDb()] },
  { face: 'remote', open: () => ['--remote', runsServer.url, '--tenant', `runs-${++runsTenants}`] },
])('consents imports ($face)', ({ open }) => {
  it('lists the runs and reverts one; exit 5 naming the records changed since, exit 3 for an unknown run', async () => {
    const at = open();
    const run = (args: string[]) => cli([...at, ...args]);
    const sample = 'fixtures/consents/sample.csv';
    const text = await run(['consents', 'import', sample]);
    expect(text.stdout).toMatch(
      /^read 4, created 4, unchanged 0, revoked 0, renewed 0, rejected 0 in [\d.]+ s, run \S+\n$/,
    );
    const id = text.stdout.trim().split(' ').at(-1)!;
    const listed = JSON.parse((await run(['consents', 'imports', '--json'])).stdout);
    expect(listed).toMatchObject({
      total: 1,
      runs: [{ id, file_name: 'sample.csv', created_by: 'tester', created: 4 }],
    });
    expect(listed.runs[0].sha256).toBe(createHash('sha256').update(readFileSync(sample)).digest('hex'));
    const piped = await run(['consents', 'imports', 'list']);
    expect(piped.stdout.split('\t').slice(0, 1)).toEqual([id]);
    expect((await run(['consents', 'imports', 'show', id])).stdout).toMatch(/^status\tcompleted$/m);
    // the sample's newsletter consent of anna is renewed: the run may not be reverted
    const anna = JSON.parse(
      (await run(['consents', 'list', '--user-id', 'anna.schmidt@example.com', '--data-point', 'newsletter', '--json']))
        .stdout,
    ).consents[0].id;
    await run(['consents', 'renew', anna]);
    const refused = await run(['consents', 'imports', 'revert', id]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toBe(
      `error: import run ${id} cannot be reverted: consent ${anna} (anna.schmidt@example.com, newsletter) renewed at ${
        refused.stderr.match(/renewed at (\S+Z)/)![1]
      } by a request; nothing was reverted\n`,
    );
    expect(JSON.parse((await run(['consents', 'stats', '--json'])).stdout).total_consents).toBe(4);
    // a run that created what another run then revoked lists the records as JSON details
    const again = await run(['consents', 'import', file('b.csv', 'user_id,data_point_id,granted\nbea,x,1\ncem,x,1\n')]);
    const second = again.stdout.trim().split(' ').at(-1)!;
    const revoking = file(
      'r.csv',
      'user_id,data_point_id,granted,granted_at,revoked_at\n' +
        JSON.parse((await run(['consents', 'list', '--data-point', 'x', '--json'])).stdout)
          .consents.map(
            (c: { user_id: string; granted_at: string }) => `${c.user_id},x,1,${c.granted_at},${c.granted_at}`,
          )
          .join('\n'),
    );
    const third = await run(['consents', 'import', revoking, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ revoked: 2 });
    const blocked = await run(['--json', 'consents', 'imports', 'revert', second]);
    expect(blocked.code).toBe(5);
    const body = JSON.parse(blocked.stderr);
    expect(body).toMatchObject({ code: 'conflict', error: expect.stringMatching(/2 of its records changed since/) });
    expect(body.details).toHaveLength(2);
    const undone = await run(['consents', 'imports', 'revert', JSON.parse(third.stdout).run_id, '--json']);
    expect(JSON.parse(undone.stdout)).toMatchObject({ consents_removed: 0, revocations_undone: 2 });
    const reverted = await run(['consents', 'imports', 'revert', second]);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(reverted.stdout).toMatch(/^consents_removed\t2$/m);
    expect((await run(['consents', 'imports', 'revert', second])).code).toBe(5);
    const unknown = await run(['consents', 'imports', 'revert', '0197aaaa-0000-7000-8000-000000000000']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/import run 0197aaaa-0000-7000-8000-000000000000 not found/);
  });
});

describe('consents import in remote mode', () => {
  const srv = useServer();

  it('streams the file to one bulk route and prints the same summary', async () => {
    const n = srv.logs.length;
    const r = await cli([
      '--remote',
      srv.url,
      '--tenant',
      'r',
      'consents',
      'import',
      'fixtures/consents/sample.csv',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 4, created: 4 });
    expect(srv.logs.slice(n).filter((l) => l.includes('/consents/import'))).toHaveLength(1);
    expect(srv.logs.length - n).toBe(1);
    const localRun = await cli(['--db', tmpDb(), 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    const { seconds: _a, run_id: _ra, ...remote } = summaryOf(r.stdout);
    const { seconds: _b, run_id: _rb, ...here } = summaryOf(localRun.stdout);
    expect(remote).toEqual(here);
    const missing = await cli(['--remote', srv.url, 'consents', 'import', file('m.csv', 'user_id\nu\n')]);
    expect(missing.code).toBe(2);
    const exported = await cli(['--remote', srv.url, '--tenant', 'r', 'consents', 'export', '--format', 'csv']);
    expect(exported.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('requires X-Tenant-ID on consent routes (400)', async () => {
    const res = await fetch(`${srv.url}/sdk/v1/einwilligungen/consents`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', error: expect.stringContaining('X-Tenant-ID') });
  });
});

describe('the built CLI (the writer runs in a worker thread)', () => {
  const bin = builtCli;

  it('writes in a second thread, so that parsing and writing overlap', () => {
    // Node writes one CPU profile per thread; an import whose writer ran on the main thread leaves one
    const dir = tmp();
    const f = file('threads.csv', `${HEADER}\nu1,newsletter,true,2026-01-01T00:00:00Z,1.0,\n`);
    const r = spawnSync(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', dir, 'bin/compliance.js', '--db', tmpDb(), 'consents', 'import', f],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))).toHaveLength(2);
    // the rule behind it: the built program starts threads (from its loader), the TypeScript sources of the tests cannot
    expect(readdirSync('dist')).toContain('compliance.cjs');
    expect(startsThreads('file:///app/dist/compliance.cjs')).toBe(true);
    expect(startsThreads('file:///app/src/store/sqlite/consent-import-writer.ts')).toBe(false);
  });

  it('gives the same summaries, rejects and store as the in-process import', async () => {
    const rows = [HEADER + ',user_agent'];
    // rows i, i + 6000 and i + 12000 are one consent: repeated as they are, or (i % 1000 = 500) with another user
    // agent; 13,000 rows fill more than one transaction, so they are repeated within a transaction and across two
    const count = 13_000;
    expect(count).toBeGreaterThan(IMPORT_BATCH);
    for (let i = 0; i < count; i++)
      rows.push(
        `u${i % 6000},dp${i % 3},${i % 4 ? 'yes' : '0'},2026-01-0${1 + (i % 5)}T00:00:00Z,1.0,${i % 1000 === 7 ? '1.2.3' : ''},"${i % 1000 === 500 ? `other ${i}` : `ua ""${i % 6000}""`}"`,
      );
    const f = file('worker.csv', rows.join('\n') + '\nb,d,vielleicht\n');
    const [viaBin, inProcess] = [tmpDb(), tmpDb()];
    const rejBin = join(tmp(), 'a.csv'),
      rejHere = join(tmp(), 'b.csv');
    const dry = bin(['--db', viaBin, 'consents', 'import', f, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(6);
    // a dry run has nothing written to compare with, so rows repeated inside the file count as created
    expect(summaryOf(dry.stdout)).toMatchObject({ read: 13_001, created: 12_987, unchanged: 0, rejected: 14 });
    expect(existsSync(viaBin)).toBe(false);
    const first = bin(['--db', viaBin, 'consents', 'import', f, '--rejects', rejBin, '--json']);
    const here = await cli(['--db', inProcess, 'consents', 'import', f, '--rejects', rejHere, '--json']);
    const { seconds: _a, run_id: _ra, ...a } = summaryOf(first.stdout);
    const { seconds: _b, run_id: _rb, ...b } = summaryOf(here.stdout);
    expect(a).toEqual(b);
    // rows repeated inside the file are unchanged; the 7 repeats with another user agent are refused by the writer
    expect(a).toMatchObject({ read: 13_001, created: 5994, unchanged: 12_987 - 5994 - 7, revoked: 0, rejected: 21 });
    // the reasons of the writer's refusals name the stored consent, whose id differs between the two stores
    expect(withoutIds(readFileSync(rejBin, 'utf8'))).toBe(withoutIds(readFileSync(rejHere, 'utf8')));
    const refusedLines = readFileSync(rejHere, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    expect(refusedLines).toHaveLength(21);
    expect(refusedLines).toEqual([...refusedLines].sort((x, y) => x - y)); // the writer's refusals among the reader's
    expect(await stats(viaBin)).toEqual(await stats(inProcess));
    expect(summaryOf(bin(['--db', viaBin, 'consents', 'import', f, '--json']).stdout)).toMatchObject({
      created: 0,
      unchanged: 12_987 - 7,
      rejected: 21,
    });
  }, 60_000);
});

describe.skipIf(spawnSync('script', ['--version']).status !== 0)('the progress bar', () => {
  it('shows rows, rows/s and the ETA on a terminal, and nothing when piped', async () => {
    const rows = [HEADER];
    for (let i = 0; i < 10_000; i++) rows.push(`tty${i},newsletter,true,2026-01-01T00:00:00Z,1.0,`);
    const f = file('tty.csv', rows.join('\n') + '\n');
    const db = tmpDb();
    // util-linux `script` runs the binary on a pseudo-terminal
    const onTty = spawnSync(
      'script',
      ['-qec', `${process.execPath} bin/compliance.js --db ${db} consents import ${f}`, '/dev/null'],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(onTty.stdout).toMatch(/\d+ rows \| \d+ rows\/s \| ETA/);
    expect(onTty.stdout).toMatch(/read 10000, created 10000, unchanged 0, revoked 0, renewed 0, rejected 0/);
    const piped = spawnSync(process.execPath, ['bin/compliance.js', '--db', db, 'consents', 'import', f], {
      encoding: 'utf8',
    });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(
      /^read 10000, created 0, unchanged 10000, revoked 0, renewed 0, rejected 0 in [\d.]+ s, run \S+\n$/,
    );
  }, 60_000);
});

/** The file the imports below are stopped in, written once for the file's tests (each imports it into a store of its own). */
let stoppedFile: string | undefined;
const stopped = () => (stoppedFile ??= consentsCsv(STOPPED_ROWS));

describe('an import killed halfway', () => {
  it('leaves whole batches, a store that verifies, and completes without duplicates when run again', async () => {
    const f = stopped();
    const db = await freshStore('sqlite');
    const rows = await rowCounter(db);
    const count = (table: string) => rows.count(`select count(*) as n from ${table}`);
    try {
      const killed = await stopWhen(
        ['--db', db, 'consents', 'import', f],
        async () => (await count('consent')) > 0,
        'SIGKILL',
      );
      expect(killed.signal).toBe('SIGKILL');
      await expectStoppedMidLoadThenCompleted(db, f, rows);
    } finally {
      await rows.close();
    }
  }, 120_000);
});

describe('Ctrl-C during an import', () => {
  const committedOf = (stderr: string) => Number(/interrupted: (\d+) rows were committed/.exec(stderr)?.[1]);

  it('says how many rows were committed and that a re-run completes it (exit 130)', async () => {
    const f = stopped();
    const db = await freshStore('sqlite');
    const rows = await rowCounter(db);
    const count = () => rows.count('select count(*) as n from consent');
    try {
      const r = await stopWhen(['--db', db, 'consents', 'import', f], async () => (await count()) > 0, 'SIGINT');
      expect(r.code, r.stderr).toBe(130);
      const committed = committedOf(r.stderr);
      expect(committed).toBe(await count());
      expect(committed % STOPPED_BATCH === 0 && committed > 0 && committed < STOPPED_ROWS).toBe(true);
      expect(r.stderr).toMatch(/running the same import again completes it/);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
      const [run] = JSON.parse((await cli(['--db', db, 'consents', 'imports', '--json'])).stdout).runs;
      expect(run).toMatchObject({ status: 'interrupted', created: committed, finished_at: expect.any(String) });
      const again = await cli(['--db', db, 'consents', 'import', f, '--json']);
      expect(summaryOf(again.stdout)).toMatchObject({
        created: STOPPED_ROWS - committed,
        unchanged: committed,
        rejected: 0,
      });
    } finally {
      await rows.close();
    }
  }, 120_000);

  it('stops the server’s import too, and says what the server committed (remote, exit 130)', async () => {
    // the server writes its default 10,000 rows per transaction: the client's Ctrl-C reaches it through the closed
    // request, which takes longer than a local signal, so it gets a file of four and a half of them
    const rows = 4.5 * IMPORT_BATCH;
    const f = consentsCsv(rows);
    const tenant = `ctrl-c-${Date.now()}`;
    const stats = async () =>
      (
        (await (
          await fetch(`${runsServer.url}/sdk/v1/einwilligungen/consents/stats`, { headers: { 'x-tenant-id': tenant } })
        ).json()) as { total_consents: number }
      ).total_consents;
    const r = await stopWhen(
      ['--remote', runsServer.url, '--tenant', tenant, 'consents', 'import', f],
      async () => (await stats()) > 0,
      'SIGINT',
    );
    expect(r.code, r.stderr).toBe(130);
    const committed = committedOf(r.stderr);
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(rows);
    expect(await stats()).toBe(committed);
    const runs = JSON.parse(
      (await cli(['--remote', runsServer.url, '--tenant', tenant, 'consents', 'imports', '--json'])).stdout,
    );
    expect(runs.runs[0]).toMatchObject({ status: 'interrupted', created: committed, file_name: 'consents.csv' });
  }, 120_000);
});
