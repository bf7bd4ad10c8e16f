import { describe, expect, it } from 'vitest';
import { fitsColumns, heldAnswers, timeOf } from '../../src/domain/sync/row-rule.js';
import { ROW_RULES } from '../../src/domain/sync/row-rules.js';
import type { SyncRow } from '../../src/domain/sync/version.js';
import { rows } from '../support/sync-rows.js';

// The door checks a row column by column, keeping each column's answers while its values repeat (fitsColumns). It
// must answer as the table's schema does, for every table, whatever a hostile sender puts in a column, on the first
// asking and on every later one.

const tables = Object.keys(rows) as Array<keyof typeof rows>;
const schemaOf = (entity: string) => ROW_RULES[entity]!.schema;
const parses = (entity: string, row: unknown) => schemaOf(entity).safeParse(row).success;

/** Values a sender may put in any column: other types, empty and overlong texts, broken times, nested values. */
const HOSTILE: unknown[] = [
  null,
  0,
  1,
  -1,
  2,
  1.5,
  -0,
  '',
  ' ',
  'x',
  '0',
  '1',
  'null',
  'x'.repeat(20_000),
  true,
  false,
  {},
  [],
  ['x'],
  { a: 1 },
  '2026-05-01T10:00:00.000Z',
  '2026-05-01T10:00:00',
  '2026-13-45T99:00:00Z',
  '2099-01-01T00:00:00.000Z',
  '[]',
  '{"a":1}',
  'pending',
  'completed',
  'published',
  'granted',
];

describe('a row checked column by column', () => {
  it('fits where its table’s schema parses it, for a valid row of every table', () => {
    for (const entity of tables) {
      expect(parses(entity, rows[entity]()), entity).toBe(true);
      expect(fitsColumns(schemaOf(entity), rows[entity]()), entity).toBe(true);
    }
  });

  it('answers as the schema does for every hostile value in every column, asked once and again', () => {
    for (const entity of tables) {
      const valid = rows[entity]();
      for (const column of Object.keys(valid))
        for (const value of HOSTILE) {
          const row = { ...valid, [column]: value };
          const expected = parses(entity, row);
          for (let round = 0; round < 3; round++)
            expect(fitsColumns(schemaOf(entity), row), `${entity}.${column} = ${JSON.stringify(value)}`).toBe(expected);
        }
    }
  });

  it('does not fit with a column missing, a column more, or a key that names the prototype', () => {
    for (const entity of tables) {
      const valid = rows[entity]();
      const [first] = Object.keys(valid);
      const { [first!]: _, ...missing } = valid;
      const cases: unknown[] = [
        missing,
        { ...valid, extra: 1 },
        JSON.parse(JSON.stringify({ ...valid, ['__proto__']: null }).replace('"__proto__":null', '"__proto__":{}')),
        { ...valid, constructor: 'x' },
        null,
        [],
        'row',
      ];
      for (const row of cases) {
        expect(fitsColumns(schemaOf(entity), row as SyncRow), entity).toBe(false);
        expect(parses(entity, row), entity).toBe(false);
      }
    }
  });

  it('keeps answering as the schema does once a column stops keeping its answers (values that never repeat)', () => {
    const valid = rows.consent();
    // a few thousand distinct users, every third one too long for the column
    for (let i = 0; i < 3000; i++) {
      const row = { ...valid, user_id: i % 3 === 0 ? `u${i}`.padEnd(5000, 'x') : `user-${i}` };
      expect(fitsColumns(schemaOf('consent'), row), row.user_id.slice(0, 12)).toBe(parses('consent', row));
    }
  });
});

describe('the answers kept', () => {
  it('stay small whatever a sender sends: long texts are asked anew, not kept', () => {
    const before = heldAnswers();
    const valid = rows.consent();
    for (let i = 0; i < 3000; i++) {
      const long = `${i}-`.padEnd(10_000, 'x');
      const row = { ...valid, data_point_id: long, source: long };
      expect(fitsColumns(schemaOf('consent'), row)).toBe(parses('consent', row));
      expect(timeOf(`2026-05-01T10:00:00.000Z${long}`)).toBeNaN();
    }
    const after = heldAnswers();
    // 3,000 texts of 10,000 characters in two columns and as times: 90 million characters if they were kept
    expect(after.chars - before.chars).toBeLessThan(10_000);
    expect(after.answers).toBeLessThanOrEqual(before.answers + 10);
  });
});

describe('timeOf', () => {
  it('reads the same instant on the first and every later asking, past the times it keeps', () => {
    const texts = ['2026-05-01T10:00:00.000Z', '2026-05-01T12:00:00+02:00', '2026-05-01T10:00:00', 'nonsense', ''];
    for (let i = 0; i < 12_000; i++) texts.push(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString());
    for (let round = 0; round < 2; round++)
      for (const t of texts) {
        const zoned = /(?:Z|[+-]\d\d:?\d\d)$/.test(t) ? t : `${t}Z`;
        expect(Object.is(timeOf(t), Date.parse(zoned)), t).toBe(true);
      }
    expect(timeOf(undefined)).toBeNaN();
    expect(timeOf(1_700_000_000_000)).toBeNaN();
  });
});
