import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { TRAIL_TABLES } from '../../src/domain/journal/journal-store.port.js';
import { SYNC_TABLES } from '../../src/store/kysely/replica.store.js';
import { pageOrder, tenantPageQuery, tenantPages } from '../../src/store/kysely/tenant-pages.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

// `audit verify` reads every audit trail and a bundle every table of a tenant, a page at a time. Each page must
// continue an index where the last one ended: ordered by id, SQLite sorted the tenant's whole consent history (keyed
// by tenant, consent and time) for every page of 5,000, and verifying 300,000 consents spent 5 of its 10 s there.
/**
 * Tables read by id, by bundles only, where SQLite takes the tenant's index of another order and sorts the tenant's
 * rows for each page of 5,000 (none has an index on (tenant_id, id), which would cost every write). Known, and
 * listed so that no other table joins them unnoticed.
 */
const SORTED_ON_SQLITE = new Set([
  'legal_document_version',
  'training_module',
  'training_content',
  'training_assignment',
  'training_certificate',
  'training_media',
]);

describe.each(ENGINE_NAMES)('a tenant’s rows a page at a time, on %s', (engine) => {
  let local: LocalBackend;
  const tenant = 'seiten';
  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    const c = await local.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true },
    });
    // entries of one consent at one instant, and one of another tenant between them: pages must split ties by id
    const at = '2026-01-01T00:00:00.000Z';
    const entry = (id: string, t = tenant) => ({
      id,
      tenant_id: t,
      consent_id: c.id,
      action: 'renewed',
      consent_version: '1',
      ip_address: null,
      user_agent: null,
      source: 'api',
      created_at: at,
      import_run_id: null,
    });
    const rows = ['h5', 'h1', 'h4', 'h2', 'h3'].map((id) => entry(id));
    await local.store.admin
      .insertInto('consent_history')
      .values([...rows, entry('h0-other', 'fremd')])
      .execute();
  });
  afterAll(async () => local.close());

  it('reads every row of the tenant once, also across ties of the order, and none of another tenant', async () => {
    const all = await local.store.admin
      .selectFrom('consent_history')
      .select('id')
      .where('tenant_id', '=', tenant)
      .execute();
    const read: string[] = [];
    for await (const page of tenantPages(local.store.admin, 'consent_history', tenant, 2)) {
      expect(page.length).toBeLessThanOrEqual(2);
      read.push(...page.map((r) => String(r.id)));
    }
    expect(read).toHaveLength(6);
    expect(new Set(read)).toEqual(new Set(all.map((r) => r.id)));
    // the ties in id order, before the consent's grant (written now, after their time)
    expect(read.slice(0, 5)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
  });

  const tables = [
    ...new Set([...TRAIL_TABLES, ...Object.keys(SYNC_TABLES).filter((t) => SYNC_TABLES[t]!.id[0] === 'id')]),
  ];
  it.each(tables)('continues an index of %s, never sorting the tenant’s rows', async (table) => {
    const after = pageOrder(table).map(() => 'x');
    const q = tenantPageQuery(local.store.admin, table, tenant, after, 5000).compile();
    if (engine === 'sqlite') {
      const rows = await local.store.admin.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
      );
      const plan = rows.rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(new RegExp(`SEARCH ${table} USING`));
      expect(plan).not.toMatch(/\bSCAN\b/);
      if (!SORTED_ON_SQLITE.has(table)) expect(plan).not.toMatch(/TEMP B-TREE/);
      return;
    }
    // a planner may read a table this small whole; switched off, it shows whether an index can serve the query: on
    // the owner's connection (audit verify) and on the application's, under row-level security (bundles)
    for (const db of [local.store.admin, local.store.db]) {
      const plan = await forTenant(tenant, () =>
        db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`set local enable_sort = off`.execute(trx);
          const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]),
          );
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        }),
      );
      expect(plan).toMatch(/Index/);
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    }
  });
});
