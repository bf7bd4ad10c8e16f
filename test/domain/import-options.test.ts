// The options that say how an import file or an export is written (flags on the CLI, query parameters on the API):
// each refused with a message naming the option and what it takes, and each documented for the OpenAPI document.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CsvLayout,
  ImportDialect,
  checkCsvLayout,
  checkImportDialect,
  oneCharacter,
} from '../../src/domain/consents/import-options.schema.js';

const dialect = ImportDialect.superRefine(checkImportDialect);
const layout = CsvLayout.extend({ format: z.string() }).superRefine(checkCsvLayout);

/** The value read, or each refusal as `path: message`. */
const read = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? { value: r.data } : { refused: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
};

describe('a delimiter', () => {
  it.each([',', ';', '|', '\t', 'x'])('may be %j', (d) => {
    expect(read(oneCharacter, d)).toEqual({ value: d });
  });

  it.each([
    ['', ': must be exactly one character, such as , ; | or a tab'],
    [';;', ': must be exactly one character, such as , ; | or a tab'],
    ['"', ': must not be a quote or a line break'],
    ['\n', ': must not be a quote or a line break'],
    ['\r', ': must not be a quote or a line break'],
  ])('may not be %j', (d, message) => {
    expect(read(oneCharacter, d)).toEqual({ refused: [message] });
  });
});

describe('the dialect of an import file', () => {
  it('takes an encoding it knows, words for true and false, a date format with a zone or a zone for it', () => {
    const options = {
      encoding: 'windows-1252',
      true_values: 'ja,j',
      false_values: 'nein,n',
      date_format: 'DD.MM.YYYY HH:mm',
      timezone: 'Europe/Berlin',
    };
    expect(read(dialect, options)).toEqual({ value: options });
    expect(read(dialect, { date_format: 'YYYY-MM-DD HH:mm Z' })).toEqual({
      value: { date_format: 'YYYY-MM-DD HH:mm Z' },
    });
    expect(read(dialect, {})).toEqual({ value: {} });
  });

  it('refuses an unknown encoding, listing the ones it knows', () => {
    expect(read(dialect, { encoding: 'ebcdic' })).toEqual({ refused: [expect.stringMatching(/^encoding: .*utf-8/)] });
  });

  it('refuses a word that would mean both true and false', () => {
    expect(read(dialect, { true_values: 'ja,x,j', false_values: 'nein,x,J' })).toEqual({
      refused: ['true_values: x, j cannot mean both true and false'],
    });
  });

  it('refuses a time zone that is not an IANA zone', () => {
    expect(read(dialect, { timezone: 'MEZ' })).toEqual({
      refused: ['timezone: expected an IANA time zone such as Europe/Berlin or UTC'],
    });
  });

  it('refuses a date format it cannot read, with the reason', () => {
    expect(read(dialect, { date_format: 'DD.MM.YYYY QQ', timezone: 'UTC' })).toEqual({
      refused: [expect.stringMatching(/^date_format: ./)],
    });
  });

  it('asks for a zone when the date format has none', () => {
    expect(read(dialect, { date_format: 'DD.MM.YYYY HH:mm' })).toEqual({
      refused: [
        'timezone: the date format DD.MM.YYYY HH:mm has no time zone: say which zone the times are in with ' +
          '--time-zone Europe/Berlin (API: timezone=Europe/Berlin), or add Z to the format',
      ],
    });
  });

  it('limits the lengths of its texts', () => {
    expect(read(dialect, { true_values: 'j,'.repeat(250) })).toEqual({ value: { true_values: 'j,'.repeat(250) } });
    expect(read(dialect, { true_values: 'j,'.repeat(251) })).toEqual({
      refused: [expect.stringMatching(/^true_values: /)],
    });
    expect(read(dialect, { false_values: 'n,'.repeat(251) })).toEqual({
      refused: [expect.stringMatching(/^false_values: /)],
    });
    expect(read(dialect, { date_format: 'D'.repeat(101), timezone: 'UTC' })).toEqual({
      refused: expect.arrayContaining([expect.stringMatching(/^date_format: .*100/)]),
    });
  });
});

describe('the layout of a CSV export', () => {
  it('takes a delimiter and a byte order mark for CSV', () => {
    expect(read(layout, { format: 'csv', delimiter: ';', bom: 'yes' })).toEqual({
      value: { format: 'csv', delimiter: ';', bom: true },
    });
  });

  it('refuses both for another format, naming each', () => {
    expect(read(layout, { format: 'ndjson', delimiter: ';', bom: true })).toEqual({
      refused: ['delimiter: only for format=csv', 'bom: only for format=csv'],
    });
    expect(read(layout, { format: 'ndjson', bom: false })).toEqual({ value: { format: 'ndjson', bom: false } });
    expect(read(layout, { format: 'ndjson' })).toEqual({ value: { format: 'ndjson' } });
  });
});

describe('the documentation of the options', () => {
  const documented = (schema: z.ZodObject) =>
    Object.entries(
      (
        z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
          properties: Record<string, { description?: string }>;
        }
      ).properties,
    );

  it.each([...documented(ImportDialect), ...documented(CsvLayout)])('says what %s does', (_name, property) => {
    expect(property.description).toMatch(/^\S.{20,}/);
  });

  it('gives an example of each word list and of a date format', () => {
    const text = Object.fromEntries(documented(ImportDialect).map(([k, p]) => [k, p.description]));
    expect(text.true_values).toContain('ja');
    expect(text.false_values).toContain('nein');
    expect(text.date_format).toContain('DD.MM.YYYY');
    expect(text.timezone).toContain('Europe/Berlin');
    expect(text.encoding).toContain('utf-8');
  });
});
