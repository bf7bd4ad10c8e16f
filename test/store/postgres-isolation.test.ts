import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';

describe('tenant isolation on PostgreSQL (row-level security)', () => {
  let local: LocalBackend;
  let store: PostgresStore;
  let database = '';
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    database = new URL(url).pathname.slice(1);
    local = await createLocalBackend(url);
    store = local.store as PostgresStore;
    for (const tenant of ['a', 'b', 'b'])
      await local.dsfa.create({ tenant, actor: 'x', body: { title: `assessment of ${tenant}` } });
  });
  afterAll(async () => local.close());

  it('shows a query that forgot its tenant filter only the rows of the tenant in scope', async () => {
    const forgetful = () => store.db.selectFrom('dsfa').select(['tenant_id', 'title']).execute();
    expect((await forTenant('a', forgetful)).map((r) => r.tenant_id)).toEqual(['a']);
    expect((await forTenant('b', forgetful)).map((r) => r.tenant_id)).toEqual(['b', 'b']);
    expect(await forTenant('c', forgetful)).toEqual([]);
    // outside any tenant's scope nothing is visible at all
    expect(await forgetful()).toEqual([]);
    // the audit trail likewise
    const audit = () => store.db.selectFrom('dsfa_audit').select('tenant_id').execute();
    expect((await forTenant('a', audit)).map((r) => r.tenant_id)).toEqual(['a']);
  });

  it('refuses to write a row into another tenant, even without a filter in the query', async () => {
    const write = () =>
      forTenant('a', () =>
        store.db
          .insertInto('cookie_banner')
          .values({ tenant_id: 'b', categories: '[]', config: '{}', updated_at: '2026-01-01T00:00:00.000Z' })
          .execute(),
      );
    await expect(write()).rejects.toThrow(/row-level security/);
    const update = await forTenant('a', () => store.db.updateTable('dsfa').set({ title: 'taken over' }).execute());
    expect(Number(update[0]!.numUpdatedRows)).toBe(1); // only a's own row
    const titles = await forTenant('b', () => store.db.selectFrom('dsfa').select('title').execute());
    expect(titles.map((t) => t.title)).toEqual(['assessment of b', 'assessment of b']);
  });

  it('runs requests as a role that can neither bypass the policies nor own the tables', async () => {
    const { rows } = await forTenant('a', () =>
      sql<{
        role: string;
        bypass: boolean;
        superuser: boolean;
      }>`select current_user as role, rolbypassrls as bypass, rolsuper as superuser
        from pg_roles where rolname = current_user`.execute(store.db),
    );
    expect(rows[0]).toEqual({ role: 'compliance_app', bypass: false, superuser: false });
    await expect(
      forTenant('a', () => sql`alter table dsfa disable row level security`.execute(store.db)),
    ).rejects.toThrow(/must be owner/);
  });

  it('has a policy on every table with a tenant_id column', async () => {
    const { rows } = await asAdmin<{ table_name: string; rls: boolean; policy: string | null }>(
      `select c.table_name, t.relrowsecurity as rls, p.policyname as policy
         from information_schema.columns c
         join pg_class t on t.relname = c.table_name and t.relnamespace = 'public'::regnamespace
         left join pg_policies p on p.tablename = c.table_name and p.schemaname = 'public'
        where c.table_schema = 'public' and c.column_name = 'tenant_id'
        order by c.table_name`,
      [],
      database,
    );
    expect(rows.length).toBeGreaterThan(15);
    for (const r of rows) expect(r, r.table_name).toMatchObject({ rls: true, policy: 'tenant_isolation' });
  });
});
