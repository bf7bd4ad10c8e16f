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
const ins =
  sqlite.prepare(`insert into training_assignment (id, tenant_id, module_id, user_id, user_name, user_email, role_code, status,
  progress_percent, deadline, escalation_level, quiz_passed, certificate_id, started_at, completed_at, valid_until, created_at, updated_at)
  values (?, 'default', ?, ?, ?, ?, 'R9', 'pending', 0, ?, 0, 0, null, null, null, null, ?, ?)`);
const now = Date.now();
sqlite.transaction(() => {
  for (let i = 0; i < 100_000; i++) {
    const deadline = new Date(now + (i % 4 === 0 ? -(1 + (i % 60)) : 10 + (i % 50)) * 86_400_000).toISOString();
    const created = new Date(now - 40 * 86_400_000).toISOString();
    ins.run(
      `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      modules[i % modules.length],
      `user${i}`,
      `User ${i}`,
      `user${i}@example.com`,
      deadline,
      created,
      created,
    );
  }
})();
sqlite.close();

let t = performance.now();
const esc = JSON.parse(run('training', 'escalation', 'check', '--json').stdout);
const escMs = performance.now() - t;
row(
  'escalation check, 100,000 assignments (whole process)',
  `${escMs.toFixed(0)} ms`,
  `checked ${esc.total_checked}, escalated ${esc.escalated} (target < 1 s)`,
);

const env = { ...process.env, COMPLIANCE_DB: db };
const node0 = timeProcess(process.execPath, ['-e', '0'], { runs: 7 });
const overdue = timeProcess(process.execPath, [BIN, 'training', 'overdue', '--json'], { runs: 7, env, ok: [0, 6] });
row('node -e 0 (reference)', `${node0.toFixed(0)} ms`);
row(
  'training overdue --json (25,000 overdue rows printed)',
  `${overdue.toFixed(0)} ms`,
  `${ratio(overdue, node0)} of node -e 0 (target <= 3x)`,
);
// the fixed part of that figure: the same command on an empty store (start-up, config, store, one query)
const emptyDb = join(dir, 'empty.db');
spawnSync(process.execPath, [BIN, '--db', emptyDb, 'db', 'init']);
const empty = timeProcess(process.execPath, [BIN, 'training', 'overdue', '--json'], {
  runs: 7,
  env: { ...process.env, COMPLIANCE_DB: emptyDb },
});
// the floor for any Node process answering this: open the store, one query in which SQLite itself builds the JSON
// (no CLI, no validation, no JavaScript objects per row), write it out
const floorScript = join(dir, 'overdue-floor.mjs');
writeFileSync(
  floorScript,
  `import Database from ${JSON.stringify(new URL(import.meta.resolve('better-sqlite3')).pathname)};
const db = new Database(${JSON.stringify(db)}, { readonly: true });
const now = new Date().toISOString();
const json = db.prepare(\`select cast(json_group_array(json_object('id', a.id, 'tenant_id', a.tenant_id, 'module_id', a.module_id,
  'user_id', a.user_id, 'user_name', a.user_name, 'user_email', a.user_email, 'role_code', a.role_code, 'status', 'overdue',
  'progress_percent', a.progress_percent, 'deadline', a.deadline, 'escalation_level', a.escalation_level,
  'quiz_passed', json(iif(a.quiz_passed, 'true', 'false')), 'certificate_id', a.certificate_id, 'started_at', a.started_at,
  'completed_at', a.completed_at, 'valid_until', a.valid_until, 'created_at', a.created_at, 'updated_at', a.updated_at,
  'module_code', m.module_code, 'module_title', m.title, 'days_overdue', cast(julianday(@now) - julianday(a.deadline) as integer))) as blob)
  from training_assignment a join training_module m on m.id = a.module_id
  where a.tenant_id = 'default' and a.status in ('pending', 'in_progress') and a.deadline < @now order by a.deadline\`).pluck().get({ now });
process.stdout.write(json);
`,
);
const floor = timeProcess(process.execPath, [floorScript], { runs: 7 });
row(
  '  floor: one query with JSON built by SQLite, no CLI',
  `${floor.toFixed(0)} ms`,
  `${ratio(floor, node0)} of node -e 0`,
);
row(
  'training overdue --json on an empty store (fixed cost)',
  `${empty.toFixed(0)} ms`,
  `${ratio(empty, node0)} of node -e 0`,
);

const lines = ['user_id,user_name,user_email,roles'];
for (let i = 0; i < 10_000; i++) lines.push(`staff${i},Person ${i},p${i}@example.com,R9;R${1 + (i % 8)};R10`);
const users = join(dir, 'users.csv');
writeFileSync(users, lines.join('\n') + '\n');
t = performance.now();
const c = JSON.parse(run('training', 'assignments', 'compute', '--users', users, '--json').stdout);
row(
  'assignments compute --users, 10,000 users x 3 roles',
  `${((performance.now() - t) / 1000).toFixed(1)} s`,
  `${c.created} assignments created (target < 10 s)`,
);
