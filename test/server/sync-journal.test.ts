import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { runSync } from '../../src/backend/sync/sync-session.js';
import { systemClock } from '../../src/domain/clock.js';
import { changesOf } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { cli, ENGINE_NAMES, tmpDb } from '../support/helpers.js';
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

  const pull = (db: string, rowsPerTransaction?: number) =>
    runSync({ db, tenant: T, clock: systemClock }, { url: url, apiKey: key }, { rowsPerTransaction });
  const pulledEntries = async (db: string) => {
    const laptop = await createLocalBackend(db);
    try {
      return (await journalAfter(laptop, T)).filter((e) => e.principal.startsWith('sync:'));
    } finally {
      await laptop.close();
    }
  };
  const rows = (entries: JournalEntry[]) => entries.flatMap((e) => changesOf(e));

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
});
