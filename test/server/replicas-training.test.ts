import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { expectReplayEqualsTables } from '../support/journal.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';
import { BIN, exited, replicaClient, serve } from '../support/serve-process.js';

const run = promisify(execFile);
const TENANT = 'firma';
const USERS = 12;
const DAY = 86_400_000;

/** The fields of the answers this test reads. */
interface Reply {
  id: string;
  created: number;
  escalated: number;
  passed: boolean;
  certificate_id: string;
  questions: Array<{ id: string }>;
}

/**
 * Two `serve` replicas and CLI processes on one PostgreSQL database, hammering the same training records at once:
 * every invariant is checked in the database afterwards, as the superuser (which sees every row).
 */
describe('training on two serve replicas of one PostgreSQL database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-replicas-'));
  let db = '';
  let servers: Array<Awaited<ReturnType<typeof serve>>> = [];
  const moduleIds: string[] = [];

  const rows = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await asAdmin<T>(text, params, new URL(db).pathname.slice(1))).rows;

  /** The i-th request goes to replica i % 2. */
  const call = replicaClient<Reply>(
    () => servers,
    () => ({ 'x-tenant-id': TENANT }),
  );

  const cli = (args: string[]) =>
    run(process.execPath, [BIN, ...args, '--db', db, '--tenant', TENANT, '--json'], { timeout: 60_000 });

  const user = (u: number) => ({
    user_id: `u${u}`,
    user_name: `Person ${u}`,
    user_email: `p${u}@firma.example`,
    roles: ['R1'],
    deadline_days: 1,
  });

  beforeAll(async () => {
    db = await freshPostgresDatabase();
    servers = await Promise.all([serve(['--db', db]), serve(['--db', db])]);
    for (const code of ['DSGVO-01', 'IT-SEC-01']) {
      const m = await call(0, 'POST', '/training/modules', {
        module_code: code,
        title: `Modul ${code}`,
        description: 'Pflichten im Alltag',
        regulation_area: 'dsgvo',
        frequency_type: 'annual',
        questions: [{ question: 'Meldefrist?', options: ['24 h', '72 h'], correct_index: 1, explanation: 'Art. 33' }],
      });
      expect(m.status).toBe(201);
      moduleIds.push(m.body.id);
      expect((await call(1, 'POST', '/training/matrix', { role_code: 'R1', module_id: m.body.id })).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) {
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('concurrent compute creates each assignment once', async () => {
    const csv = join(dir, 'staff.csv');
    writeFileSync(
      csv,
      'user_id,user_name,user_email,roles\n' +
        Array.from({ length: USERS }, (_, u) => `u${u},Person ${u},p${u}@firma.example,R1`).join('\n') +
        '\n',
    );
    const http = Array.from({ length: USERS * 4 }, (_, i) =>
      call(i, 'POST', '/training/assignments/compute', user(i % USERS)),
    );
    const bulk = Array.from({ length: 2 }, (_, i) =>
      call(i, 'POST', '/training/assignments/compute-bulk', {
        users: Array.from({ length: USERS }, (_, u) => user(u)),
      }),
    );
    const processes = [0, 1].map(() =>
      cli(['training', 'assignments', 'compute', '--users', csv, '--deadline-days', '1']),
    );
    const answers = await Promise.all([...http, ...bulk]);
    await Promise.all(processes);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    const per = await rows<{ user_id: string; module_id: string; n: number }>(
      `select user_id, module_id, count(*)::int as n from training_assignment group by user_id, module_id`,
    );
    expect(per).toHaveLength(USERS * moduleIds.length);
    expect(per.filter((r) => r.n !== 1)).toEqual([]);
    const assigned = await rows<{ n: number }>(
      `select count(*)::int as n from training_audit where action = 'assigned'`,
    );
    expect(assigned[0]!.n).toBe(USERS * moduleIds.length);
    const reported = answers.slice(0, USERS * 4).reduce((n, a) => n + a.body.created, 0);
    expect(reported).toBeLessThanOrEqual(USERS * moduleIds.length);
  }, 120_000);

  it('concurrent escalation checks escalate each assignment once per level', async () => {
    const total = USERS * moduleIds.length;
    for (const [days, level] of [
      [10, 1],
      [60, 4],
    ] as const) {
      const asOf = new Date(Date.now() + days * DAY).toISOString();
      const http = Array.from({ length: 10 }, (_, i) => call(i, 'POST', '/training/escalation/check', { as_of: asOf }));
      const processes = [0, 1].map(() => cli(['training', 'escalation', 'check', '--as-of', asOf, '--force']));
      const answers = await Promise.all(http);
      const outputs = await Promise.all(processes);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const escalated =
        answers.reduce((n, a) => n + a.body.escalated, 0) +
        outputs.reduce((n, o) => n + JSON.parse(o.stdout).escalated, 0);
      expect(escalated, `escalations reported at level ${level}`).toBe(total);
      const levels = await rows<{ escalation_level: number; n: number }>(
        `select escalation_level, count(*)::int as n from training_assignment group by escalation_level`,
      );
      expect(levels).toEqual([{ escalation_level: level, n: total }]);
    }
    const entries = await rows<{ entity_id: string; level: string; n: number }>(
      `select entity_id, details::json->>'new_level' as level, count(*)::int as n
         from training_audit where action = 'escalated' group by entity_id, details::json->>'new_level'`,
    );
    expect(entries).toHaveLength(total * 2);
    expect(entries.filter((e) => e.n !== 1)).toEqual([]);
  }, 120_000);

  it('concurrent progress starts an assignment once', async () => {
    const open = await rows<{ id: string }>(`select id from training_assignment order by id desc limit 6`);
    const answers = await Promise.all(
      open.flatMap((a, k) =>
        [10, 20, 30, 40].map((p, i) => call(i + k, 'POST', `/training/assignments/${a.id}/progress`, { progress: p })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const started = await rows<{ entity_id: string; n: number }>(
      `select entity_id, count(*)::int as n from training_audit where action = 'started' group by entity_id`,
    );
    expect(started.map((r) => r.n)).toEqual(open.map(() => 1));
  }, 120_000);

  it('completing twice is safe and a certificate is issued once per completion', async () => {
    const open = await rows<{ id: string; module_id: string }>(
      `select id, module_id from training_assignment order by id limit 8`,
    );
    for (const [i, a] of open.entries()) {
      expect((await call(i, 'POST', `/training/assignments/${a.id}/start`)).status).toBe(200);
      const quiz = await call(i + 1, 'GET', `/training/quiz/${a.module_id}`);
      const submitted = await call(i, 'POST', `/training/quiz/${a.module_id}/submit`, {
        assignment_id: a.id,
        answers: quiz.body.questions.map((q: { id: string }) => ({ question_id: q.id, selected_index: 1 })),
      });
      expect(submitted.body.passed).toBe(true);
    }
    const completions = await Promise.all(
      open.flatMap((a, k) => [0, 1, 2, 3].map((i) => call(i + k, 'POST', `/training/assignments/${a.id}/complete`))),
    );
    for (const [k] of open.entries())
      expect(
        completions
          .slice(k * 4, k * 4 + 4)
          .map((c) => c.status)
          .sort(),
      ).toEqual([200, 409, 409, 409]);

    const issued = await Promise.all(
      open.flatMap((a, k) => [0, 1, 2, 3].map((i) => call(i + k, 'POST', `/training/certificates/generate/${a.id}`))),
    );
    expect(issued.map((c) => c.status)).toEqual(issued.map(() => 201));
    for (const [k, a] of open.entries()) {
      const ids = new Set(issued.slice(k * 4, k * 4 + 4).map((c) => c.body.certificate_id));
      const [stored] = await rows<{ id: string }>(`select id from training_certificate where assignment_id = $1`, [
        a.id,
      ]);
      expect([...ids]).toEqual([stored!.id]);
      const [own] = await rows<{ certificate_id: string }>(
        `select certificate_id from training_assignment where id = $1`,
        [a.id],
      );
      expect(own!.certificate_id).toBe(stored!.id);
    }
    const audit = await rows<{ action: string; n: number }>(
      `select action, count(*)::int as n from training_audit
        where action in ('completed', 'certificate_issued') group by action order by action`,
    );
    expect(audit).toEqual([
      { action: 'certificate_issued', n: open.length },
      { action: 'completed', n: open.length },
    ]);
    expect(await rows(`select 1 from training_certificate`)).toHaveLength(open.length);
  }, 120_000);

  it('the journal replays to exactly the stored rows, each written once by the run that committed, and its chain verifies', async () => {
    const byId = (r: Record<string, unknown>) => r.id as string;
    await expectReplayEqualsTables(rows, TENANT, [
      ['training_module', byId],
      ['training_question', byId],
      ['training_matrix', (r) => compositeId(r.role_code as string, r.module_id as string)],
      ['training_assignment', byId],
      ['training_quiz_attempt', byId],
      ['training_certificate', byId],
      ['training_audit', byId],
    ]);
    // exits 0 (execFile throws otherwise), and says so for the tenant's chain
    const verified = await cli(['audit', 'verify']);
    expect(JSON.parse(verified.stdout)).toMatchObject([{ tenant: TENANT, ok: true }]);
  }, 120_000);
});
