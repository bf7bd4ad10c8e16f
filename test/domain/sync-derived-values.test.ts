import { describe, expect, it } from 'vitest';
import { changesOf, type BatchData, type BatchGroup, type StagedRows } from '../../src/domain/journal/changes.js';
import { derivedValuesFit, refusedChanges, type DoorReader } from '../../src/domain/sync/record-door.js';
import { columnsOf, fitsColumns, futureColumn, type RowChange } from '../../src/domain/sync/row-rule.js';
import { ROW_RULES } from '../../src/domain/sync/row-rules.js';
import type { SyncRow } from '../../src/domain/sync/version.js';
import { ROW_FIELDS, ROW_WIDTH, type BatchValue } from '../../src/store/consent-import-rows.js';
import { createdGroups } from '../../src/store/journal/import-batch.js';

// A pull checks the values of an import's derived records once per rule's cell (derivedValuesFit) instead of once per
// record, and the door then skips those checks for each record. That is sound only if the cell check answers yes
// exactly where every record the groups make has its table's columns, values its schema takes and no time in the
// future: these tests hold it to the record-by-record check, for the batch an import journals and for what a hostile
// server puts in any of its values.

const NOW = new Date('2026-11-29T12:00:00.000Z');
const RUN = '019b0000-0000-7000-8000-00000000aaaa';
const AT = '2026-11-29T04:37:20.786Z';

/**
 * An import's batch as the server journals it (`createdGroups`, the writer's own rules): each staged row (user, data
 * point, granted, granted at, revoked at, version, source, address, agent) makes a consent and its granted entry, and
 * a revoked entry where it carries a revocation time.
 */
function importBatch(n = 12): BatchData {
  const piece: BatchValue[] = [];
  for (let i = 0; i < n; i++) {
    const granted = i % 4 === 1 ? 0 : 1;
    const at = i % 5 === 0 ? null : `2026-0${1 + (i % 8)}-01T10:00:00Z`;
    const revoked = granted && at && i % 3 === 0 ? '2026-09-20T08:00:00+02:00' : null;
    const address = i % 2 ? `192.0.2.${i}` : null;
    piece.push(`user${i}@example.com`, `dp${i % 6}`, granted, at, revoked, `1.${i % 3}`, 'web_banner', address);
    piece.push(i % 2 ? `UA ${i}` : null);
  }
  expect(piece).toHaveLength(n * ROW_WIDTH);
  const columns = {
    consent: columnsOf(ROW_RULES.consent!.schema),
    consent_history: columnsOf(ROW_RULES.consent_history!.schema),
  };
  const created = { pieces: [piece], prefix: '019b0000-0000-7000-8', start: 4096, created: [...Array(n).keys()] };
  const { groups, staged } = createdGroups('acme', AT, RUN, columns, created);
  return { groups: groups.map((g) => JSON.parse(g) as BatchGroup), staged: JSON.parse(staged) as StagedRows };
}

const groupsOf = (data: BatchData) => data.groups as BatchGroup[];
const recordsOf = (data: BatchData) => changesOf({ entity: 'consent_import_run', entity_id: RUN, op: 'batch', data });

/** What ownProblem asks of each record's values, record by record: its table's columns and schema, and its times. */
const everyRecordFits = (data: BatchData) =>
  recordsOf(data).every((c) => {
    const rule = ROW_RULES[c.entity]!;
    return fitsColumns(rule.schema, c.row!) && futureColumn(rule.times, c.row!, NOW) === undefined;
  });

/** Values a hostile server may put in a staged row or a constant: other types, broken, overlong and future times. */
const HOSTILE: unknown[] = [
  null,
  0,
  1,
  2,
  -1,
  1.5,
  true,
  '',
  'x',
  'x'.repeat(5_000),
  {},
  [],
  ['x'],
  { nested: true },
  '2026-05-01T10:00:00.000Z',
  '2026-05-01T10:00:00',
  '2026-13-45T99:00:00Z',
  '2099-01-01T00:00:00.000Z',
  'granted',
  'revoked',
];

const reader: DoorReader = {
  readMany: async (_tenant, entity, wanted) =>
    new Map(entity === 'consent_import_run' ? wanted.map((w) => [w.id, { id: w.id, status: 'finished' }]) : []),
  rowsWhere: async () => [],
  idOf: (_tenant, _entity, row: SyncRow) => String(row.id),
};

