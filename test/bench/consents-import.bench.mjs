// Bulk import of 1,000,000 consents (history included) against sqlite3's own `.import` of the same file into a plain
// table; then `consents stats` and `consents list --user-id` on that store. The same import on PostgreSQL against
// `psql \copy` of the same file into a plain table on the same server, and the statistics there. Ratios are from
// this one run. `node test/bench/consents-import.bench.mjs` after `npm run build`; ROWS=200000 for a quicker run;
// COMPLIANCE_BENCH_PG_URL=postgres://… (an admin URL) to use a running PostgreSQL instead of a throwaway one.
import { spawnSync } from 'node:child_process';
import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { BIN, benchPostgres, ratio, row, timeProcess, tmp } from './lib.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const dir = tmp();
const csv = join(dir, 'consents.csv');
const out = createWriteStream(csv);
out.write('user_id,data_point_id,granted,granted_at,consent_version,source,ip_address,user_agent\n');
for (let i = 0; i < ROWS; i++) {
  const line = `user${i % 400_000}@example.com,dp${i % 12},${i % 5 ? 'true' : 'false'},2026-0${1 + (i % 9)}-01T10:00:00Z,1.${i % 3},web_banner,10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},Mozilla/5.0\n`;
  if (!out.write(line)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
row(`generated CSV (${ROWS.toLocaleString('en')} rows)`, `${(statSync(csv).size / 1e6).toFixed(0)} MB`);

// references: the sqlite3 shell importing the same file into a plain table, in memory and into a file
let t = performance.now();
const mem = spawnSync('sqlite3', [':memory:', '-cmd', '.mode csv', `.import ${csv} consent`], { stdio: 'inherit' });
const memSec = (performance.now() - t) / 1000;
if (mem.status !== 0) throw new Error('sqlite3 .import failed (apt-get install sqlite3)');
row('sqlite3 :memory: .import into a plain table', `${Math.round(ROWS / memSec).toLocaleString('en')} rows/s`);
const refDb = join(dir, 'ref.db');
t = performance.now();
const ref = spawnSync('sqlite3', [refDb, '-cmd', '.mode csv', `.import ${csv} consent`], { stdio: 'inherit' });
const refSec = (performance.now() - t) / 1000;
if (ref.status !== 0) throw new Error('sqlite3 .import failed (apt-get install sqlite3)');
row('sqlite3 file .import into a plain table (reference)', `${Math.round(ROWS / refSec).toLocaleString('en')} rows/s`);

const db = join(dir, 'store.db');
spawnSync(process.execPath, [BIN, '--db', db, 'db', 'init'], { stdio: 'ignore' });
t = performance.now();
const imp = spawnSync(
  '/usr/bin/time',
  ['-f', '%M', process.execPath, BIN, '--db', db, 'consents', 'import', csv, '--json'],
  { encoding: 'utf8' },
);
const sec = (performance.now() - t) / 1000;
if (imp.status !== 0) throw new Error(imp.stderr);
const peakMb = Number(imp.stderr.trim().split('\n').at(-1)) / 1024;
const summary = JSON.parse(imp.stdout);
row(
  'compliance consents import (consent + history rows)',
  `${Math.round(ROWS / sec).toLocaleString('en')} rows/s`,
  `${ratio(refSec, sec)} of sqlite3 .import into a file (target >= 0.3x); created ${summary.created}`,
);
row('  peak memory of the import process', `${peakMb.toFixed(0)} MB`, '(target < 200 MB)');
// floors for any import written from Node, with the writer's own method (rows staged 100 per statement, then copied
// by set-based inserts with ids made in SQLite) and the same rows already parsed, valid and free of duplicates:
// into the consent + history tables with their keys only, and into the same tables with the two indexes the store
// needs (user lookups and statistics); no duplicate check, no parsing, no validation
{
  const { default: Database } = await import('better-sqlite3');
  const floor = (name, indexes) => {
    const f = new Database(join(dir, `${name}.db`));
    f.pragma('journal_mode = WAL');
    f.pragma('synchronous = NORMAL');
    f.pragma('temp_store = memory');
    f.pragma('wal_autocheckpoint = 10000');
    f.exec(`create table consent (id text, tenant_id text, user_id text, data_point_id text, granted integer, granted_at text, revoked_at text,
        consent_version text, source text, ip_address text, user_agent text, created_at text);
      create unique index consent_tenant_id on consent (tenant_id, id);
      create table consent_history (id text, tenant_id text, consent_id text, action text, consent_version text, ip_address text, user_agent text,
        source text, created_at text, primary key (consent_id, created_at, id)) without rowid;
      ${indexes ? 'create index consent_tenant_user on consent (tenant_id, user_id, data_point_id); create index consent_tenant_stats on consent (tenant_id, data_point_id, granted, revoked_at);' : ''}
      create temp table stage (n integer primary key, user_id, data_point_id, granted, granted_at, consent_version, source, ip_address, user_agent);`);
    const many = f.prepare(
      `insert into temp.stage values ${Array(100).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    );
    const c = f.prepare(
      `insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at) select printf('%s%012x', @p, 2 * n), 'default', user_id, data_point_id, granted, granted_at, null, consent_version, source, ip_address, user_agent, granted_at from temp.stage order by n`,
    );
    const h = f.prepare(
      `insert into consent_history select printf('%s%012x', @p, 2 * n + 1), 'default', printf('%s%012x', @p, 2 * n), 'granted', consent_version, ip_address, user_agent, source, granted_at from temp.stage order by n`,
    );
    const args = [];
    const t0 = performance.now();
    for (let s = 0, b = 0; s < ROWS; s += 10_000, b++) {
      f.exec('BEGIN IMMEDIATE');
      for (let i = s; i < Math.min(ROWS, s + 10_000); i++) {
        args.push(
          i - s,
          `user${i % 400_000}@example.com`,
          `dp${i % 12}`,
          i % 5 ? 1 : 0,
          `2026-0${1 + (i % 9)}-01T10:00:00.000Z`,
          `1.${i % 3}`,
          'web_banner',
          `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          'Mozilla/5.0',
        );
        if (args.length === 900) many.run(args.splice(0));
      }
      const p = `019a0000-0000-7${b.toString(16).padStart(3, '0')}-8000-`;
      c.run({ p });
      h.run({ p });
      f.exec('delete from temp.stage; COMMIT');
    }
    const sec = (performance.now() - t0) / 1000;
    f.close();
    return sec;
  };
  const bare = floor('floor-bare', false);
  row(
    '  floor: staged inserts into consent + history, keys only',
    `${Math.round(ROWS / bare).toLocaleString('en')} rows/s`,
    `${ratio(refSec, bare)} of sqlite3 .import`,
  );
  const indexed = floor('floor-indexed', true);
  row(
    '  floor: the same with the user and statistics indexes',
    `${Math.round(ROWS / indexed).toLocaleString('en')} rows/s`,
    `${ratio(refSec, indexed)} of sqlite3 .import (no duplicate check, parsing or validation)`,
  );
}
t = performance.now();
spawnSync(process.execPath, [BIN, '--db', join(dir, 'dry.db'), 'consents', 'import', csv, '--dry-run', '--json'], {
  encoding: 'utf8',
});
row(
  '  --dry-run into an empty store (read, parse, validate)',
  `${Math.round(ROWS / ((performance.now() - t) / 1000)).toLocaleString('en')} rows/s`,
);
t = performance.now();
const again = JSON.parse(
  spawnSync(process.execPath, [BIN, '--db', db, 'consents', 'import', csv, '--json'], { encoding: 'utf8' }).stdout,
);
row(
  '  the same file again (everything unchanged)',
  `${((performance.now() - t) / 1000).toFixed(1)} s`,
  `created ${again.created}, unchanged ${again.unchanged}`,
);

