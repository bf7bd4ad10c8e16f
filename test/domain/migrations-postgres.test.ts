import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { openStore } from '../../src/store/open-store.js';
import { freshPostgresDatabase } from '../support/postgres.js';

const opened: Array<Kysely<unknown>> = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
});

/** A kysely instance on a database as its owner (the test server's superuser), as the migrations run. */
function ownerDb(url: string): Kysely<unknown> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
  opened.push(db);
  return db;
}

/** Tables, columns with types and collation, indexes and policies of the public schema, one line each. */
async function schemaOf(db: Kysely<unknown>): Promise<string[]> {
  const columns = await sql<{ line: string }>`select table_name || '.' || column_name || ' ' || data_type
        || coalesce(' collate ' || collation_name, '') || case when is_nullable = 'NO' then ' not null' else '' end as line
      from information_schema.columns where table_schema = 'public' and table_name not like 'kysely%'
      order by table_name, column_name`.execute(db);
  const indexes = await sql<{ line: string }>`select indexdef as line from pg_indexes
      where schemaname = 'public' and tablename not like 'kysely%' order by indexname`.execute(db);
  const policies = await sql<{ line: string }>`select tablename || ' ' || policyname || ' ' || qual as line
      from pg_policies where schemaname = 'public' order by tablename`.execute(db);
  return [...columns.rows, ...indexes.rows, ...policies.rows].map((r) => r.line);
}

describe('migrations on PostgreSQL', () => {
  it('run from one list, roll back step by step to nothing, and run again to the same schema', async () => {
    const url = await freshPostgresDatabase();
    await (await openStore(url)).close();
    const db = ownerDb(url);
    const fresh = await schemaOf(db);
    expect(fresh.some((l) => l.startsWith('dsfa.title text collate C not null'))).toBe(true);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    for (let i = 0; i < Object.keys(migrations).length; i++)
      expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await schemaOf(db)).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await schemaOf(db)).toEqual(fresh);
  });

  it('give every migration that a store has applied to every replica that opens it, once', async () => {
    const url = await freshPostgresDatabase();
    // replicas starting together take turns on the migration lock
    const stores = await Promise.all([openStore(url), openStore(url), openStore(url)]);
    const status = await stores[0]!.status();
    expect(status.schema_version).toBe(Object.keys(migrations).length);
    for (const s of stores) await s.close();
  });

  it('say "upgrading" only in the process that applied the upgrade, not in replicas that waited for it', async () => {
    const url = await freshPostgresDatabase();
    const names = Object.keys(migrations);
    // one connection as "another process": it holds kysely's migration lock (reentrant within its session)
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    opened.push(db);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(names.at(-2)!)).error).toBeUndefined();
    const LOCK = sql.lit(BigInt('3853314791062309107'));
    await sql`select pg_advisory_lock(${LOCK})`.execute(db);

    const told: string[] = [];
    const replicas = ['a', 'b'].map((r) =>
      openStore(url, { onUpgrade: (from, to) => told.push(`${r}: ${from} -> ${to}`) }),
    );
    // both replicas read schema 13 and now wait for the lock
    const waiting = async () =>
      Number(
        (
          await sql<{ n: number }>`select count(*)::int as n from pg_locks
              where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(
            db,
          )
        ).rows[0]!.n,
      );
    for (let i = 0; i < 200 && (await waiting()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await waiting()).toBe(2);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await sql`select pg_advisory_unlock(${LOCK})`.execute(db);
    for (const s of await Promise.all(replicas)) {
      expect((await s.status()).schema_version).toBe(names.length);
      await s.close();
    }
    expect(told).toEqual([]);

    // the process that does apply an upgrade says so, once
    expect((await migrator.migrateDown()).error).toBeUndefined();
    const again = await Promise.all(
      ['a', 'b', 'c'].map((r) => openStore(url, { onUpgrade: (f, t) => told.push(`${r}: ${f} -> ${t}`) })),
    );
    for (const s of again) await s.close();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(new RegExp(`^[abc]: ${names.length - 1} -> ${names.length}$`));
  });

  it('refuse a database written by a newer version, untouched', async () => {
    const url = await freshPostgresDatabase();
    await (await openStore(url)).close();
    const db = ownerDb(url);
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2099-01-01')`.execute(db);
    await expect(openStore(url)).rejects.toThrow(/newer version of compliance .*9999_from_the_future/);
  });
});
