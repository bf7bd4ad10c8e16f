import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

const DB_TYPES = join(import.meta.dirname, '../../src/store/db-types.ts');

/** The row types of `DB` in src/store/db-types.ts, read by the compiler: each table's name and its columns. */
function rowTypes(): Map<string, string[]> {
  const program = ts.createProgram([DB_TYPES], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(DB_TYPES)!;
  const db = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DB',
  )!;
  const tables = checker.getTypeAtLocation(db.name).getProperties();
  return new Map(
    tables.map((t) => [
      t.name,
      checker
        .getTypeOfSymbolAtLocation(t, db)
        .getProperties()
        .map((c) => c.name)
        .sort(),
    ]),
  );
}

/** Tables one engine keeps for itself: PostgreSQL's consent tallies (migration 0013), kept by triggers. */
const ONLY_ON: Record<string, string[]> = { postgres: ['consent_tally', 'consent_user', 'consent_user_tally'] };

// db-types.ts is kept by hand beside the migrations: each table's row type names exactly the table's columns.
describe.each(ENGINE_NAMES)('the row types on %s', (engine) => {
  it('name exactly the columns of their tables, and every table has one', async () => {
    const elsewhere = Object.entries(ONLY_ON).flatMap(([e, tables]) => (e === engine ? [] : tables));
    const types = new Map([...rowTypes()].filter(([t]) => !elsewhere.includes(t)));
    const store = await openStore(await freshStore(engine));
    try {
      const tables = (await store.admin.introspection.getTables()).filter((t) => !t.name.startsWith('kysely_'));
      const actual = new Map(tables.map((t) => [t.name, t.columns.map((c) => c.name).sort()]));
      expect([...types.keys()].sort()).toEqual([...actual.keys()].sort());
      for (const [table, columns] of actual) expect(types.get(table), table).toEqual(columns);
    } finally {
      await store.close();
    }
  }, 120_000);
});
