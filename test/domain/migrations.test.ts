import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/backend/local/database.js';
import { migrations } from '../../migrations/index.js';
import { tmpDb } from '../support/helpers.js';

const schemaOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' and name not like 'kysely_%' order by type, name").all() as Array<{ type: string; name: string; sql: string | null }>;
  db.close();
  return rows.map((r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`);
};

describe('migrations', () => {
  it('are named in order and each has up and down', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    names.forEach((n, i) => expect(n.startsWith(String(i + 1).padStart(4, '0') + '_'), n).toBe(true));
    for (const m of Object.values(migrations)) {
      expect(typeof m.up).toBe('function');
      expect(typeof m.down).toBe('function');
    }
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
    for (let i = 0; i < Object.keys(migrations).length; i++) expect((await migrator.migrateDown()).error).toBeUndefined();
    await db.destroy();
    expect(schemaOf(file)).toEqual([]);
  });
});
