import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { engineFor } from '../../src/store/engine.js';
import { openStore } from '../../src/store/open-store.js';
import { writeTransaction } from '../../src/store/transaction.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

const ROOT = join(import.meta.dirname, '../..');

/** Every TypeScript file under `dir`. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));

/** A test of which engine a connection belongs to, instead of asking it (engineFor) what it can do. */
const ENGINE_CHECK =
  /isPostgres|isSqlite|instanceof\s+(Postgres|Sqlite)Adapter|\b(kind|engine)\s*[!=]==?\s*'(sqlite|postgres)'|'(sqlite|postgres)'\s*[!=]==?\s*\w*\.?(kind|engine)\b/;

/** Where naming the engine is the point: the two engine folders, and opening, which picks one by the URL. */
const ENGINE_HOMES = /^src\/store\/(sqlite|postgres)\/|^src\/store\/open-store\.ts$/;

describe('engine differences are capabilities of the engine object', () => {
  it('no shared code (store, backend, server, domain, services) checks which engine it runs on', () => {
    const shared = ['src/store', 'src/backend', 'src/server', 'src/domain', 'src/services']
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => !ENGINE_HOMES.test(f));
    const checks = shared.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (ENGINE_CHECK.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(checks).toEqual([]);
  });

  it('a kysely instance not opened by a store has no engine, and says so', () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    expect(() => engineFor(db)).toThrow(/not opened by a Store/);
  });

  describe.each(ENGINE_NAMES)('on %s', (engine) => {
    it('every connection of the store answers its engine, inside a transaction too', async () => {
      const store = await openStore(await freshStore(engine));
      try {
        expect(engineFor(store.db).kind).toBe(engine);
        expect(engineFor(store.admin).kind).toBe(engine);
        const inside = await writeTransaction(store.db, async (trx) => engineFor(trx).kind);
        expect(inside).toBe(engine);
        const parents = await engineFor(store.admin).foreignKeyParents(store.admin);
        expect(parents.get('legal_document_version')).toContain('legal_document');
      } finally {
        await store.close();
      }
    });
  });
});
