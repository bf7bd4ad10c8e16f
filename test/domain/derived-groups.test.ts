import { describe, expect, it } from 'vitest';
import { changesOf, type BatchData } from '../../src/domain/journal/changes.js';
import { DerivedGroups } from '../../src/domain/sync/derived-groups.js';
import { BatchRecorder } from '../../src/store/journal/batch-recorder.js';

// An import's batch as the server journals it: two staged rows, each making a consent and a history row.
const importBatch = (prefix: string, extra = {}): BatchData => ({
  groups: [
    {
      entity: 'consent',
      op: 'insert',
      key: ['id'],
      columns: ['id', 'user_id'],
      derive: [
        {
          cells: [
            ['id', 0],
            ['v', 0],
          ],
        },
      ],
      ...extra,
    },
    {
      entity: 'consent_history',
      op: 'insert',
      key: ['id'],
      columns: ['id', 'consent_id'],
      derive: [
        {
          cells: [
            ['id', 1],
            ['id', 0],
          ],
        },
      ],
    },
  ],
  staged: {
    ids: { prefix, start: 0, step: 2 },
    rows: [
      [0, 'anna'],
      [1, 'ben'],
    ],
  },
});
const entry = (data: BatchData) => ({ entity: 'consent_import_run', entity_id: 'run', op: 'batch', data });

/** The records of a page as a pull collects them: each change with the group it comes from, the last one winning. */
function collect(groups: DerivedGroups, ...entries: Array<ReturnType<typeof entry>>) {
  const records = new Map<string, { entity: string; id: string; from?: unknown }>();
  for (const e of entries)
    for (const { from, changes } of groups.changesOf(e))
      for (const c of changes) records.set(`${c.entity} ${c.id}`, { entity: c.entity, id: c.id, from });
  return records;
}

describe('DerivedGroups: which derived groups of a pulled page its entry may keep in their compact form', () => {
  it('takes the groups whose every record was written as derived, with the staged rows and the ids they cover', () => {
    const groups = new DerivedGroups();
    const data = importBatch('p-');
    const records = collect(groups, entry(data));
    for (const r of records.values()) groups.written(r.from as never);
    const adopted = groups.adoptable(records.values() as never)!;
    expect(adopted.groups).toEqual(data.groups);
    expect(adopted.staged).toEqual(data.staged);
    expect([...adopted.covers].map(([entity, ids]) => [entity, [...ids]])).toEqual([
      ['consent', ['p-000000000000', 'p-000000000002']],
      ['consent_history', ['p-000000000001', 'p-000000000003']],
    ]);
  });

  it('leaves a group one of whose records was not written (refused, in conflict, already so here)', () => {
    const groups = new DerivedGroups();
    const records = [...collect(groups, entry(importBatch('p-'))).values()];
    // the first consent is not written: its group stays rows, the history's is taken
    for (const r of records.slice(1)) groups.written(r.from as never);
    expect(groups.adoptable(records as never)!.groups.map((g) => g.entity)).toEqual(['consent_history']);
    expect(new DerivedGroups().adoptable([])).toBeUndefined();
  });

  it('leaves a group a later entry of the page changed a record of, and takes one entry only', () => {
    const groups = new DerivedGroups();
    const later = { entity: 'consent', entity_id: 'p-000000000000', op: 'update', data: { id: 'p-000000000000' } };
    const big = importBatch('p-');
    big.staged!.rows.push([2, 'cem']);
    const small = importBatch('q-');
    small.staged!.rows = [[0, 'dora']];
    const records = collect(groups, entry(big), later as never, entry(small));
    for (const r of records.values()) groups.written(r.from as never);
    const adopted = groups.adoptable(records.values() as never)!;
    // the p- batch has three history rows written as derived (its consents lost one), the q- batch two rows
    expect(adopted.staged.ids.prefix).toBe('p-');
    expect(adopted.groups.map((g) => g.entity)).toEqual(['consent_history']);
  });

  it('leaves a batch whose staged rows carry values no rule reads', () => {
    const groups = new DerivedGroups();
    const data = importBatch('p-');
    data.staged!.rows[1]!.push('x'.repeat(100));
    const records = collect(groups, entry(data));
    for (const r of records.values()) groups.written(r.from as never);
    expect(groups.adoptable(records.values() as never)).toBeUndefined();
  });

  it('keeps only what makes the rows of what the server sent', () => {
    const groups = new DerivedGroups();
    const records = collect(groups, entry(importBatch('p-', { note: 'x'.repeat(100) })));
    for (const r of records.values()) groups.written(r.from as never);
    expect(Object.keys(groups.adoptable(records.values() as never)!.groups[0]!)).toEqual([
      'entity',
      'op',
      'key',
      'columns',
      'derive',
    ]);
  });
});

describe('BatchRecorder.adopt', () => {
  it('holds the covered records in the adopted groups only, ahead of the rows written one by one', () => {
    const data = importBatch('p-');
    const recorder = new BatchRecorder(() => ['id']);
    recorder.putRows(
      'consent',
      ['id', 'user_id'],
      [
        { id: 'p-000000000000', values: ['p-000000000000', 'anna'] },
        { id: 'other', values: ['other', 'dora'] },
        { id: 'p-000000000002', values: ['p-000000000002', 'ben'] },
      ],
      'insert',
    );
    recorder.putRows(
      'consent_history',
      ['id', 'consent_id'],
      [{ id: 'p-000000000001', values: ['p-000000000001', 'p-000000000000'] }],
      'insert',
    );
    const covers = new Map([
      ['consent', new Set(['p-000000000000', 'p-000000000002'])],
      ['consent_history', new Set(['p-000000000001', 'p-000000000003'])],
    ]);
    recorder.adopt({ groups: data.groups, staged: data.staged!, covers });
    const kept = recorder.data;
    expect(kept.staged).toEqual(data.staged);
    expect(kept.groups.map((g) => [g.entity, g.rows ?? 'derived'])).toEqual([
      ['consent', 'derived'],
      ['consent_history', 'derived'],
      ['consent', [['other', 'dora']]],
    ]);
    // the entry replays the same records: the derived ones, then the one written beside them
    expect(changesOf(entry(kept)).map((c) => c.id)).toEqual([
      'p-000000000000',
      'p-000000000002',
      'p-000000000001',
      'p-000000000003',
      'other',
    ]);
    expect(() => recorder.adopt({ groups: data.groups, staged: data.staged!, covers })).toThrow(/one entry only/);
  });
});
