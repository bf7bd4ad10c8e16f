import { describe, expect, it } from 'vitest';
import { splitDerived, type SplitScope } from '../../src/backend/sync/set-wise-pull.js';
import type { BatchData, BatchGroup, DeriveCell } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';

// Which entries of a pulled page a pull writes set-wise (an import's derived groups, checked at the door together and
// written after the rest of the page), and where it must take the page record by record: wherever writing the
// derived records after the rest could change what the door decides.

const RUN = '01900000-0000-7000-8000-0000000000aa';
const PREFIX = '01900000-0000-7000-8000-';
const T = 'acme';

/** A consent and its history entry per staged row [n, user, data point, granted], with the run as a constant. */
function importData(o: { run?: string; step?: number; extra?: boolean } = {}): BatchData {
  const common: DeriveCell[] = [
    ['c', T],
    ['c', o.run ?? RUN],
  ];
  const groups: BatchGroup[] = [
    {
      entity: 'consent',
      op: 'insert',
      key: ['id'],
      columns: ['id', 'tenant_id', 'import_run_id', 'user_id', 'data_point_id', 'granted'],
      derive: [{ cells: [['id', 0], ...common, ['v', 0], ['v', 1], ['v', 2]] }],
    },
    {
      entity: 'consent_history',
      op: 'insert',
      key: ['id'],
      columns: ['id', 'tenant_id', 'import_run_id', 'consent_id', 'action'],
      derive: [{ cells: [['id', 1], ...common, ['id', 0], ['c', 'granted']] }],
    },
    {
      entity: 'consent_import_run',
      op: 'insert',
      key: ['id'],
      columns: ['id', 'tenant_id', 'status'],
      rows: [[RUN, T, 'running']],
    },
  ];
  const rows = [
    [0, 'u1', 'news', 1],
    [1, 'u2', 'news', 0],
  ];
  if (o.extra) rows[1]!.push('beside');
  return { groups, staged: { ids: { prefix: PREFIX, start: 0, step: o.step ?? 3 }, rows } };
}

let seq = 0;
function entry(data: unknown, o: Partial<JournalEntry> = {}): JournalEntry {
  seq++;
  return {
    seq,
    txn: `t${seq}`,
    time: '2026-05-01T10:00:00.000Z',
    actor: 'sam',
    principal: 'key:abc',
    origin: null,
    entity: 'consent_import_run',
    entity_id: RUN,
    op: 'batch',
    data,
    data_hash: '',
    prev_hash: '',
    hash: '',
    ...o,
  };
}
const single = (entity: string, id: string, data: Record<string, unknown> | null, op = 'update') =>
  entry(data, { entity, entity_id: id, op });

const scope: SplitScope = {
  travels: (entity) => entity !== 'elsewhere',
  ruled: (entity) => entity === 'training_assignment',
  looksUp: (entity) => entity === 'consent' || entity === 'consent_history',
  echo: (e) => e.origin === 'sync:me',
};
const consentId = (n: number) => PREFIX + (3 * n).toString(16).padStart(12, '0');

describe('the split of a page for a set-wise pull', () => {
  it("takes an import's derived groups apart, and leaves its run's record to the rest of the page", () => {
    const e = entry(importData());
    const split = splitDerived([e], scope)!;
    expect(split.rest.map((r) => (r.data as BatchData).groups.map((g) => g.entity))).toEqual([['consent_import_run']]);
    expect(split.derived).toHaveLength(1);
    const [part] = split.derived;
    expect(part!.entry.seq).toBe(e.seq);
    expect((part!.entry.data as BatchData).groups.map((g) => g.entity)).toEqual(['consent', 'consent_history']);
    expect(part!.records.groups.map((g) => g.changes.map((c) => c.id))).toEqual([
      [consentId(0), consentId(1)],
      [PREFIX + '000000000001', PREFIX + '000000000004'],
    ]);
    expect(part!.records.groups[1]!.changes[1]!.row).toMatchObject({ consent_id: consentId(1), action: 'granted' });
  });

  it('takes the batches of several entries, and passes over entries without derived groups', () => {
    const other = importData({ run: RUN });
    other.staged!.ids.prefix = '01900000-0000-7000-9000-';
    const page = [single('dsfa', 'd1', { id: 'd1', title: 'x' }), entry(importData()), entry(other)];
    const split = splitDerived(page, scope)!;
    expect(split.derived).toHaveLength(2);
    expect(split.rest.map((e) => e.entity)).toEqual(['dsfa', 'consent_import_run', 'consent_import_run']);
  });

  it('leaves the page whole where no entry has derived groups it may write set-wise', () => {
    const ruled = importData();
    ruled.groups[0]!.entity = 'training_assignment';
    const away = importData();
    away.groups[1]!.entity = 'elsewhere';
    const updates = importData();
    updates.groups[0]!.op = 'update';
    const untenanted = importData();
    untenanted.groups[1]!.columns[1] = 'block_id';
    for (const [why, page] of [
      ['no batch', [single('dsfa', 'd1', { id: 'd1' })]],
      ['an echo of this store’s push', [entry(importData(), { origin: 'sync:me' })]],
      ['a table with rules across records', [entry(ruled)]],
      ['a table that does not travel', [entry(away)]],
      ['derived updates', [entry(updates)]],
      ['a table not keyed by tenant', [entry(untenanted)]],
      ['staged rows holding values beside those the rules read', [entry(importData({ extra: true }))]],
    ] as const)
      expect(splitDerived([...page], scope), why).toBeUndefined();
  });

  it('leaves the page whole where a derived record comes twice', () => {
    expect(splitDerived([entry(importData({ step: 0 }))], scope)).toBeUndefined();
    expect(splitDerived([entry(importData()), entry(importData())], scope)).toBeUndefined();
  });

  it('leaves the page whole where the rest changes a derived record or names one', () => {
    const revoke = single('consent', consentId(0), { id: consentId(0), revoked_at: '2026-05-02T00:00:00.000Z' });
    const naming = single('consent_history', 'h9', { id: 'h9', consent_id: consentId(1) }, 'insert');
    const gone = single('consent', consentId(1), null, 'delete');
    for (const [why, other] of [
      ['a later update', revoke],
      ['a row naming one', naming],
      ['a deletion', gone],
    ] as const) {
      expect(splitDerived([entry(importData()), other], scope), why).toBeUndefined();
      expect(splitDerived([other, entry(importData())], scope), why).toBeUndefined();
    }
  });

  it('leaves the page whole where a derived record names a record of the rest whose rule looks up others', () => {
    // the batch's rows name a consent of the page as their run: the consent's rule would look up their history
    const named = single('consent', 'c9', { id: 'c9', user_id: 'u9' }, 'insert');
    expect(splitDerived([named, entry(importData({ run: 'c9' }))], scope)).toBeUndefined();
    // and a run that the page deletes
    const deleted = single('consent_import_run', RUN, null, 'delete');
    expect(splitDerived([entry(importData()), deleted], scope)).toBeUndefined();
    // a run the page writes, whose rule looks nothing up, may be named
    const written = single('consent_import_run', RUN, { id: RUN, status: 'finished' });
    expect(splitDerived([entry(importData()), written], scope)).toBeDefined();
  });
});
