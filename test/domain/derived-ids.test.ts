import { describe, expect, it } from 'vitest';
import { changesOf, counterId, type BatchData, type BatchGroup } from '../../src/domain/journal/changes.js';
import { DerivedIdSpace } from '../../src/domain/sync/derived-ids.js';

// An import's batch as the server journals it: each staged row makes a consent and a granted entry, and a revoked
// entry where its revocation time (value 1) is set.
const batch = (o: { prefix?: string; start?: number; step?: number; numbers?: unknown[]; ks?: number[] } = {}) => {
  const [kConsent, kGranted, kRevoked] = o.ks ?? [0, 1, 2];
  const data: BatchData = {
    groups: [
      {
        entity: 'consent',
        op: 'insert',
        key: ['id'],
        columns: ['id', 'user_id'],
        derive: [
          {
            cells: [
              ['id', kConsent!],
              ['v', 0],
            ],
          },
        ],
      },
      {
        entity: 'consent_history',
        op: 'insert',
        key: ['id'],
        columns: ['id', 'consent_id', 'action'],
        derive: [
          {
            cells: [
              ['id', kGranted!],
              ['id', kConsent!],
              ['c', 'granted'],
            ],
          },
          {
            when: 1,
            cells: [
              ['id', kRevoked!],
              ['id', kConsent!],
              ['c', 'revoked'],
            ],
          },
        ],
      },
    ],
    staged: {
      ids: { prefix: o.prefix ?? '019b0000-0000-7000-8', start: o.start ?? 4096, step: o.step ?? 3 },
      rows: (o.numbers ?? [7, 8, 9, 12]).map((n, i) => [n, `u${i}`, i % 2 ? '2026-01-01T00:00:00Z' : null]),
    },
  };
  return data;
};
const derivedOf = (data: BatchData) => data.groups as BatchGroup[];
const ids = (data: BatchData) => changesOf({ entity: 'x', entity_id: 'x', op: 'batch', data }).map((c) => c);

describe('the ids a batch derives, as a space', () => {
  it('holds exactly the ids the groups make, by table, and counts them', () => {
    const data = batch();
    const space = DerivedIdSpace.of(data, derivedOf(data))!;
    const made = ids(data);
    expect(made).toHaveLength(4 + 4 + 2);
    for (const c of made) expect(space.has(c.entity, c.id)).toBe(true);
    expect(space.counts()).toEqual([
      ['consent', 4],
      ['consent_history', 6],
    ]);
    // a consent's id is no history entry's, and the revoked entry of a staged row without a revocation is not made
    const { prefix, start, step } = data.staged!.ids;
    const consentIds = made.filter((c) => c.entity === 'consent').map((c) => c.id);
    for (const id of consentIds) expect(space.has('consent_history', id)).toBe(false);
    expect(space.has('consent_history', counterId(prefix, start + step * 7 + 2))).toBe(false);
    expect(space.has('consent_history', counterId(prefix, start + step * 8 + 2))).toBe(true);
    // numbers between the staged ones, counters out of range, other prefixes, texts that only look alike
    for (const n of [10, 11, 6, 13]) expect(space.has('consent', counterId(prefix, start + step * n))).toBe(false);
    expect(space.has('consent', counterId('019b0000-0000-7000-9', start + step * 7))).toBe(false);
    expect(space.has('consent', counterId(prefix, start + step * 7).toUpperCase())).toBe(false);
    expect(space.has('consent', `${prefix}${(start + step * 7).toString(16).padStart(13, '0')}`)).toBe(false);
    expect(space.has('consent', `${prefix}+${(start + step * 7).toString(16).padStart(11, '0')}`)).toBe(false);
    expect(space.has('training_assignment', consentIds[0]!)).toBe(false);
  });

  it('is made only where the ids decode exactly: the caller lists them otherwise', () => {
    const of = (data: BatchData) => DerivedIdSpace.of(data, derivedOf(data));
    expect(of(batch({ numbers: [1, 1] }))).toBeUndefined(); // a number twice: two records with one id
    expect(of(batch({ numbers: [1.5] }))).toBeUndefined();
    expect(of(batch({ numbers: ['1'] }))).toBeUndefined();
    expect(of(batch({ numbers: [-1] }))).toBeUndefined();
    expect(of(batch({ step: 0 }))).toBeUndefined();
    expect(of(batch({ start: 0.5 }))).toBeUndefined();
    expect(of(batch({ ks: [0, 3, 2] }))).toBeUndefined(); // k ≥ step: one counter for two staged rows
    expect(of(batch({ ks: [0, 1, 1] }))).toBeUndefined(); // two rules of a table with one k
    expect(of(batch({ start: 2 ** 48 }))).toBeUndefined(); // written with more than 12 digits
    const byValue = batch();
    byValue.groups[0]!.derive![0]!.cells[0] = ['v', 0];
    expect(of(byValue)).toBeUndefined();
    const keyed = batch();
    keyed.groups[1]!.key = ['consent_id', 'id'];
    expect(of(keyed)).toBeUndefined();
    expect(of(batch())).toBeDefined();
  });

  it('meets another space of the same table and prefix whose counters overlap', () => {
    const a = batch({ numbers: [0, 1, 2] });
    const b = batch({ numbers: [3, 4] });
    const again = batch({ numbers: [2, 5] });
    const other = batch({ numbers: [0, 1, 2], prefix: '019b0000-0000-7000-9' });
    const space = (d: BatchData) => DerivedIdSpace.of(d, derivedOf(d))!;
    expect(space(a).meets(space(b))).toBe(false);
    expect(space(a).meets(space(again))).toBe(true);
    expect(space(again).meets(space(a))).toBe(true);
    expect(space(a).meets(space(other))).toBe(false);
    expect(space(a).meets(space(a))).toBe(true);
  });
});
