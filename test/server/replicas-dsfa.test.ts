import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { replicaClient, serve } from '../support/serve-process.js';

type Served = Awaited<ReturnType<typeof serve>>;

/**
 * Two `serve` replicas on one PostgreSQL database, hammered on the same assessment from many clients at once: no
 * update is lost, no audit entry is lost or written twice, and a record is deleted exactly once.
 */
describe('DSFA on two serve replicas sharing one PostgreSQL database', () => {
  const replicas: Served[] = [];
  beforeAll(async () => {
    const db = await freshPostgresDatabase();
    replicas.push(await serve(['--db', db]));
    replicas.push(await serve(['--db', db]));
  }, 60_000);
  afterAll(() => {
    for (const r of replicas) r.proc.kill('SIGTERM');
  });

  const call = replicaClient<Record<string, unknown>>(
    () => replicas,
    (i) => ({ 'x-tenant-id': 'replicas', 'x-user-id': `client-${i}` }),
  );
  const burst = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

  it('writes every concurrent update and its audit entry exactly once', async () => {
    const created = await call(0, 'POST', '/dsfa', { title: 'Bewerbermanagement' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const n = 30;
    const updates = await burst(n, (i) => call(i, 'PUT', `/dsfa/${id}`, { description: `Fassung ${i}` }));
    expect(updates.map((u) => u.status)).toEqual(Array(n).fill(200));

    const after = await call(1, 'GET', `/dsfa/${id}`);
    // the stored description is one of the written ones, and the last audit entry says which
    expect((after.body.description as string).startsWith('Fassung ')).toBe(true);
    const audit = await call(0, 'GET', `/dsfa/audit-log?dsfa_id=${id}&limit=500`);
    type Values = { description?: string | null };
    type Entry = { action: string; changed_by: string; old_values: Values; new_values: Values };
    const entries = audit.body as unknown as Entry[];
    const updated = entries.filter((e) => e.action === 'UPDATE');
    expect(updated).toHaveLength(n);
    expect(new Set(updated.map((e) => e.changed_by)).size).toBe(n);
    // No lost update: every update started from a different state (two that read the same one would both record
    // it as their old value), and the state no update started from is the one stored.
    const olds = updated.map((e) => String(e.old_values.description ?? ''));
    expect(new Set(olds).size).toBe(n);
    const last = updated.map((e) => e.new_values.description).filter((d) => !olds.includes(String(d)));
    expect(last).toEqual([after.body.description]);
    expect(entries.filter((e) => e.action === 'CREATE')).toHaveLength(1);
  }, 60_000);

  it('creates every concurrent assessment once and deletes one exactly once', async () => {
    const n = 24;
    const created = await burst(n, (i) => call(i, 'POST', '/dsfa', { title: `Verfahren ${i}` }));
    expect(created.map((c) => c.status)).toEqual(Array(n).fill(201));
    expect(new Set(created.map((c) => c.body.id)).size).toBe(n);

    const id = created[0]!.body.id as string;
    const deletes = await burst(6, (i) => call(i, 'DELETE', `/dsfa/${id}`));
    const statuses = deletes.map((d) => d.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404]);
    const audit = await call(1, 'GET', `/dsfa/audit-log?dsfa_id=${id}&limit=100`);
    const actions = (audit.body as unknown as { action: string }[]).map((e) => e.action).sort();
    expect(actions).toEqual(['CREATE', 'DELETE']);
  }, 60_000);
});
