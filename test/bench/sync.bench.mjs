// Sync: the first sync (a clone) of a tenant with 100,000 consents and 10,000 training assignments from a real
// `compliance serve` on SQLite, against `consents export` + `consents import` of the same consents through the same
// server in the same run (aim <= 1.5x); then a sync with nothing to move against `node -e 0` (aim < 3x).
// `node test/bench/sync.bench.mjs` after `npm run build`; ROWS=20000 for a quicker run.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { BIN, ratio, row, timeProcess, tmp } from './lib.mjs';

const ROWS = Number(process.env.ROWS ?? 100_000);
const USERS = Number(process.env.USERS ?? 10_000);
const dir = tmp();
const serverDb = join(dir, 'server.db');
const node = (args, env = {}) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 29,
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}\nserver: ${err.slice(-2000)}`);
  return r.stdout;
};
node(['--db', serverDb, 'db', 'init']);
const key = JSON.parse(node(['--db', serverDb, 'keys', 'create', '--name', 'bench', '--json'])).key;

let err = '';
const proc = spawn(process.execPath, [BIN, '--db', serverDb, 'serve', '--port', '0']);
const url = await new Promise((resolve, reject) => {
  proc.stderr.on('data', (c) => {
    err += c;
    const m = /at (http:\/\/[^\s]+)\/sdk\/v1/.exec(err);
    if (m) resolve(m[1]);
  });
  proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
});
try {
  const remote = (tenant) => ({ COMPLIANCE_REMOTE: url, COMPLIANCE_API_KEY: key, COMPLIANCE_TENANT: tenant });

  // the tenant: consents imported, a module required for one role, and its assignments for every user
  const csv = join(dir, 'consents.csv');
  const out = createWriteStream(csv);
  out.write('user_id,data_point_id,granted,granted_at,consent_version,source\n');
  for (let i = 0; i < ROWS; i++)
    if (
      !out.write(
        `user${i}@example.com,dp${i % 12},${i % 5 ? 'true' : 'false'},2026-0${1 + (i % 9)}-01T10:00:00Z,1.${i % 3},web_banner\n`,
      )
    )
      await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  node(['consents', 'import', csv], remote('acme'));
  const mod = JSON.parse(
    node(
      [
        'training',
        'modules',
        'create',
        '--code',
        'PRIV-1',
        '--title',
        'Datenschutz',
        '--area',
        'dsgvo',
        '--frequency',
        'annual',
        '--json',
      ],
      remote('acme'),
    ),
  );
  node(['training', 'matrix', 'set', 'R1', mod.id], remote('acme'));
  const users = join(dir, 'users.csv');
  const lines = ['user_id,user_name,user_email,roles'];
  for (let i = 0; i < USERS; i++) lines.push(`staff${i},Person ${i},p${i}@example.com,R1`);
  writeFileSync(users, lines.join('\n') + '\n');
  node(['training', 'assignments', 'compute', '--users', users], remote('acme'));
  row(
    `tenant on the server`,
    `${ROWS.toLocaleString('en')}`,
    `consents (+ history), ${USERS.toLocaleString('en')} assignments`,
  );

  // reference: the same consents out of the server and into another tenant of it, through the API
  let t = performance.now();
  const exported = join(dir, 'export.csv');
  node(['consents', 'export', '--format', 'csv', '-o', exported], remote('acme'));
  node(['consents', 'import', exported], remote('copy'));
  const refSec = (performance.now() - t) / 1000;
  row('consents export + consents import through the server', `${refSec.toFixed(1)} s`);

  const laptop = join(dir, 'laptop.db');
  t = performance.now();
  const summary = JSON.parse(node(['--db', laptop, 'sync', '--json'], remote('acme')));
  const syncSec = (performance.now() - t) / 1000;
  row(
    'first sync (clone) of the tenant',
    `${syncSec.toFixed(1)} s`,
    `${ratio(syncSec, refSec)} of export + import (aim <= 1.5x); pulled ${JSON.stringify(summary.pulled)}`,
  );

  const node0 = timeProcess(process.execPath, ['-e', '0'], { runs: 9 });
  // the fixed cost of any command on the store, for scale: a list of one area, no server
  const list = timeProcess(process.execPath, [BIN, '--db', laptop, '--tenant', 'acme', 'dsfa', 'list'], { runs: 7 });
  const idle = timeProcess(process.execPath, [BIN, '--db', laptop, 'sync'], {
    runs: 7,
    env: { ...process.env, ...remote('acme') },
  });
  row(
    'sync with nothing to move',
    `${idle.toFixed(0)} ms`,
    `${ratio(idle, node0)} of node -e 0 (${node0.toFixed(0)} ms; aim < 3x)`,
  );
  row(
    '  for scale: dsfa list on the same store (no server)',
    `${list.toFixed(0)} ms`,
    `${ratio(list, node0)} of node -e 0`,
  );
} finally {
  proc.kill();
}