const env = { ...process.env, COMPLIANCE_DB: db };
const node0 = timeProcess(process.execPath, ['-e', '0'], { runs: 5 });
const stats = timeProcess(process.execPath, [BIN, 'consents', 'stats', '--json'], { runs: 5, env });
const list = timeProcess(process.execPath, [BIN, 'consents', 'list', '--user-id', 'user4711@example.com', '--json'], {
  runs: 5,
  env,
});
row('node -e 0 (reference for process start)', `${node0.toFixed(0)} ms`);
row(
  'consents stats on 1M (whole process)',
  `${stats.toFixed(0)} ms`,
  `query part ≈ ${(stats - node0).toFixed(0)} ms beyond node start (target < 200 ms)`,
);
row(
  'consents list --user-id X on 1M (whole process)',
  `${list.toFixed(0)} ms`,
  `≈ ${(list - node0).toFixed(0)} ms beyond node start (target < 20 ms query)`,
);

// the operations themselves, without process start, through a running server
const { spawn } = await import('node:child_process');
const srv = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
let err = '';
const base = await new Promise((resolve, reject) => {
  srv.stderr.on('data', (c) => {
    err += c;
    const m = /at (http:\/\/\S+\/sdk\/v1)/.exec(err);
    if (m) resolve(m[1]);
  });
  srv.on('exit', () => reject(new Error(err)));
});
const headers = { 'x-tenant-id': 'default' };
const median = async (url, n) => {
  const ts = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor(n / 2)];
};
await median(`${base}/einwilligungen/consents/stats`, 1);
row(
  'GET /einwilligungen/consents/stats on 1M (server)',
  `${(await median(`${base}/einwilligungen/consents/stats`, 7)).toFixed(0)} ms`,
  '(target < 200 ms)',
);
row(
  'GET /einwilligungen/consents?user_id=X on 1M (server)',
  `${(await median(`${base}/einwilligungen/consents?user_id=user4711@example.com`, 21)).toFixed(1)} ms`,
  '(target < 20 ms)',
);
srv.kill('SIGTERM');

await new Promise((r) => srv.on('exit', r));

