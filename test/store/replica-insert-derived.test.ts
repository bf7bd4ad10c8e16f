import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { DomainError } from '../../src/domain/errors.js';
import { changesOf, derivedRecords, type BatchData } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';
import { batchAgain, tenantRecords } from '../support/hostile.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';

// The store's side of the set-wise pull (OneEntry.insertDerived): it inserts the records an import's batch derives,
// which the door has checked, and journals them in the batch's compact form. It keeps its own rules too, whoever
// calls it: a table of the tenant's, keyed as the table is, with its columns, and rows of the tenant only.
describe.each(ENGINE_NAMES)('derived records inserted set-wise, on %s', (engine) => {
  let local: LocalBackend;
  let batch: JournalEntry;
  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    const lines = ['user_id,data_point_id,granted,granted_at,revoked_at'];
    for (let i = 0; i < 6; i++) lines.push(`u${i},news,${i % 3 > 0},2026-01-0${i + 1}T10:00:00Z,`);
    lines.push('u9,news,true,2026-01-01T10:00:00Z,2026-02-01T10:00:00Z');
    const stream = {
      body: (async function* () {
        yield lines.join('\n') + '\n';
      })(),
      content_type: 'text/csv',
    };
    await local.consents.import({ tenant: 'source', stream });
    batch = (await journalAfter(local, 'source')).find((e) => e.op === 'batch')!;
  });
  afterAll(async () => local.close());

  /** The source's batch as another tenant's: its derived groups alone, under new ids, changed by `change`. */
  function batchFor(tenant: string, change: (data: BatchData) => void = () => {}): BatchData {
    const data = batchAgain(batch, { tenant, newIds: true });
    change(data);
    return data;
  }
  const insert = (tenant: string, data: BatchData) => {
    const uow = createUnitOfWork(local.store, systemClock, uuidv7Source());
    return forRequest({ tenant, actor: 'sync', principal: 'sync:test' }, () =>
      uow.write(tenant, (tx) =>
        tx.replica.asOneEntry('sync_pull', 'test#1-1', (entry) => entry.insertDerived(tenant, derivedRecords(data))),
      ),
    );
  };

  it('inserts every record as the batch derives it, journaled in the compact form, the chain intact', async () => {
    const data = batchFor('copy');
    await insert('copy', data);
    const held = (await tenantRecords(local, 'copy')).tables;
    const derived = changesOf({ ...batch, data });
    for (const entity of ['consent', 'consent_history']) {
      const rows = derived.filter((c) => c.entity === entity).map((c) => c.row);
      expect(held[entity]!.length, entity).toBe(rows.length);
      expect(held[entity], entity).toEqual(expect.arrayContaining(rows));
    }
    const [entry] = await journalAfter(local, 'copy');
    expect((entry!.data as BatchData).staged).toEqual(data.staged);
    expect((entry!.data as BatchData).groups.map((g) => g.entity)).toEqual(['consent', 'consent_history']);
    await expectChainIntact(local, 'copy');
  });

  it('refuses rows of another tenant, a column the table lacks, another key, a table that does not travel, and more staged values than the rules read, writing nothing', async () => {
    const cases: Array<[string, BatchData, string]> = [
      ['rows of another tenant', batchFor('source'), 'validation'],
      [
        'a column the table lacks',
        batchFor('bad', (d) => (d.groups[0]!.columns[d.groups[0]!.columns.indexOf('source')] = 'origin')),
        'validation',
      ],
      [
        'another key',
        batchFor('bad', (d) => {
          d.groups[0]!.key = ['user_id'];
        }),
        'internal',
      ],
      ['a table that does not travel', batchFor('bad', (d) => (d.groups[1]!.entity = 'journal')), 'validation'],
      ['more staged values', batchFor('bad', (d) => d.staged!.rows[0]!.push('beside')), 'internal'],
    ];
    for (const [why, data, code] of cases) {
      const error = await insert('bad', data).catch((e: unknown) => e);
      expect(error, why).toBeInstanceOf(DomainError);
      expect((error as DomainError).code, why).toBe(code);
      const held = (await tenantRecords(local, 'bad')).tables;
      expect([held.consent, held.consent_history], why).toEqual([[], []]);
    }
  });
});
