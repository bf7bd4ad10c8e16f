import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteStore as openStore } from '../../src/store/sqlite/sqlite-store.js';
import { migrations } from '../../migrations/index.js';
import { MIGRATION_NAMES } from '../../migrations/names.js';
import { cli, tmpDb } from '../support/helpers.js';

const schemaOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare(
      "select type, name, sql from sqlite_master where name not like 'sqlite_%' and name not like 'kysely_%' order by type, name",
    )
    .all() as Array<{ type: string; name: string; sql: string | null }>;
  db.close();
  return rows.map((r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`);
};

/** A store as version 6 of compliance left it (before 0007), open for writing rows the old way. */
async function storeAtSchema6() {
  const file = tmpDb();
  const sqlite = new Database(file);
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo('0006_training_blocks')).error).toBeUndefined();
  sqlite.pragma('user_version = 6');
  return { file, sqlite, db };
}

describe('migrations', () => {
  it('lists every migration in names.ts, which opening a store reads instead of loading them', () => {
    expect(Object.keys(migrations)).toEqual([...MIGRATION_NAMES]);
  });

  it('registers every migration file of the folder, once (names.ts is the one list)', () => {
    const files = readdirSync(new URL('../../migrations/', import.meta.url))
      .filter((f) => /^\d{4}_.*\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect([...MIGRATION_NAMES]).toEqual(files);
  });

  it('are named in order and each has up and down', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    // numbers taken by branches that have not landed yet (the merge that brings them removes them here)
    const reserved = ['0015', '0016', '0017', '0019'].filter((r) => !names.some((n) => n.startsWith(`${r}_`)));
    const numbers = [...names.map((n) => n.slice(0, 4)), ...reserved].sort();
    numbers.forEach((n, i) => expect(n, names.join(', ')).toBe(String(i + 1).padStart(4, '0')));
    for (const m of Object.values(migrations)) {
      expect(typeof m.up).toBe('function');
      expect(typeof m.down).toBe('function');
    }
  });

  it('keep the SQLite statements of every migration that landed before PostgreSQL was added', async () => {
    const file = tmpDb();
    const sqlite = new Database(file);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0007_consents_for_bulk_writes')).error).toBeUndefined();
    await db.destroy();
    const landed = readFileSync(new URL('./sqlite-schema-0007.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    expect(schemaOf(file)).toEqual(landed);
  });

  it('give the same schema on a fresh store and on a store upgraded from every earlier version', async () => {
    const fresh = tmpDb();
    await (await openStore(fresh)).close();
    const expected = schemaOf(fresh);
    const names = Object.keys(migrations);
    for (let k = 0; k < names.length; k++) {
      const file = tmpDb();
      const sqlite = new Database(file);
      const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      if (k > 0) expect((await migrator.migrateTo(names[k - 1]!)).error).toBeUndefined();
      sqlite.pragma(`user_version = ${k}`);
      await db.destroy();
      await (await openStore(file)).close();
      expect(schemaOf(file), `upgraded from version ${k}`).toEqual(expected);
    }
    // one upgrade per migration that landed: it grows with each, and a busy machine runs it slowly
  }, 120_000);

  it('keep consents and their history when 0007 rebuilds their tables', async () => {
    const { file, sqlite, db } = await storeAtSchema6();
    const ins =
      sqlite.prepare(`insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at)
      values (?, ?, ?, 'newsletter', 1, '2026-01-01T00:00:00.000Z', ?, '1.0', 'web', '10.0.0.1', 'UA', '2026-01-01T00:00:00.000Z')`);
    ins.run('c1', 't1', 'alice', null);
    ins.run('c2', 't2', 'bob', '2026-02-01T00:00:00.000Z');
    const hist = sqlite.prepare(
      `insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at) values (?, ?, ?, ?, '1.0', null, null, null, ?)`,
    );
    hist.run('h1', 't1', 'c1', 'granted', '2026-01-01T00:00:00.000Z');
    hist.run('h2', 't2', 'c2', 'granted', '2026-01-01T00:00:00.000Z');
    hist.run('h3', 't2', 'c2', 'revoked', '2026-02-01T00:00:00.000Z');
    const before = {
      consents: sqlite.prepare('select * from consent order by id').all(),
      history: sqlite.prepare('select * from consent_history order by id').all(),
    };
    await db.destroy();
    await (await openStore(file)).close();
    const after = new Database(file);
    // 0016 adds the import run that wrote a row, none for these; 0021 the texts of a banner consent, none either
    const noRun = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), import_run_id: null }));
    const noTexts = (rows: unknown[]) =>
      noRun(rows).map((r) => ({ ...r, banner_revision: null, policy_version_id: null, policy_content_hash: null }));
    expect(after.prepare('select * from consent order by id').all()).toEqual(noTexts(before.consents));
    expect(after.prepare('select * from consent_history order by id').all()).toEqual(noRun(before.history));
    expect(after.prepare("select sql from sqlite_master where name = 'consent_history'").pluck().get()).toMatch(
      /without rowid/i,
    );
    expect(after.prepare("select sql from sqlite_master where name = 'consent_tenant_id'").pluck().get()).toMatch(
      /unique index/i,
    );
    after.close();
    // and back: 0007's down restores the rows into the 0002 layout
    const back = new Database(file);
    const kdb = new Kysely<unknown>({ dialect: new SqliteDialect({ database: back }) });
    const m = new Migrator({ db: kdb, provider: { getMigrations: async () => migrations } });
    expect((await m.migrateTo('0006_training_blocks')).error).toBeUndefined();
    expect(back.prepare('select * from consent order by id').all()).toEqual(before.consents);
    expect(back.prepare('select * from consent_history order by id').all()).toEqual(before.history);
    expect(back.prepare("select sql from sqlite_master where name = 'consent_history'").pluck().get()).not.toMatch(
      /without rowid/i,
    );
    await kdb.destroy();
  });

  it('say on stderr when an existing store is upgraded, and only then', async () => {
    const { file, db } = await storeAtSchema6();
    await db.destroy();
    const first = await cli(['--db', file, 'consents', 'stats', '--json']);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/upgrading the store .* from schema 6 to \d+ \(0007_consents_for_bulk_writes/);
    expect(JSON.parse(first.stdout).total_consents).toBe(0);
    const again = await cli(['--db', file, 'consents', 'stats', '--json']);
    expect(again.stderr).toBe('');
    const fresh = await cli(['--db', tmpDb(), 'db', 'init', '--json']);
    expect(fresh.stderr).toBe('');
    expect(JSON.parse(fresh.stdout).created).toBe(true);
  });

  it('refuse a store written by a newer version', async () => {
    const file = tmpDb();
    await (await openStore(file)).close();
    const sqlite = new Database(file);
    sqlite.pragma('user_version = 999');
    sqlite.close();
    await expect(openStore(file)).rejects.toThrow(/newer version of compliance/);
  });

  it('can be rolled back step by step', async () => {
    const file = tmpDb();
    await (await openStore(file)).close();
    const sqlite = new Database(file);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    for (let i = 0; i < Object.keys(migrations).length; i++)
      expect((await migrator.migrateDown()).error).toBeUndefined();
    await db.destroy();
    expect(schemaOf(file)).toEqual([]);
  });
});
