import { CompiledQuery, sql, type Kysely } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/store/db-types.js';
import { readHead } from '../../src/store/journal/journal-head.js';
import { insertRows } from '../../src/store/kysely/bulk-insert.js';
import { openStore } from '../../src/store/open-store.js';
import { executeHeld, writeTransaction } from '../../src/store/transaction.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

// executeHeld runs a write transaction's statements straight on its connection where the engine can (SQLite): a
// statement must land in the transaction that holds the connection, and never in one it does not belong to.
describe.each(ENGINE_NAMES)('statements of a held connection on %s', (engine) => {
  const rows = async (db: Kysely<DB>) =>
    (await sql<{ a: string }>`select a from held_probe order by a`.execute(db)).rows.map((r) => r.a);

  it('writes inside the transaction: seen by its own reads, rolled back with it', async () => {
    const store = await openStore(await freshStore(engine));
    try {
      await sql`create table held_probe (a text primary key)`.execute(store.admin);
      const seen = writeTransaction(store.db, async (trx) => {
        await insertRows(trx, 'held_probe', ['a'], [['inside']]);
        const own = await rows(trx);
        throw Object.assign(new Error('roll back'), { own });
      });
      await expect(seen).rejects.toMatchObject({ own: ['inside'] });
      expect(await rows(store.admin)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a write outside any transaction waits for the one that holds the connection and outlives its rollback', async () => {
    const store = await openStore(await freshStore(engine));
    try {
      await sql`create table held_probe (a text primary key)`.execute(store.admin);
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const rolledBack = writeTransaction(store.db, async (trx) => {
        await insertRows(trx, 'held_probe', ['a'], [['inside']]);
        holding();
        await gate;
        throw new Error('roll back');
      });
      await held;
      const outside = insertRows(store.db, 'held_probe', ['a'], [['outside']]);
      release();
      await expect(rolledBack).rejects.toThrow('roll back');
      await outside;
      expect(await rows(store.admin)).toEqual(['outside']);
    } finally {
      await store.close();
    }
  });

  it("reads the chain's head through the transaction's connection, past kysely's executor where the engine can", async () => {
    const store = await openStore(await freshStore(engine));
    try {
      await writeTransaction(store.db, async (trx) => {
        const asked = vi.spyOn(trx, 'executeQuery');
        expect(await readHead(trx, 'nobody')).toBeUndefined();
        const answer = await executeHeld(trx, CompiledQuery.raw('select 1 as one'));
        expect(answer.rows).toEqual([{ one: 1 }]);
        expect(asked).toHaveBeenCalledTimes(engine === 'sqlite' ? 0 : 2);
      });
    } finally {
      await store.close();
    }
  });
});
