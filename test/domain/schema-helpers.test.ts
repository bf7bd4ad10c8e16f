// The schema helpers every area builds its inputs from: integer and boolean query parameters (text from a query string,
// a CLI flag or a CSV cell), required texts, e-mail addresses and comma-separated filters. The optional DSFA fields'
// helpers are in schema-helpers-optional.test.ts.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  LOOSE_BOOLEAN_JSON_SCHEMA,
  commaList,
  commaListItems,
  emailAddress,
  isoTimestamp,
  label,
  looseBoolean,
  looseBooleans,
  nonBlank,
  queryInt,
} from '../../src/domain/schema-helpers.js';

/** The value a schema reads from the input, or the codes and messages of its refusal. */
const read = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? { value: r.data } : { refused: r.error.issues.map((i) => `${i.code}: ${i.message}`) };
};

describe('queryInt', () => {
  const limit = queryInt({ min: 1, max: 100, default: 20 });

  it.each([
    [undefined, { value: 20 }],
    ['7', { value: 7 }],
    [' 42 ', { value: 42 }],
    ['+5', { value: 5 }],
    [9, { value: 9 }],
    ['1', { value: 1 }],
    ['100', { value: 100 }],
  ])('reads %j as %j', (input, out) => {
    expect(read(limit, input)).toEqual(out);
  });

  it.each([
    ['0', 'too_small'],
    ['-3', 'too_small'],
    ['101', 'too_big'],
    ['1.5', 'invalid_type'],
    ['ten', 'invalid_type'],
    ['', 'invalid_type'],
    [2.5, 'invalid_type'],
  ])('refuses %j (%s)', (input, code) => {
    expect(read(limit, input)).toEqual({ refused: [expect.stringMatching(new RegExp(`^${code}: `))] });
  });

  it('has no bound it was not given', () => {
    expect(read(queryInt({ default: 0 }), '-1000000')).toEqual({ value: -1_000_000 });
    expect(read(queryInt({ default: 0 }), '99999999')).toEqual({ value: 99_999_999 });
    expect(read(queryInt({ min: 0, default: 0 }), '99999999')).toEqual({ value: 99_999_999 });
    expect(read(queryInt({ max: 10, default: 0 }), '-5')).toEqual({ value: -5 });
  });
});

describe('looseBoolean', () => {
  const flag = looseBoolean();

  it.each([
    ['true', true],
    ['TRUE', true],
    [' Yes ', true],
    ['1', true],
    [true, true],
    ['false', false],
    ['False', false],
    ['NO', false],
    ['0', false],
    [false, false],
  ])('reads %j as %j', (input, value) => {
    expect(read(flag, input)).toEqual({ value });
  });

  it.each(['maybe', 'ja', '2', ''])('refuses %j naming the spellings it takes', (input) => {
    expect(read(flag, input)).toEqual({
      refused: [`invalid_type: expected a boolean (true/false, 1/0, yes/no), got ${JSON.stringify(input)}`],
    });
  });

  it('reports a missing value as missing, not as a wrong spelling', () => {
    expect(read(z.object({ active: flag }), {})).toEqual({
      refused: ['invalid_type: Invalid input: expected boolean, received undefined'],
    });
  });

  it('is described to the OpenAPI document by a JSON Schema that takes exactly the same texts', () => {
    expect(looseBooleans.has(flag)).toBe(true);
    const validate = new Ajv().compile(LOOSE_BOOLEAN_JSON_SCHEMA);
    const texts = ['true', 'TRUE', ' Yes ', '1', 'false', 'NO', '0', 'maybe', 'ja', '2', '', 'truee', ' 1 0 '];
    for (const text of [...texts, true, false, 1, null]) {
      expect([text, validate(text)]).toEqual([text, flag.safeParse(text).success]);
    }
  });
});