describe('the values of derived records checked once per cell', () => {
  it('pass for an import’s batch, and the door then answers as it does checking every record', async () => {
    const data = importBatch();
    expect(everyRecordFits(data)).toBe(true);
    expect(derivedValuesFit(NOW, data, groupsOf(data))).toBe(true);
    const changes: RowChange[] = recordsOf(data).map((c) => ({
      entity: c.entity,
      id: c.id,
      before: null,
      after: c.row,
    }));
    expect(changes).toHaveLength(12 + 12 + 2);
    const byRecord = await refusedChanges(reader, 'acme', NOW, changes);
    const byCell = await refusedChanges(reader, 'acme', NOW, changes, { valuesChecked: true });
    expect(byCell).toEqual(byRecord);
    expect(byRecord.size).toBe(0);
  });

  it('fail exactly where a record fails, whatever one staged value holds', () => {
    let tried = 0;
    for (let value = 0; value < ROW_WIDTH; value++)
      for (const row of [0, 3, 4])
        for (const hostile of HOSTILE) {
          const data = importBatch();
          data.staged!.rows[row]![1 + value] = hostile;
          const expected = everyRecordFits(data);
          expect(derivedValuesFit(NOW, data, groupsOf(data)), `value ${value} of row ${row}: ${String(hostile)}`).toBe(
            expected,
          );
          tried++;
        }
    expect(tried).toBe(ROW_WIDTH * 3 * HOSTILE.length);
  });

  it('fail exactly where a record fails, whatever a constant holds', () => {
    for (const [g, entity] of [
      [0, 'consent'],
      [1, 'consent_history'],
    ] as const)
      for (const [i, cell] of groupsOf(importBatch())[g]!.derive![0]!.cells.entries()) {
        if (cell[0] !== 'c') continue;
        for (const hostile of HOSTILE) {
          const data = importBatch();
          groupsOf(data)[g]!.derive![0]!.cells[i] = ['c', hostile];
          const what = `${entity}.${groupsOf(data)[g]!.columns[i]} = ${String(hostile)}`;
          expect(derivedValuesFit(NOW, data, groupsOf(data)), what).toBe(everyRecordFits(data));
        }
      }
  });

  it('fail for a time in the future, in a staged value or a constant', () => {
    const late = new Date(NOW.getTime() + 10 * 60_000).toISOString();
    const staged = importBatch();
    staged.staged!.rows[2]![1 + ROW_FIELDS.indexOf('revoked_at')] = late; // the revoked entry's created_at
    expect(everyRecordFits(staged)).toBe(false);
    expect(derivedValuesFit(NOW, staged, groupsOf(staged))).toBe(false);
    const constant = importBatch();
    const consents = groupsOf(constant)[0]!;
    consents.derive![0]!.cells[consents.columns.indexOf('created_at')] = ['c', late];
    expect(derivedValuesFit(NOW, constant, groupsOf(constant))).toBe(false);
  });

  it('are not answered for a group that lacks or adds a column, updates, holds its rows, or has rules across columns', () => {
    const missing = importBatch();
    groupsOf(missing)[0]!.columns.pop();
    groupsOf(missing)[0]!.derive![0]!.cells.pop();
    const extra = importBatch();
    groupsOf(extra)[1]!.columns.push('note');
    for (const d of groupsOf(extra)[1]!.derive!) d.cells.push(['c', 'x']);
    const renamed = importBatch();
    groupsOf(renamed)[1]!.columns[groupsOf(renamed)[1]!.columns.indexOf('import_run_id')] = 'import_run';
    const update = importBatch();
    groupsOf(update)[0]!.op = 'update';
    const rows = importBatch();
    groupsOf(rows)[0]!.rows = [];
    for (const data of [missing, extra, renamed, update, rows]) {
      expect(derivedValuesFit(NOW, data, groupsOf(data))).toBe(false);
      if (data !== update && data !== rows) expect(everyRecordFits(data)).toBe(false);
    }
    // training questions have a rule across their columns (their answers and the right one): rows are checked whole
    const question = importBatch();
    groupsOf(question)[0]!.entity = 'training_question';
    expect(derivedValuesFit(NOW, question, groupsOf(question).slice(0, 1))).toBe(false);
    const unknown = importBatch();
    groupsOf(unknown)[0]!.entity = 'consent_secret';
    expect(derivedValuesFit(NOW, unknown, groupsOf(unknown).slice(0, 1))).toBe(false);
    const unstaged = importBatch();
    delete unstaged.staged;
    expect(derivedValuesFit(NOW, unstaged, groupsOf(unstaged))).toBe(false);
  });
});
