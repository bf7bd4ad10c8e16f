// The journal's cost, as ratios to references measured in the same run:
// - DSFA writes through `serve` (POST and PUT, each with its audit entry), against the same build with the journal
//   switched off (COMPLIANCE_BENCH_NO_JOURNAL=1)                                              (aim <= 1.15x)
// - the bulk import of 1,000,000 consents (ROWS=… for fewer) on SQLite and PostgreSQL, with the journal (one batch
//   entry per transaction) against the same build with it off                                  (aim <= 1.15x)
// - `compliance audit verify` over 1,000,000 entries on SQLite                                 (aim < 3 s)
// - appends per second of four writers on one tenant on PostgreSQL, against four writers on four tenants
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { benchPostgres, BIN, ratio, row, startServe, tmp, writeSingleEntryChain } from './lib.mjs';

const post = async (url, path, body, tenant, method = 'POST') => {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-tenant-id': tenant, 'x-user-id': 'bench' },
    body: JSON.stringify(body),
  });
  const json = await r.json();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
};

/** Writes per second of `writers` loops over `seconds`: each creates an assessment and updates it twice. */
async function dsfaWrites(urls, tenants, seconds = 5) {
  const end = Date.now() + seconds * 1000;
  let writes = 0;
  const writer = async (i) => {
    const url = urls[i % urls.length];
    const tenant = tenants[i % tenants.length];
    while (Date.now() < end) {
      const d = await post(url, `/dsfa?tenant_id=${tenant}`, { title: `Verfahren ${i}` }, tenant);
      await post(url, `/dsfa/${d.id}?tenant_id=${tenant}`, { description: 'erste Fassung' }, tenant, 'PUT');
      await post(url, `/dsfa/${d.id}?tenant_id=${tenant}`, { risk_level: 'high' }, tenant, 'PUT');
      writes += 3;
    }
  };
  const t = Date.now();
  await Promise.all(urls.map((_, i) => writer(i)));
  return writes / ((Date.now() - t) / 1000);
}

// --- DSFA writes on SQLite, with and without the journal, alternating so neither side gets a warmer machine
const dir = tmp();
const rates = { on: [], off: [] };
for (let round = 0; round < 3; round++) {
  for (const mode of ['off', 'on']) {
    const db = join(dir, `writes-${mode}-${round}.db`);
    const s = await startServe(db, { env: mode === 'off' ? { COMPLIANCE_BENCH_NO_JOURNAL: '1' } : {} });
    await dsfaWrites([s.url], ['bench'], 1); // warm-up
    rates[mode].push(await dsfaWrites([s.url, s.url, s.url, s.url], ['bench']));
    s.p.kill('SIGTERM');
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const on = median(rates.on);
const off = median(rates.off);
row('DSFA writes via serve on SQLite, journal off (reference)', `${off.toFixed(0)} /s`);
row(
  'DSFA writes via serve on SQLite, with the journal',
  `${on.toFixed(0)} /s`,
  `${ratio(off, on)} the time per write (aim <= 1.15x)`,
);

// --- the bulk import, with and without the journal, on both engines (rounds alternate, the median counts)
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const csv = join(dir, 'consents.csv');
const out = createWriteStream(csv);
out.write('user_id,data_point_id,granted,granted_at,consent_version,source\n');
for (let i = 0; i < ROWS; i++) {
  const line = `user${i}@example.com,dp${i % 12},${i % 5 ? 'true' : 'false'},2026-0${1 + (i % 9)}-01T10:00:00Z,1.0,web\n`;
  if (!out.write(line)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
/** Seconds of one import of the file into a fresh store (`target(name)`: a file or a database URL). */
const importSeconds = async (target, mode) => {
  spawnSync(process.execPath, [BIN, '--db', target, 'db', 'init'], { stdio: 'ignore' });
  const env = { ...process.env, ...(mode === 'off' ? { COMPLIANCE_BENCH_NO_JOURNAL: '1' } : {}) };
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, '--db', target, '--json', 'consents', 'import', csv], { env });
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
};
const importRow = (engine, secs) => {
  const [off, on] = [median(secs.off), median(secs.on)];
  row(`import of ${ROWS.toLocaleString('en')} consents on ${engine}, journal off (reference)`, `${off.toFixed(1)} s`);
  row(
    `import of ${ROWS.toLocaleString('en')} consents on ${engine}, with the journal`,
    `${on.toFixed(1)} s`,
    `${ratio(on, off)} the time (aim <= 1.15x)`,
  );
};
const sqliteImport = { on: [], off: [] };
for (let round = 0; round < 2; round++)
  for (const mode of ['off', 'on'])
    sqliteImport[mode].push(await importSeconds(join(dir, `import-${mode}-${round}.db`), mode));
importRow('SQLite', sqliteImport);

// --- audit verify over 1,000,000 entries: a chain written here with the format of src/domain/journal/chain.ts
const verifyDb = join(dir, 'verify.db');
spawnSync(process.execPath, [BIN, '--db', verifyDb, 'db', 'init'], { stdio: 'ignore' });
const N = 1_000_000;
writeSingleEntryChain(verifyDb, N);
const t0 = process.hrtime.bigint();
const verified = spawnSync(
  process.execPath,
  [BIN, '--db', verifyDb, '--tenant', 'bench', '--json', 'audit', 'verify'],
  {
    encoding: 'utf8',
  },
);
const verifyMs = Number(process.hrtime.bigint() - t0) / 1e6;
const report = JSON.parse(verified.stdout)[0];
row(
  'compliance audit verify, 1,000,000 entries on SQLite',
  `${(verifyMs / 1000).toFixed(2)} s`,
  `${report.ok ? 'intact' : 'BROKEN'}, ${report.entries} entries (aim < 3 s)`,
);

// --- appends on PostgreSQL: four writers (one replica each) on one tenant, against four writers on four tenants
const postgres = await benchPostgres();
try {
  const pgImport = { on: [], off: [] };
  for (let round = 0; round < 2; round++)
    for (const mode of ['off', 'on'])
      pgImport[mode].push(await importSeconds(await postgres.database(`bench_import_${mode}_${round}`), mode));
  importRow('PostgreSQL', pgImport);

  const perTenant = {};
  for (const [label, tenants] of [
    ['four', ['t1', 't2', 't3', 't4']],
    ['one', ['t1']],
  ]) {
    const url = await postgres.database(`bench_journal_${label}`);
    spawnSync(process.execPath, [BIN, '--db', url, 'db', 'status'], { stdio: 'ignore' });
    const replicas = await Promise.all([1, 2, 3, 4].map(() => startServe(url)));
    await dsfaWrites(
      replicas.map((r) => r.url),
      tenants,
      1,
    );
    perTenant[label] = await dsfaWrites(
      replicas.map((r) => r.url),
      tenants,
    );
    for (const r of replicas) r.p.kill('SIGTERM');
  }
  row('PostgreSQL: 4 replicas writing 4 tenants (reference)', `${perTenant.four.toFixed(0)} /s`);
  row(
    'PostgreSQL: 4 replicas writing 1 tenant',
    `${perTenant.one.toFixed(0)} /s`,
    `${ratio(perTenant.one, perTenant.four)} of four tenants (one tenant's appends are serialised)`,
  );
} finally {
  await postgres.stop();
}