describe('nonBlank and label', () => {
  it.each([nonBlank(), label()])('trim the text and refuse a blank one', (schema) => {
    expect(read(schema, '  Titel der Prüfung \n')).toEqual({ value: 'Titel der Prüfung' });
    expect(read(schema, ' \t ')).toEqual({ refused: ['invalid_format: must not be empty'] });
    expect(read(schema, '')).toEqual({ refused: ['invalid_format: must not be empty'] });
  });

  it('take at most their maximum after trimming', () => {
    expect(read(label(5), ' abcde ')).toEqual({ value: 'abcde' });
    expect(read(label(5), 'abcdef')).toEqual({ refused: [expect.stringMatching(/^too_big: .*5/)] });
    expect(read(nonBlank(5), 'abcdef')).toEqual({ refused: [expect.stringMatching(/^too_big: .*5/)] });
    expect(read(label(), 'x'.repeat(1000))).toEqual({ value: 'x'.repeat(1000) });
    expect(read(label(), 'x'.repeat(1001))).toEqual({ refused: [expect.stringMatching(/^too_big: .*1000/)] });
    expect(read(nonBlank(), 'x'.repeat(100_000))).toEqual({ value: 'x'.repeat(100_000) });
    expect(read(nonBlank(), 'x'.repeat(100_001))).toEqual({ refused: [expect.stringMatching(/^too_big: /)] });
  });

  it('label refuses control characters inside, nonBlank keeps them', () => {
    expect(read(label(), 'a\nb')).toEqual({ refused: ['invalid_format: must not contain control characters'] });
    expect(read(label(), 'a\u0007b')).toEqual({ refused: ['invalid_format: must not contain control characters'] });
    expect(read(nonBlank(), 'a\nb')).toEqual({ value: 'a\nb' });
  });
});

describe('emailAddress', () => {
  it.each(['anna@example.com', 'jürgen@beispiel.de', 'a.b+c@mail.example.co.uk', `${'x'.repeat(64)}@example.com`])(
    'takes %j',
    (address) => {
      expect(read(emailAddress(), address)).toEqual({ value: address });
    },
  );

  it.each([
    'anna',
    'anna@example',
    '@example.com',
    'an na@example.com',
    'anna@exa mple.com',
    'anna@@example.com',
    '"anna"@example.com',
    'anna@example..com',
    'anna\u0000@example.com',
    'anna@example.com\n',
    `${'x'.repeat(65)}@example.com`,
  ])('refuses %j', (address) => {
    expect(read(emailAddress(), address)).toEqual({
      refused: [
        'invalid_format: expected an e-mail address such as name@example.com (no spaces or control characters)',
      ],
    });
  });

  it('takes at most 320 characters', () => {
    const long = `a@${'b'.repeat(313)}.de`;
    expect(long).toHaveLength(318);
    expect(read(emailAddress(), long)).toEqual({ value: long });
    expect(read(emailAddress(), `a@${'b'.repeat(316)}.de`)).toEqual({
      refused: [expect.stringMatching(/^too_big: .*320/)],
    });
  });
});

describe('commaList', () => {
  const item = z.enum(['low', 'medium', 'high', 'critical']);
  const severity = commaList(item);

  it.each([
    ['high', ['high']],
    ['high,critical', ['high', 'critical']],
    [' high , critical ', ['high', 'critical']],
    ['high,,critical,', ['high', 'critical']],
  ])('reads %j as %j', (input, value) => {
    expect(read(severity, input)).toEqual({ value });
  });

  it('checks each value', () => {
    expect(read(severity, 'high,urgent')).toEqual({ refused: [expect.stringMatching(/^invalid_value: /)] });
  });

  it('refuses an empty filter', () => {
    expect(read(severity, '  ')).toEqual({ refused: [expect.stringMatching(/^too_small: /)] });
  });

  it('tells the OpenAPI document the schema of one value', () => {
    expect(commaListItems.get(severity)).toBe(item);
  });
});

describe('isoTimestamp', () => {
  const at = isoTimestamp();
  it.each(['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+01:00', '1000-01-01T00:00:00Z', '9999-12-31T23:59:59Z'])(
    'takes %j',
    (v) => {
      expect(read(at, v)).toEqual({ value: v });
    },
  );

  it.each(['0999-12-31T23:59:59Z', '0025-03-01T10:00:00+01:00', '0000-01-01T00:00:00Z'])(
    'refuses %j, a year before 1000',
    (v) => {
      expect(read(at, v)).toEqual({
        refused: ['custom: the year must be 1000 or later (four digits: a two-digit year cannot be read as one)'],
      });
    },
  );

  it('refuses what is no timestamp with zod’s message, or the one it is given', () => {
    expect(read(at, '2026-03-01T10:00:00')).toEqual({ refused: ['invalid_format: Invalid ISO datetime'] });
    expect(
      read(
        isoTimestamp(() => 'say when'),
        'soon',
      ),
    ).toEqual({ refused: ['invalid_format: say when'] });
  });
});
