import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';

const opened: LocalBackend[] = [];
afterAll(async () => {
  for (const b of opened) await b.close();
});

async function backend(url: string): Promise<LocalBackend> {
  const b = await createLocalBackend(url);
  opened.push(b);
  return b;
}

/** The statistics counted the slow way, straight from the consent table, as the store's owner. */
async function counted(database: string, tenant: string) {
  const { rows } = await asAdmin<{ data_point_id: string; total: number; active: number; revoked: number }>(
    `select data_point_id, count(*)::int as total, count(*) filter (where granted = 1 and revoked_at is null)::int as active,
       count(revoked_at)::int as revoked
     from consent where tenant_id = $1 group by data_point_id order by data_point_id`,
    [tenant],
    database,
  );
  const users = await asAdmin<{ n: number }>(
    'select count(distinct user_id)::int as n from consent where tenant_id = $1',
    [tenant],
    database,
  );
  return {
    total_consents: rows.reduce((n, r) => n + r.total, 0),
    active_consents: rows.reduce((n, r) => n + r.active, 0),
    revoked_consents: rows.reduce((n, r) => n + r.revoked, 0),
    unique_users: users.rows[0]!.n,
    by_data_point: Object.fromEntries(rows.map(({ data_point_id, ...d }) => [data_point_id, d])),
  };
}

async function grant(b: LocalBackend, tenant: string, user_id: string, data_point_id: string, granted = true) {
  return b.consents.create({ tenant, actor: 'test', body: { user_id, data_point_id, granted } });
}

describe('consent statistics from tallies on PostgreSQL (migration 0013)', () => {
  it('counts what a store held before the upgrade, then every write after it', async () => {
    const url = await freshPostgresDatabase();
    const database = new URL(url).pathname.slice(1);
    const before = await backend(url);
    for (const [tenant, user, dp, granted] of [
      ['a', 'anna', 'newsletter', true],
      ['a', 'anna', 'analytics', false],
      ['a', 'ben', 'newsletter', true],
      ['b', 'anna', 'newsletter', true],
    ] as const)
      await grant(before, tenant, user, dp, granted);
    const first = await grant(before, 'a', 'carl', 'analytics');
    await before.consents.revoke({ tenant: 'a', actor: 'test', params: { id: first.id } });
    await before.close();
    opened.pop();

    // back to the schema before the tallies, as a store written by the previous version
    const owner = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }),
    });
    const migrator = new Migrator({ db: owner, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateDown()).error).toBeUndefined();
    await owner.destroy();

    const after = await backend(url);
    const stats = (tenant: string) => after.consents.stats({ tenant, actor: 'test' });
    for (const tenant of ['a', 'b', 'nobody'])
      expect(await stats(tenant)).toMatchObject(await counted(database, tenant));
    expect(await stats('a')).toMatchObject({ total_consents: 4, unique_users: 3, revoked_consents: 1 });

    // writes after the upgrade: new users, a repeat user, a refusal, a revoke, a renewal with a new version
    const dora = await grant(after, 'a', 'dora', 'newsletter');
    await grant(after, 'a', 'anna', 'ads');
    await grant(after, 'b', 'ben', 'analytics', false);
    await after.consents.revoke({ tenant: 'a', actor: 'test', params: { id: dora.id } });
    const ben = (await after.consents.list({ tenant: 'a', actor: 'test', query: { user_id: 'ben' } })).consents[0]!;
    await after.consents.renew({ tenant: 'a', actor: 'test', params: { id: ben.id }, body: { consent_version: '2' } });
    for (const tenant of ['a', 'b']) expect(await stats(tenant)).toMatchObject(await counted(database, tenant));
    expect(await stats('a')).toMatchObject({ total_consents: 6, unique_users: 4, revoked_consents: 2 });
  });

  it('follows rows an administrator deletes, moves to another user or truncates', async () => {
    const url = await freshPostgresDatabase();
    const database = new URL(url).pathname.slice(1);
    const b = await backend(url);
    for (const [user, dp] of [
      ['u1', 'newsletter'],
      ['u1', 'ads'],
      ['u2', 'newsletter'],
      ['u3', 'newsletter'],
    ] as const)
      await grant(b, 't', user, dp);
    const stats = () => b.consents.stats({ tenant: 't', actor: 'test' });

    await asAdmin(
      `delete from consent_history where consent_id in (select id from consent where user_id = 'u2')`,
      [],
      database,
    );
    await asAdmin(`delete from consent where user_id = 'u2'`, [], database);
    expect(await stats()).toMatchObject({ ...(await counted(database, 't')), total_consents: 3, unique_users: 2 });

    await asAdmin(`update consent set user_id = 'u4' where user_id = 'u3'`, [], database);
    await asAdmin(`update consent set user_id = 'u1' where user_id = 'u4'`, [], database);
    expect(await stats()).toMatchObject({ ...(await counted(database, 't')), total_consents: 3, unique_users: 1 });

    await asAdmin('truncate consent, consent_history', [], database);
    expect(await stats()).toMatchObject({ total_consents: 0, unique_users: 0, by_data_point: {} });
    await grant(b, 't', 'u9', 'newsletter');
    expect(await stats()).toMatchObject({ total_consents: 1, unique_users: 1 });
  });
});