// PostgreSQL: the same file through the CLI with --db postgres://…, against psql's \copy into a plain table
const server = await benchPostgres();
try {
  const { default: pg } = await import('pg');
  const sql = async (url, text) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await c.query(text);
    } finally {
      await c.end();
    }
  };
  const ref = await server.database('bench_consents_copy');
  await sql(
    ref,
    'create table consent_plain (user_id text, data_point_id text, granted text, granted_at text, consent_version text, source text, ip_address text, user_agent text)',
  );
  t = performance.now();
  const copy = spawnSync(
    '/usr/bin/psql',
    [ref, '-qc', `\\copy consent_plain from '${csv}' with (format csv, header true)`],
    {
      encoding: 'utf8',
    },
  );
  const copySec = (performance.now() - t) / 1000;
  if (copy.status !== 0) throw new Error(`psql \\copy failed: ${copy.stderr}`);
  row('psql \\copy into a plain table (reference)', `${Math.round(ROWS / copySec).toLocaleString('en')} rows/s`);

  const store = await server.database('bench_consents_store');
  spawnSync(process.execPath, [BIN, '--db', store, 'db', 'status'], { stdio: 'ignore' });
  t = performance.now();
  const pgImp = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, BIN, '--db', store, 'consents', 'import', csv, '--json'],
    {
      encoding: 'utf8',
    },
  );
  const pgSec = (performance.now() - t) / 1000;
  if (pgImp.status !== 0) throw new Error(pgImp.stderr);
  const pgSummary = JSON.parse(pgImp.stdout);
  row(
    'compliance consents import --db postgres://… (consent + history)',
    `${Math.round(ROWS / pgSec).toLocaleString('en')} rows/s`,
    `${ratio(copySec, pgSec)} of psql \\copy (target >= 0.5x); created ${pgSummary.created}`,
  );
  row(
    '  peak memory of the import process',
    `${(Number(pgImp.stderr.trim().split('\n').at(-1)) / 1024).toFixed(0)} MB`,
  );

  // floor: the rows already in the server (the \copy table), written into consent + history with the store's indexes
  // by two set-based statements: no parsing, validation, duplicate check or network
  const floorDb = await server.database('bench_consents_floor');
  spawnSync(process.execPath, [BIN, '--db', floorDb, 'db', 'status'], { stdio: 'ignore' });
  await sql(
    floorDb,
    `create table consent_plain (user_id text, data_point_id text, granted text, granted_at text, consent_version text, source text, ip_address text, user_agent text)`,
  );
  spawnSync('/usr/bin/psql', [floorDb, '-qc', `\\copy consent_plain from '${csv}' with (format csv, header true)`]);
  t = performance.now();
  await sql(
    floorDb,
    `insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at)
       select lpad(to_hex(2 * n), 36, '0'), 'default', user_id, data_point_id, (granted = 'true')::int, granted_at, null, consent_version, source, ip_address, user_agent, granted_at
       from (select row_number() over () as n, * from consent_plain) p;
     insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
       select lpad(to_hex(2 * n + 1), 36, '0'), 'default', lpad(to_hex(2 * n), 36, '0'), 'granted', consent_version, ip_address, user_agent, source, granted_at
       from (select row_number() over () as n, * from consent_plain) p`,
  );
  const floorSec = (performance.now() - t) / 1000;
  row(
    '  floor: insert … select of those rows into consent + history',
    `${Math.round(ROWS / floorSec).toLocaleString('en')} rows/s`,
    `${ratio(copySec, floorSec)} of psql \\copy (server-side only, the store's indexes)`,
  );

  t = performance.now();
  const pgAgain = JSON.parse(
    spawnSync(process.execPath, [BIN, '--db', store, 'consents', 'import', csv, '--json'], { encoding: 'utf8' }).stdout,
  );
  row(
    '  the same file again (everything unchanged)',
    `${((performance.now() - t) / 1000).toFixed(1)} s`,
    `created ${pgAgain.created}, unchanged ${pgAgain.unchanged}`,
  );

  const pgSrv = spawn(process.execPath, [BIN, '--db', store, 'serve', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let pgErr = '';
  const pgBase = await new Promise((resolve, reject) => {
    pgSrv.stderr.on('data', (c) => {
      pgErr += c;
      const m = /at (http:\/\/\S+\/sdk\/v1)/.exec(pgErr);
      if (m) resolve(m[1]);
    });
    pgSrv.on('exit', () => reject(new Error(pgErr)));
  });
  await median(`${pgBase}/einwilligungen/consents/stats`, 2);
  row(
    'GET /einwilligungen/consents/stats on 1M (server, PostgreSQL)',
    `${(await median(`${pgBase}/einwilligungen/consents/stats`, 7)).toFixed(0)} ms`,
    '(target < 100 ms)',
  );
  row(
    'GET /einwilligungen/consents?user_id=X on 1M (server, PostgreSQL)',
    `${(await median(`${pgBase}/einwilligungen/consents?user_id=user4711@example.com`, 21)).toFixed(1)} ms`,
  );
  pgSrv.kill('SIGTERM');
  await new Promise((r) => pgSrv.on('exit', r));
} finally {
  await server.stop();
}
