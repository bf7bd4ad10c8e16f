import { describe, expect, it } from 'vitest';
import { counterId, groupRows, type BatchData } from '../../src/domain/journal/changes.js';

// A batch's derived ids are made on every side that reads it (the writer, a pull, a verification), from the staged
// form the chain holds: each side must write the same text for the same counter, as `toString(16)` always did.
const asBefore = (prefix: string, counter: number) => prefix + counter.toString(16).padStart(12, '0');

describe('counterId', () => {
  it('writes 12 hex digits as toString(16) did, at every byte boundary and across the 48-bit range', () => {
    const counters = [0, 1, 15, 16, 255, 256, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x1000001, 0xffffffffff];
    counters.push(2 ** 47 - 1, 2 ** 47, 2 ** 48 - 1);
    for (let i = 0; i < 2000; i++) counters.push(Math.floor(Math.random() * 2 ** 48));
    for (const c of counters) expect(counterId('01a2259e-7a39-7004-', c)).toBe(asBefore('01a2259e-7a39-7004-', c));
  });

  it('writes a counter that is no integer in 48 bits as toString(16) does (a batch from elsewhere may hold one)', () => {
    for (const c of [2 ** 48, 2 ** 53 + 2, -1, -4096, 1.5, 2 ** 47 + 0.25, Number.NaN, Infinity])
      expect(counterId('p', c)).toBe(asBefore('p', c));
  });

  it("makes a derived group's ids from its staged rows' numbers", () => {
    const data: BatchData = {
      groups: [
        {
          entity: 'consent',
          op: 'insert',
          key: ['id'],
          columns: ['id', 'n'],
          derive: [
            {
              cells: [
                ['id', 1],
                ['v', 0],
              ],
            },
          ],
        },
      ],
      staged: {
        ids: { prefix: 'x-', start: 0xfffffe, step: 3 },
        rows: [
          [0, 'a'],
          [1, 'b'],
        ],
      },
    };
    expect(groupRows(data, data.groups[0]!)).toEqual([
      ['x-000000ffffff', 'a'],
      ['x-000001000002', 'b'],
    ]);
  });
});
