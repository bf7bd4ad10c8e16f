import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { cli } from '../support/helpers.js';
import { expectReplayEqualsTables } from '../support/journal.js';
import { FakeOllama } from '../support/ollama-server.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';
import { exited, replicaClient, serve } from '../support/serve-process.js';

const TENANT = 'inhalte';
const CLIENTS = 12;

/** The fields of the answers this test reads. */
interface Reply {
  id: string;
  version: number;
  status: string;
  total_controls: number;
  modules: Array<{ module_code: string }>;
  roles: string[];
  modules_created: number;
  modules_updated: number;
  controls_linked: number;
  matrix_entries_created: number;
  errors: unknown[];
}

const quiz = (batch: number, n: number) =>
  JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => ({
      question: `Runde ${batch}, Frage ${i + 1}?`,
      options: ['a', 'b', 'c'],
      correct_index: i % 3,
      explanation: 'weil',
    })),
  });

/**
 * Two `serve` replicas on one PostgreSQL database, many clients generating, publishing and regenerating the same
 * content, quizzes and blocks at once: every invariant is checked in the database afterwards, as the superuser.
 */
describe('training content and blocks on two serve replicas of one PostgreSQL database', () => {
  let ollama: FakeOllama;
  let db = '';
  let servers: Array<Awaited<ReturnType<typeof serve>>> = [];
  let moduleId = '';

  const rows = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await asAdmin<T>(text, params, new URL(db).pathname.slice(1))).rows;

  /** The i-th request goes to replica i % 2. */
  const call = replicaClient<Reply>(
    () => servers,
    () => ({ 'x-tenant-id': TENANT }),
    60_000,
  );

  beforeAll(async () => {
    ollama = await new FakeOllama().start();
    db = await freshPostgresDatabase();
    servers = await Promise.all([0, 1].map(() => serve(['--db', db], { OLLAMA_HOST: ollama.url })));
    const m = await call(0, 'POST', '/training/modules', {
      module_code: 'MELD-1',
      title: 'Meldewege',
      description: 'Vorfälle melden',
      regulation_area: 'dsgvo',
      frequency_type: 'annual',
    });
    expect(m.status).toBe(201);
    moduleId = m.body.id;
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) {
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
    await ollama?.close();
  });

  it('concurrent generation numbers the versions once, and concurrent publishing leaves one published version', async () => {
    const generated = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => call(i, 'POST', '/training/content/generate', { module_id: moduleId })),
    );
    expect(generated.map((g) => g.status)).toEqual(generated.map(() => 201));
    const versions = await rows<{ version: number }>(
      `select version from training_content where module_id = $1 order by version`,
      [moduleId],
    );
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: CLIENTS }, (_, i) => i + 1));
    expect(generated.map((g) => g.body.version).sort((a, b) => a - b)).toEqual(versions.map((v) => v.version));

    // every draft published at once, each twice, through both replicas
    const published = await Promise.all(
      generated.flatMap((g, i) => [0, 1].map((k) => call(i + k, 'POST', `/training/content/${g.body.id}/publish`))),
    );
    expect(published.filter((p) => p.status !== 200 && p.status !== 409)).toEqual([]);
    const states = await rows<{ status: string; n: number; stamped: number }>(
      `select status, count(*)::int as n, count(published_at)::int as stamped
         from training_content where module_id = $1 group by status order by status`,
      [moduleId],
    );
    expect(states).toEqual([
      { status: 'archived', n: CLIENTS - 1, stamped: CLIENTS - 1 },
      { status: 'published', n: 1, stamped: 1 },
    ]);
    const [live] = await rows<{ id: string }>(
      `select id from training_content where module_id = $1 and status = 'published'`,
      [moduleId],
    );
    for (const i of [0, 1])
      expect((await call(i, 'GET', `/training/content/${moduleId}`)).body).toMatchObject({ id: live!.id });
  }, 120_000);

  it('concurrent quiz generation leaves exactly one whole quiz', async () => {
    const count = 4;
    ollama.reply(...Array.from({ length: CLIENTS }, (_, b) => ({ text: quiz(b, count) })));
    const answers = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        call(i, 'POST', '/training/content/generate-quiz', { module_id: moduleId, count }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const stored = await rows<{ position: number; question: string }>(
      `select position, question from training_question where module_id = $1 order by position`,
      [moduleId],
    );
    expect(stored.map((q) => q.position)).toEqual([0, 1, 2, 3]);
    const round = /^Runde (\d+),/.exec(stored[0]!.question)![1];
    expect(stored.map((q) => q.question)).toEqual(stored.map((_, i) => `Runde ${round}, Frage ${i + 1}?`));
    const logged = await rows<{ n: number }>(
      `select count(*)::int as n from training_audit where action = 'content_generated' and details::json->>'kind' = 'quiz'`,
    );
    expect(logged[0]!.n).toBe(CLIENTS);
  }, 120_000);

  it('concurrent block generation creates each module once and reports what it did once', async () => {
    const b = await call(0, 'POST', '/training/blocks', {
      name: 'Zugang',
      regulation_area: 'nis2',
      module_code_prefix: 'SEC-AUTH',
      domain_filter: 'AUTH',
      max_controls_per_module: 1,
    });
    expect(b.status).toBe(201);
    const plan = (await call(1, 'POST', `/training/blocks/${b.body.id}/preview`, {})).body;
    expect(plan.modules.length).toBeGreaterThan(3);
    // while the block generates, people create some of its modules by hand
    const generating = Array.from({ length: CLIENTS }, (_, i) =>
      call(i, 'POST', `/training/blocks/${b.body.id}/generate`, { skip_content: true }),
    );
    const byHand = plan.modules.flatMap((m, i) =>
      [0, 1].map((k) =>
        call(i + k, 'POST', '/training/modules', {
          module_code: m.module_code,
          title: 'von Hand',
          regulation_area: 'nis2',
          frequency_type: 'annual',
        }),
      ),
    );
    const answers = await Promise.all(generating);
    const made = await Promise.all(byHand);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(made.filter((m) => m.status !== 201 && m.status !== 409)).toEqual([]);
    const modules = await rows<{ module_code: string; n: number }>(
      `select module_code, count(*)::int as n from training_module where module_code like 'SEC-AUTH-%'
        group by module_code order by module_code`,
    );
    expect(modules).toEqual(plan.modules.map((m) => ({ module_code: m.module_code, n: 1 })));
    const links = await rows<{ n: number }>(
      `select count(*)::int as n from training_block_control where block_id = $1`,
      [b.body.id],
    );
    expect(links[0]!.n).toBe(plan.total_controls);
    const matrix = await rows<{ n: number }>(
      `select count(*)::int as n from training_matrix m join training_module t on t.id = m.module_id
        where t.module_code like 'SEC-AUTH-%'`,
    );
    expect(matrix[0]!.n).toBe(plan.modules.length * plan.roles.length);

    // each answer tells what its own run did: together they create each module and matrix entry once
    const sum = (k: 'modules_created' | 'modules_updated' | 'matrix_entries_created') =>
      answers.reduce((n, a) => n + a.body[k], 0);
    const created = made.filter((m) => m.status === 201).length;
    expect(sum('modules_created') + created).toBe(plan.modules.length);
    expect(sum('modules_created') + sum('modules_updated')).toBe(plan.modules.length * CLIENTS);
    expect(sum('matrix_entries_created')).toBe(plan.modules.length * plan.roles.length);
    expect(answers.map((a) => a.body.controls_linked)).toEqual(answers.map(() => plan.total_controls));
    expect(answers.flatMap((a) => a.body.errors)).toEqual([]);
  }, 120_000);

  it('the journal replays to exactly the stored rows, each written once by the run that committed, and its chain verifies', async () => {
    const byId = (r: Record<string, unknown>) => r.id as string;
    await expectReplayEqualsTables(rows, TENANT, [
      ['training_module', byId],
      ['training_question', byId],
      ['training_content', byId],
      ['training_matrix', (r) => compositeId(r.role_code as string, r.module_id as string)],
      ['training_block', byId],
      ['training_block_control', (r) => compositeId(r.block_id as string, r.control_id as string)],
      ['training_audit', byId],
    ]);
    const verified = await cli(['--db', db, '--json', 'audit', 'verify', '--tenant', TENANT]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject([{ tenant: TENANT, ok: true }]);
  }, 120_000);
});
