// Start-up and DSFA read paths, as ratios to references measured in the same run:
// - `compliance --version` and `dsfa list --json --limit 100` (10,000 assessments) vs `node -e 0`  (targets 1.3x, 2.5x)
// - `serve`: GET /sdk/v1/dsfa?limit=100 requests/s vs a bare node:http server sending a fixed 100-record JSON.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { benchPostgres, BIN, ratio, row, startServe as startServeAt, timeProcess, tmp } from './lib.mjs';

const dir = tmp();
const db = join(dir, 'bench.db');
spawnSync(process.execPath, [BIN, '--db', db, 'db', 'init'], { stdio: 'ignore' }); // creates and migrates

// 10,000 assessments written straight into the table (the setup is not what is measured)
const sqlite = new Database(db);
const ins =
  sqlite.prepare(`insert into dsfa (id, tenant_id, title, description, status, risk_level, processing_activity,
  data_categories, recipients, measures, approved_by, approved_at, created_by, created_at, updated_at, ai_use_case_modules)
  values (?, 'default', ?, ?, ?, ?, ?, ?, '[]', ?, null, null, 'bench', ?, ?, '[]')`);
const statuses = ['draft', 'in-review', 'approved', 'needs-update'];
const risks = ['low', 'medium', 'high', 'critical'];
sqlite.transaction(() => {
  for (let i = 0; i < 10_000; i++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().slice(0, -1);
    ins.run(
      `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      `Verarbeitung Nr. ${i}`,
      'Beschreibung '.repeat(10),
      statuses[i % 4],
      risks[i % 4],
      'Personalverwaltung',
      JSON.stringify(['Stammdaten', 'Gesundheitsdaten']),
      JSON.stringify(['Verschlüsselung', 'Zugriffskontrolle']),
      ts,
      ts,
    );
  }
})();
sqlite.close();

const env = { ...process.env, COMPLIANCE_DB: db };
const node0 = timeProcess(process.execPath, ['-e', '0']);
const version = timeProcess(process.execPath, [BIN, '--version'], { env });
const list = timeProcess(process.execPath, [BIN, 'dsfa', 'list', '--json', '--limit', '100'], { env });
row('node -e 0 (reference)', `${node0.toFixed(1)} ms`);
row('compliance --version', `${version.toFixed(1)} ms`, `${ratio(version, node0)} of node -e 0 (target <= 1.3x)`);
row(
  'compliance dsfa list --json --limit 100 (10,000 stored)',
  `${list.toFixed(1)} ms`,
  `${ratio(list, node0)} of node -e 0 (target <= 2.5x)`,
);

// --- serve throughput
/** A `serve` of `store` and the URL of its DSFA list. */
async function startServe(store = db) {
  const { p, url } = await startServeAt(store);
  return { p, url: `${url}/dsfa?limit=100` };
}

async function startBare(body) {
  const src = `const http=require('http');const body=Buffer.from(process.argv[1]);
    const s=http.createServer((q,r)=>{r.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':body.length});r.end(body)});
    s.listen(0,'127.0.0.1',()=>console.log(s.address().port));`;
  const p = spawn(process.execPath, ['-e', src, body], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => p.stdout.once('data', (c) => resolve(String(c).trim())));
  return { p, url: `http://127.0.0.1:${port}/` };
}

async function load(url, seconds = 4, concurrency = 16) {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      done++;
    }
  };
  // warm-up
  for (let i = 0; i < 50; i++) await (await fetch(url)).arrayBuffer();
  const t = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((Date.now() - t) / 1000);
}

const served = await startServe();
const body = await (await fetch(served.url)).text();
const bare = await startBare(body);
const bareRps = await load(bare.url);
const serveRps = await load(served.url);
bare.p.kill();
served.p.kill('SIGTERM');
row('bare node:http, fixed 100-record JSON (reference)', `${bareRps.toFixed(0)} req/s`);
row(
  'compliance serve GET /sdk/v1/dsfa?limit=100',
  `${serveRps.toFixed(0)} req/s`,
  `${ratio(serveRps, bareRps)} of the bare server`,
);

// --- the same server on PostgreSQL, with the same 10,000 assessments, against the SQLite server in this run
const postgres = await benchPostgres();
try {
  const url = await postgres.database('bench_dsfa');
  spawnSync(process.execPath, [BIN, '--db', url, 'db', 'status'], { stdio: 'ignore' }); // creates and migrates
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = new Database(db, { readonly: true }).prepare('select * from dsfa').all();
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const values = chunk.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    await client.query(
      `insert into dsfa (${columns.join(', ')}) values ${values.join(', ')}`,
      chunk.flatMap((r) => columns.map((c) => r[c])),
    );
  }
  await client.query('analyze');
  await client.end();
  const sqliteServe = await startServe();
  const pgServe = await startServe(url);
  const sqliteRps = await load(sqliteServe.url);
  const pgRps = await load(pgServe.url);
  const same = (await (await fetch(pgServe.url)).text()) === (await (await fetch(sqliteServe.url)).text());
  sqliteServe.p.kill('SIGTERM');
  pgServe.p.kill('SIGTERM');
  row('compliance serve on SQLite, GET /dsfa?limit=100 (reference)', `${sqliteRps.toFixed(0)} req/s`);
  row(
    'compliance serve on PostgreSQL, GET /dsfa?limit=100',
    `${pgRps.toFixed(0)} req/s`,
    `${ratio(pgRps, sqliteRps)} of SQLite (aim >= 0.7x)${same ? '' : '  RESPONSES DIFFER'}`,
  );
} finally {
  await postgres.stop();
}
