import { describe, expect, it } from 'vitest';
import { passesOf, ROW_WIDTH, type BatchValue } from '../../src/store/consent-import-rows.js';

/** One piece of rows [user, data point, granted, granted_at, version]; the other fields do not decide a pass. */
const piece = (rows: Array<[string, string, number, string | null, string]>): BatchValue[] =>
  rows.flatMap(([u, d, g, at, v]) => {
    const r: BatchValue[] = [u, d, g, at, null, v, null, null, null];
    expect(r).toHaveLength(ROW_WIDTH);
    return r;
  });

describe('the pass of each row of a batch', () => {
  it.each([
    [
      'different users or data points',
      [
        ['a', 'x', 1, 'T1', '1.0'],
        ['b', 'x', 1, 'T1', '1.0'],
        ['a', 'y', 1, 'T1', '1.0'],
      ],
      [1, 1, 1],
    ],
    [
      // a refusal withdraws a grant, a grant of another version renews one: each decides after the one before
      'another version, granted or time of one user and data point waits for the row before',
      [
        ['a', 'x', 1, 'T1', '1.0'],
        ['a', 'x', 1, 'T1', '2.0'],
        ['a', 'x', 0, 'T2', '1.0'],
        ['b', 'x', 0, null, '1.0'],
        ['a', 'x', 1, null, '1.0'],
      ],
      [1, 2, 3, 1, 4],
    ],
    [
      'the same consent again',
      [
        ['a', 'x', 1, 'T1', '1.0'],
        ['a', 'x', 1, 'T1', '1.0'],
        ['a', 'x', 1, 'T1', '1.0'],
      ],
      [1, 2, 3],
    ],
  ] as const)('%s', (_name, rows, expected) => {
    const { passes, last } = passesOf([piece(rows as never)], false);
    expect(passes).toEqual(expected);
    expect(last).toBe(Math.max(...expected));
  });

  it('counts across the pieces of a batch, and makes one pass in a dry run', () => {
    const rows = piece([['a', 'x', 1, 'T1', '1.0']]);
    expect(passesOf([rows, rows, rows], false)).toEqual({ passes: [1, 2, 3], last: 3 });
    expect(passesOf([rows, rows, rows], true)).toEqual({ passes: [1, 1, 1], last: 1 });
  });
});
