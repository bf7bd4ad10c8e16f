// The helpers of the optional DSFA fields (Art. 35(7) additions): a one-line label that may be blank, a calendar date
// that may be blank, and a text of paragraphs.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { longText, optionalDate, optionalLabel } from '../../src/domain/schema-helpers.js';

/** The value a schema reads from the input, or the messages of its refusal. */
const read = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? { value: r.data } : { refused: r.error.issues.map((i) => i.message) };
};

const CONTROL = 'must not contain control characters';
const CONTROL_MULTILINE = 'must not contain control characters other than line breaks and tabs';
const NOT_A_DATE = 'expected a date such as 2026-12-31 (or "" to clear it)';
const NO_SUCH_DAY = 'no such day in the calendar';

describe('optionalLabel', () => {
  it.each([
    ['  Muster GmbH  ', { value: 'Muster GmbH' }],
    ['Müller & Söhne', { value: 'Müller & Söhne' }],
    ['', { value: '' }],
    ['   ', { value: '' }],
    ['Muster GmbH\n', { value: 'Muster GmbH' }],
    ['Muster\nGmbH', { refused: [CONTROL] }],
    ['Muster\tGmbH', { refused: [CONTROL] }],
    ['a\u0000b', { refused: [CONTROL] }],
    ['a\u001fb', { refused: [CONTROL] }],
    ['a\u007fb', { refused: [CONTROL] }],
    ['x'.repeat(1000), { value: 'x'.repeat(1000) }],
    [` ${'x'.repeat(1000)} `, { value: 'x'.repeat(1000) }],
  ])('reads %j as %j', (input, out) => {
    expect(read(optionalLabel(), input)).toEqual(out);
  });

  it('refuses more characters than its maximum, 1000 unless given', () => {
    expect(read(optionalLabel(), 'x'.repeat(1001))).toEqual({ refused: [expect.stringMatching(/1000/)] });
    expect(read(optionalLabel(5), 'x'.repeat(6))).toEqual({ refused: [expect.stringMatching(/5/)] });
    expect(read(optionalLabel(5), 'x'.repeat(5))).toEqual({ value: 'xxxxx' });
  });
});

describe('optionalDate', () => {
  it.each([
    ['2026-12-31', { value: '2026-12-31' }],
    [' 2026-01-05 ', { value: '2026-01-05' }],
    ['', { value: '' }],
    [' ', { value: '' }],
    ['2026-10-19', { value: '2026-10-19' }],
    ['2026-11-29', { value: '2026-11-29' }],
    ['2026-09-30', { value: '2026-09-30' }],
    ['2028-02-29', { value: '2028-02-29' }],
    // the pattern: a day of a month as digits, nothing before or after
    ['2026-13-01', { refused: [NOT_A_DATE] }],
    ['2026-00-10', { refused: [NOT_A_DATE] }],
    ['2026-01-00', { refused: [NOT_A_DATE] }],
    ['2026-01-32', { refused: [NOT_A_DATE] }],
    ['2026-01-40', { refused: [NOT_A_DATE] }],
    ['2026-1-05', { refused: [NOT_A_DATE] }],
    ['26-01-05', { refused: [NOT_A_DATE] }],
    ['x2026-01-05', { refused: [NOT_A_DATE] }],
    ['2026-01-05T00:00', { refused: [NOT_A_DATE] }],
    ['2026-01-05 2026-01-06', { refused: [NOT_A_DATE] }],
    ['05.01.2026', { refused: [NOT_A_DATE] }],
    // the calendar: a day the month does not have
    ['2026-02-29', { refused: [NO_SUCH_DAY] }],
    ['2026-02-30', { refused: [NO_SUCH_DAY] }],
    ['2026-04-31', { refused: [NO_SUCH_DAY] }],
  ])('reads %j as %j', (input, out) => {
    expect(read(optionalDate(), input)).toEqual(out);
  });
});

describe('longText', () => {
  it.each([
    [
      '  Erforderlich, weil …\n\n- nur **Pflichtangaben**\n\tund mehr  \n',
      'Erforderlich, weil …\n\n- nur **Pflichtangaben**\n\tund mehr',
    ],
    ['Zeile\r\nZeile', 'Zeile\r\nZeile'],
    ['', ''],
    [' \n ', ''],
  ])('keeps line breaks and tabs inside %j', (input, value) => {
    expect(read(longText(), input)).toEqual({ value });
  });

  it.each(['\u0000', '\u0007', '\u0008', '\u000b', '\u000c', '\u000e', '\u001b', '\u001f', '\u007f'])(
    'refuses the control character %j inside',
    (c) => {
      expect(read(longText(), `a${c}b`)).toEqual({ refused: [CONTROL_MULTILINE] });
    },
  );

  it('refuses more characters than its maximum, 20000 unless given', () => {
    expect(read(longText(), 'x'.repeat(20_000))).toEqual({ value: 'x'.repeat(20_000) });
    expect(read(longText(), 'x'.repeat(20_001))).toEqual({ refused: [expect.stringMatching(/20000/)] });
    expect(read(longText(3), 'xxxx')).toEqual({ refused: [expect.stringMatching(/3/)] });
    expect(read(longText(3), ' xxx ')).toEqual({ value: 'xxx' });
  });
});
