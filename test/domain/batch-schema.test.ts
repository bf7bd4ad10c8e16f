import { describe, expect, it } from 'vitest';
import { checkBatchEntries } from '../../src/domain/journal/batch.schema.js';
import { changesOf } from '../../src/domain/journal/changes.js';

const entry = (data: unknown, seq = 7) => ({ seq, entity: 'consent_import_run', entity_id: 'run', op: 'batch', data });
const rowsGroup = { entity: 'consent', op: 'insert', key: ['id'], columns: ['id', 'user_id'], rows: [['c1', 'anna']] };
const derived = {
  groups: [
    {
      ...rowsGroup,
      rows: undefined,
      derive: [
        {
          when: 0,
          cells: [
            ['id', 0],
            ['or', 0, 'x'],
          ],
        },
      ],
    },
  ],
  staged: { ids: { prefix: 'p-', start: 0, step: 1 }, rows: [[0, 'anna']] },
};
const problem = (data: unknown) => {
  try {
    checkBatchEntries('the server at S', [entry(data)]);
    return 'none';
  } catch (e) {
    return (e as Error).message.replace('the server at S sent journal entry 7 (consent_import_run run) in a form ', '');
  }
};

describe('checkBatchEntries: the batch entries of another store, before anything reads them', () => {
  it('passes the batches this version writes, rows and derived alike, and entries that are no batch', () => {
    expect(problem({ groups: [rowsGroup] })).toBe('none');
    expect(problem(derived)).toBe('none');
    expect(changesOf(entry(derived))).toHaveLength(1);
    expect(() => checkBatchEntries('S', [{ ...entry(null), op: 'insert' }])).not.toThrow();
  });

  it('names the entry and the first thing wrong', () => {
    const cases: Array<[unknown, string]> = [
      [null, 'this version cannot read: data: expected object, got null'],
      [{ groups: 5 }, 'this version cannot read: data.groups: expected array, got 5'],
      [{ groups: [{ ...rowsGroup, op: 'upsert' }] }, 'data.groups.0.op: "upsert" is not allowed; allowed values:'],
      [{ groups: [{ ...rowsGroup, key: ['nope'] }] }, 'data.groups.0.key: nope is not a column'],
      // a column twice: its row would hold one value where the statement writes two
      [
        { groups: [{ ...rowsGroup, columns: ['id', 'user_id', 'id'], rows: [['c1', 'anna', 'c2']] }] },
        'data.groups.0.columns: id comes twice',
      ],
      [{ groups: [{ ...rowsGroup, rows: [['c1']] }] }, 'data.groups.0.rows.0: expected 2 values'],
      [{ groups: [{ ...rowsGroup, rows: 'x' }] }, 'data.groups.0.rows: expected a list of rows'],
      [
        { ...derived, groups: [{ ...derived.groups[0], derive: [{ cells: [['id', 0]] }] }] },
        'data.groups.0.derive.0.cells: expected 2 cells',
      ],
      [
        {
          ...derived,
          groups: [
            {
              ...derived.groups[0],
              derive: [
                {
                  cells: [
                    ['id', 0],
                    ['zz', 1],
                  ],
                },
              ],
            },
          ],
        },
        'data.groups.0.derive.0.cells.1',
      ],
      [
        { ...derived, staged: { ...derived.staged, rows: [['anna']] } },
        'data.staged.rows: expected a list of rows, each beginning with its number',
      ],
      [
        { ...derived, staged: { ...derived.staged, ids: { prefix: 'p-', start: '0', step: 1 } } },
        'data.staged.ids.start',
      ],
    ];
    for (const [data, expected] of cases) expect(problem(data)).toContain(expected);
  });
});
