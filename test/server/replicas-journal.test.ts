import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { replicaClient, serve } from '../support/serve-process.js';
import { cli } from '../support/helpers.js';

type Served = Awaited<ReturnType<typeof serve>>;
type Page = {
  entries: Array<{ seq: number; entity: string; principal: string; actor: string }>;
  next_after: number | null;
};

/**
 * Four `serve` replicas appending to one tenant's journal at once: the entries of every committed change are there,
 * numbered without gaps or doubles, and the chain verifies. Two tenants written at once do not queue behind each other.
 */
describe('the journal on four serve replicas sharing one PostgreSQL database', () => {
  const replicas: Served[] = [];
  let db: string;
  beforeAll(async () => {
    db = await freshPostgresDatabase();
    replicas.push(...(await Promise.all([1, 2, 3, 4].map(() => serve(['--db', db])))));
  }, 60_000);
  afterAll(() => {
    for (const r of replicas) r.proc.kill('SIGTERM');
  });

  const client = (tenant: string) =>
    replicaClient<Record<string, unknown>>(
      () => replicas,
      (i) => ({ 'x-tenant-id': tenant, 'x-user-id': `client-${i}` }),
    );
  const burst = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

  async function entries(tenant: string) {
    const all: Page['entries'] = [];
    for (let after = 0; ;) {
      const r = await client(tenant)(0, 'GET', `/journal?after=${after}&limit=1000`);
      const page = r.body as unknown as Page;
      all.push(...page.entries);
      if (page.next_after === null) return all;
      after = page.next_after;
    }
  }

  it('numbers the entries of concurrent writers on one tenant without gaps or doubles, and the chain verifies', async () => {
    const call = client('busy');
    const first = await call(0, 'POST', '/dsfa?tenant_id=busy', { title: 'Gemeinsam' });
    const id = first.body.id as string;
    const n = 60;
    const results = await burst(n, (i) =>
      i % 3 === 0
        ? call(i, 'PUT', `/dsfa/${id}?tenant_id=busy`, { description: `Fassung ${i}` })
        : call(i, 'POST', '/dsfa?tenant_id=busy', { title: `Verfahren ${i}` }),
    );
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const all = await entries('busy');
    // each change: the record and its audit entry
    expect(all).toHaveLength(2 * (n + 1));
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(new Set(all.map((e) => e.actor))).toContain('client-7');
    expect(new Set(all.map((e) => e.principal))).toEqual(new Set(['anonymous']));
    const verified = await cli(['--db', db, '--json', 'audit', 'verify', '--tenant', 'busy']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)[0]).toMatchObject({ ok: true, entries: all.length });
  }, 120_000);

  it('does not make one tenant wait for another', async () => {
    // the 'queue' tenant's journal lock held by another session, as a long writer of that tenant would hold it: its
    // writes wait, while every write of another tenant goes through on every replica (no timing involved)
    const holder = new pg.Client({ connectionString: db });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(hashtext('compliance journal'), hashtext('queue'))`);
      let queued = false;
      const queue = client('queue')(0, 'POST', '/dsfa?tenant_id=queue', { title: 'Q' }).then((r) => {
        queued = true;
        return r;
      });
      const alone = await burst(4, (i) => client('alone')(i, 'POST', '/dsfa?tenant_id=alone', { title: `A${i}` }));
      expect(alone.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      expect((await entries('alone')).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(queued).toBe(false);
      await holder.query(`select pg_advisory_unlock(hashtext('compliance journal'), hashtext('queue'))`);
      expect((await queue).status).toBe(201);
      expect(await entries('queue')).toHaveLength(2);
    } finally {
      await holder.end();
    }
  }, 120_000);
});
