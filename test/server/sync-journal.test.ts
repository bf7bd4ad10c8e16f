import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { runSync } from '../../src/backend/sync/sync-session.js';
import { systemClock } from '../../src/domain/clock.js';
import { changesOf, type BatchData } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { cli, ENGINE_NAMES, tmpDb } from '../support/helpers.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { withSyncServer } from '../support/sync-server.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';

// What a pull leaves in the laptop's journal: the rows of each transaction as one batch entry (`sync_pull`, named by
// the server's entries they came from), transactions of a bounded number of rows, and a chain whose audit trails
// match their tables (audit verify expands the batches).
const T = 'jr';

describe.each(ENGINE_NAMES)('the journal of a pull from a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const pull = (db: string, rowsPerTransaction?: number, tenant = T) =>
    runSync({ db, tenant, clock: systemClock }, { url: url, apiKey: key }, { rowsPerTransaction });
  const pulledEntries = async (db: string, tenant = T) => {
    const laptop = await createLocalBackend(db);
    try {
      return (await journalAfter(laptop, tenant)).filter((e) => e.principal.startsWith('sync:'));
    } finally {
      await laptop.close();
    }
  };
  const rows = (entries: JournalEntry[]) => entries.flatMap((e) => changesOf(e));
  /** A laptop's store on the engine of the server: a pull journals alike on both. */
  const laptopDb = async () => (engine === 'postgres' ? freshPostgresDatabase() : tmpDb());

  it('writes each transaction of a pull as one batch entry, in transactions of at most the rows asked for', async () => {
    const as = { tenant: T, actor: 'sam' };
    const made = [];
    for (const title of ['Kamera', 'Zeiterfassung', 'Videokonferenz'])
      made.push(await server.dsfa.create({ ...as, body: { title } }));
    const imported = await cli(
      ['--remote', url, '--api-key', key, '--tenant', T, 'consents', 'import', 'fixtures/consents/sample.csv'],
      {},
    );
    expect(imported.code).toBe(0);
    const serverEntries = await journalAfter(server, T);

    const db = tmpDb();
    const summary = await pull(db, 4);
    const pulled = await pulledEntries(db);
    expect(pulled.length).toBeGreaterThan(1);
    for (const e of pulled) {
      expect(e).toMatchObject({ entity: 'sync_pull', op: 'batch' });
      expect(e.entity_id).toMatch(new RegExp(`^${url.replace(/[/.]/g, '\\$&')}.*#\\d+-\\d+$`));
      // at most 4 rows each, unless one entry of the server (the import's batch) holds more
      const n = changesOf(e).length;
      if (n > 4) expect(changesOf(e).every((c) => c.entity.startsWith('consent'))).toBe(true);
    }
    // every record the server's journal holds arrived in its last state, none more than the server wrote it
    const last = (entries: JournalEntry[]) => new Map(rows(entries).map((c) => [`${c.entity} ${c.id}`, c.row]));
    expect(last(pulled)).toEqual(last(serverEntries));
    expect(rows(pulled).length).toBeLessThanOrEqual(rows(serverEntries).length);
    // the summary counts records, each once
    expect(Object.values(summary.pulled).reduce((a, b) => a + b, 0)).toBe(last(pulled).size);

    const laptop = await createLocalBackend(db);
    try {
      expect(await laptop.consents.list({ tenant: T, query: { limit: 500 } })).toEqual(
        await server.consents.list({ tenant: T, query: { limit: 500 } }),
      );
      for (const d of made)
        expect(await laptop.dsfa.get({ tenant: T, params: { id: d.id } })).toEqual(
          await server.dsfa.get({ tenant: T, params: { id: d.id } }),
        );
      await expectChainIntact(laptop, T);
    } finally {
      await laptop.close();
    }

    // a later change arrives as its own entry, with the new state of the record
    await server.dsfa.update({ ...as, params: { id: made[0]!.id }, body: { title: 'Kamera (neu)' } });
    await pull(db);
    const later = (await pulledEntries(db)).slice(pulled.length);
    expect(later).toHaveLength(1);
    const dsfa = changesOf(later[0]!).find((c) => c.entity === 'dsfa');
    expect(dsfa).toMatchObject({ id: made[0]!.id, op: 'update', row: { title: 'Kamera (neu)' } });
  });

  // a clone's journal holds an import's rows as the server's does (its input, once), not a second copy of each row
  it("keeps an import's batch in its compact form when the pull wrote all of a table's rows as the batch makes them", async () => {
    const U = 'jr-compact';
    const as = { tenant: U, actor: 'sam' };
    const imported = await cli(
      ['--remote', url, '--api-key', key, '--tenant', U, 'consents', 'import', 'fixtures/consents/sample.csv'],
      {},
    );
    expect(imported.code).toBe(0);
    const batch = (await journalAfter(server, U)).find((e) => e.op === 'batch')!;
    const serverData = batch.data as BatchData;
    expect(serverData.staged).toBeDefined();

    const whole = await laptopDb();
    await pull(whole, undefined, U);
    const entries = await pulledEntries(whole, U);
    const [entry] = entries.filter((e) => changesOf(e).some((c) => c.entity === 'consent'));
    const data = entry!.data as BatchData;
    // written set-wise: the derived groups alone, with the staged rows they are made from, and no consent or
    // history row written out; the import run's record (an entry of its own on the server) in the entry before it,
    // which the pull wrote first
    expect(data.staged).toEqual(serverData.staged);
    const derived = serverData.groups.filter((g) => g.derive);
    expect(data.groups).toEqual(derived);
    const before = entries[entries.indexOf(entry!) - 1]!;
    expect((before.data as BatchData).groups.map((g) => [g.entity, g.derive, g.rows!.length])).toEqual([
      ['consent_import_run', undefined, 1],
    ]);
    expect(before.txn).toBe(entry!.txn);
    const consentRows = (e: JournalEntry) =>
      changesOf(e).filter((c) => c.entity.startsWith('consent_h') || c.entity === 'consent');
    expect(consentRows(entry!)).toEqual(consentRows(batch));
    const laptop = await createLocalBackend(whole);
    try {
      await expectChainIntact(laptop, U);
    } finally {
      await laptop.close();
    }

    // a consent revoked after the import, pulled in the same transaction: its last state is not the batch's, so the
    // consents are written out as rows, while the history the batch made (untouched) keeps its compact form
    const { consents: all } = await server.consents.list({ ...as, query: { limit: 500 } });
    const first = all.find((c) => c.granted && !c.revoked_at)!;
    await server.consents.revoke({ ...as, params: { id: first.id } });
    const mixed = await laptopDb();
    await pull(mixed, undefined, U);
    const pulled = await pulledEntries(mixed, U);
    expect(pulled).toHaveLength(1);
    const both = pulled[0]!.data as BatchData;
    expect(both.staged).toEqual(serverData.staged);
    expect(both.groups.filter((g) => g.derive).map((g) => g.entity)).toEqual(['consent_history']);
    const consents = changesOf(pulled[0]!).filter((c) => c.entity === 'consent');
    expect(consents).toHaveLength(changesOf(batch).filter((c) => c.entity === 'consent').length);
    expect(consents.find((c) => c.id === first.id)!.row).toMatchObject({ revoked_at: expect.any(String) });
    const copy = await createLocalBackend(mixed);
    try {
      expect(await copy.consents.list({ ...as, query: { limit: 500 } })).toEqual(
        await server.consents.list({ ...as, query: { limit: 500 } }),
      );
      expect(await copy.consents.history({ ...as, params: { id: first.id } })).toEqual(
        await server.consents.history({ ...as, params: { id: first.id } }),
      );
      await expectChainIntact(copy, U);
    } finally {
      await copy.close();
    }
  });
});
