// Training at scale: escalation over 100,000 assignments (a quarter overdue), `training overdue --json` as a process
// against `node -e 0`, and `assignments compute --users` for 10,000 users with three roles each.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, ratio, row, timeProcess, tmp } from './lib.mjs';

const dir = tmp();
const db = join(dir, 'training.db');
const run = (...args) => {
  const r = spawnSync(process.execPath, [BIN, '--db', db, ...args], { encoding: 'utf8', maxBuffer: 1 << 29 });
  if (r.status !== 0 && r.status !== 6) throw new Error(r.stderr);
  return r;
};
run('training', 'catalog', 'install');

// 100,000 assignments written straight into the table (setup, not measured): every fourth one overdue
const sqlite = new Database(db);
const modules = sqlite.prepare('select id from training_module').pluck().all();
const ins = sqlite.prepare(`insert into training_assignment (id, tenant_id, module_id, user_id, user_name, user_email, role_code, status,
  progress_percent, deadline, escalation_level, quiz_passed, certificate_id, started_at, completed_at, valid_until, created_at, updated_at)
  values (?, 'default', ?, ?, ?, ?, 'R9', 'pending', 0, ?, 0, 0, null, null, null, null, ?, ?)`);
const now = Date.now();
sqlite.transaction(() => {
  for (let i = 0; i < 100_000; i++) {
    const deadline = new Date(now + (i % 4 === 0 ? -(1 + (i % 60)) : 10 + (i % 50)) * 86_400_000).toISOString();
    const created = new Date(now - 40 * 86_400_000).toISOString();
    ins.run(`00000000-0000-7000-8000-${String(i).padStart(12, '0')}`, modules[i % modules.length], `user${i}`, `User ${i}`, `user${i}@example.com`, deadline, created, created);
  }
})();
sqlite.close();

let t = performance.now();
const esc = JSON.parse(run('training', 'escalation', 'check', '--json').stdout);
const escMs = performance.now() - t;
row('escalation check, 100,000 assignments (whole process)', `${escMs.toFixed(0)} ms`, `checked ${esc.total_checked}, escalated ${esc.escalated} (target < 1 s)`);

const env = { ...process.env, COMPLIANCE_DB: db };
const node0 = timeProcess(process.execPath, ['-e', '0'], { runs: 7 });
const overdue = timeProcess(process.execPath, [BIN, 'training', 'overdue', '--json'], { runs: 7, env, ok: [0, 6] });
row('node -e 0 (reference)', `${node0.toFixed(0)} ms`);
row('training overdue --json (25,000 overdue rows printed)', `${overdue.toFixed(0)} ms`, `${ratio(overdue, node0)} of node -e 0 (target <= 3x)`);
// the fixed part of that figure: the same command on an empty store (start-up, config, store, one query)
const emptyDb = join(dir, 'empty.db');
spawnSync(process.execPath, [BIN, '--db', emptyDb, 'training', 'overdue']);
const empty = timeProcess(process.execPath, [BIN, 'training', 'overdue', '--json'], { runs: 7, env: { ...process.env, COMPLIANCE_DB: emptyDb } });
row('training overdue --json on an empty store (floor)', `${empty.toFixed(0)} ms`, `${ratio(empty, node0)} of node -e 0`);

const lines = ['user_id,user_name,user_email,roles'];
for (let i = 0; i < 10_000; i++) lines.push(`staff${i},Person ${i},p${i}@example.com,R9;R${1 + (i % 8)};R10`);
const users = join(dir, 'users.csv');
writeFileSync(users, lines.join('\n') + '\n');
t = performance.now();
const c = JSON.parse(run('training', 'assignments', 'compute', '--users', users, '--json').stdout);
row('assignments compute --users, 10,000 users x 3 roles', `${((performance.now() - t) / 1000).toFixed(1)} s`, `${c.created} assignments created (target < 10 s)`);
