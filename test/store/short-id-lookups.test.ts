import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { shortId } from '../../src/domain/short-id.js';
import { ID_TAIL_INDEXES, idMatchQuery } from '../../src/store/kysely/id-match.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { freshStore } from '../support/helpers.js';
import { asAdmin } from '../support/postgres.js';

/** The database name of a PostgreSQL store's URL. */
const databaseOf = (local: LocalBackend) => new URL(local.store.location).pathname.slice(1);

const csv = (users: string[]) =>
  'user_id,data_point_id,granted\n' + users.map((u) => `${u},newsletter,true\n`).join('');
const stream = (text: string) => ({
  body: (async function* () {
    yield new TextEncoder().encode(text);
  })(),
  content_type: 'text/csv',
});

// Short ids are the last 8 characters of an id; the consent table may hold a million rows, so a lookup reads an
// index, never the table. Lookups run on the store's administrative connection (with the tenant in the query): under
// PostgreSQL's row-level security no index on substr() could serve them (see src/backend/local/short-ids.ts).
describe.each(['sqlite', 'postgres'] as const)('short id lookups on %s', (engine) => {
  let local: LocalBackend;
  const T = { tenant: 'kurz', actor: 'tester' };
  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
  });
  afterAll(async () => local.close());

  it('gives consents imported in separate batches ends of their own, so each is found by its short id', async () => {
    await local.consents.import({ ...T, stream: stream(csv(['a1', 'a2', 'a3'])) });
    await local.consents.import({ ...T, stream: stream(csv(['b1', 'b2', 'b3'])) });
    const { consents } = await local.consents.list({ ...T, query: { limit: 50 } });
    expect(consents).toHaveLength(6);
    // each batch counts from a random start: the same row number in two batches ends differently
    expect(new Set(consents.map((c) => shortId(c.id))).size).toBe(6);
    for (const c of consents)
      expect((await local.consents.history({ ...T, params: { id: shortId(c.id) } }))[0]!.consent_id).toBe(c.id);
    // ids of one batch still count up in row order, so they sort in the order of the file
    const batch = consents.filter((c) => c.user_id.startsWith('a')).sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(batch.map((c) => c.user_id)).toEqual(['a1', 'a2', 'a3']);
  });

  it.each(ID_TAIL_INDEXES.map(([table, column]) => [`${table}.${column}`, table, column]))(
    'finds an id of %s by its end and by its start on an index',
    async (_name, table, column) => {
      const plan = async (match: { prefix: string } | { suffix: string }) => {
        const q = idMatchQuery(local.store.admin, table, column, T.tenant, match, 11).compile();
        if (engine === 'sqlite') {
          const rows = await local.store.admin.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
          );
          return rows.rows.map((r) => r.detail).join('\n');
        }
        // a planner may read a table this small whole; switched off, it shows whether an index can serve the query
        return forTenant(T.tenant, () =>
          local.store.admin.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]),
            );
            return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
          }),
        );
      };
      const byEnd = await plan({ suffix: '4e5f6a7b' });
      const byStart = await plan({ prefix: '019a3b4c-5d6e' });
      if (engine === 'sqlite') {
        expect(byEnd).toMatch(new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${table}_tenant_id_tail`));
        expect(byStart).toMatch(new RegExp(`SEARCH ${table} USING`));
        expect(`${byEnd}\n${byStart}`).not.toMatch(/\bSCAN\b(?! .*TEMP)/);
      } else {
        // on tables this small PostgreSQL may take any index of the tenant; the large table's plan is checked below
        expect(byEnd).toMatch(/Index/);
        expect(byStart).toMatch(/Index/);
        expect(`${byEnd}\n${byStart}`).not.toMatch(/Seq Scan/);
      }
    },
  );

  it('looks up the end of a consent id in its own index when the tenant holds many consents', async () => {
    const many = { ...T, tenant: 'viele' };
    const users = Array.from({ length: 5000 }, (_, i) => `u${i}@example.com`);
    await local.consents.import({ ...many, stream: stream(csv(users)) });
    if (engine === 'postgres') await asAdmin('analyze consent', [], databaseOf(local));
    else await sql`analyze`.execute(local.store.db);
    const q = idMatchQuery(local.store.admin, 'consent', 'id', many.tenant, { suffix: '4e5f6a7b' }, 11).compile();
    const explain = engine === 'sqlite' ? 'explain query plan' : 'explain';
    const rows = await local.store.admin.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`${explain} ${q.sql}`, [...q.parameters]),
    );
    const plan = rows.rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
    expect(plan).toContain('consent_tenant_id_tail');
    expect(plan).not.toMatch(/Seq Scan|\bSCAN consent\b/);
  });
});
