// How the values of a consents import written by another system are read (--true-values, --false-values,
// --date-format, --timezone): each accepted form with the UTC timestamp it becomes, and each refused cell with the
// message its line gets in the import's summary.
import { describe, expect, it } from 'vitest';
import {
  compileDateFormat,
  createRowDialect,
  type DialectOptions,
  wordList,
  zonedTimeToUtc,
} from '../../src/domain/consents/csv-dialect.js';
import { firstInvalidUtf8, guessEncoding, ImportDecoder } from '../../src/domain/consents/text-encoding.js';

const utc = (zone: string, local: string) => new Date(zonedTimeToUtc(zone)(Date.parse(`${local}Z`))).toISOString();

/** What the dialect makes of one time cell: the value it writes for the schema, or the reason it refuses the line. */
const cell = (opts: DialectOptions, text: unknown, field: 'granted_at' | 'revoked_at' = 'granted_at') => {
  const record: Record<string, unknown> = { [field]: text };
  const refused = createRowDialect(opts)(record);
  return refused === undefined ? record[field] : { refused };
};

/** What the dialect makes of a granted cell. */
const granted = (opts: DialectOptions, text: unknown) => {
  const record: Record<string, unknown> = { granted: text };
  const refused = createRowDialect(opts)(record);
  return refused === undefined ? record.granted : { refused };
};

describe('local times in a zone', () => {
  it.each([
    ['Europe/Berlin', '2026-01-15T12:00:00', '2026-01-15T11:00:00.000Z'],
    ['Europe/Berlin', '2026-07-15T12:00:00', '2026-07-15T10:00:00.000Z'],
    // 29 March 2026, 02:30 does not exist in Berlin: moves forward to 03:30 CEST
    ['Europe/Berlin', '2026-03-29T02:30:00', '2026-03-29T01:30:00.000Z'],
    // 25 October 2026, 02:30 happens twice: the earlier one (CEST)
    ['Europe/Berlin', '2026-10-25T02:30:00', '2026-10-25T00:30:00.000Z'],
    ['America/New_York', '2026-01-15T12:00:00', '2026-01-15T17:00:00.000Z'],
    ['Asia/Kolkata', '2026-01-15T12:00:00', '2026-01-15T06:30:00.000Z'],
    ['UTC', '2026-01-15T12:00:00', '2026-01-15T12:00:00.000Z'],
  ])('%s %s is %s', (zone, local, expected) => expect(utc(zone, local)).toBe(expected));
});

describe('date formats', () => {
  it('reads the tokens it names and refuses letters it does not know', () => {
    expect(compileDateFormat('DD.MM.YYYY HH:mm').parse('01.03.2026 10:05')).toMatchObject({
      year: 2026,
      month: 3,
      day: 1,
      hour: 10,
      minute: 5,
    });
    expect(compileDateFormat('D/M/YY').parse('1/3/26')).toMatchObject({ year: 2026, month: 3, day: 1 });
    expect(compileDateFormat('YYYY-MM-DD[T]HH:mm:ssZ').parse('2026-03-01T10:00:00+01:00')?.offset).toBe(60);
    expect(compileDateFormat('DD.MM.YYYY').parse('1.3.2026')).toBeUndefined();
    expect(() => compileDateFormat('dd.MM.yyyy')).toThrow(/unknown letters "dd."/);
    expect(() => compileDateFormat('HH:mm')).toThrow(/needs a year/);
  });

  it('refuses a date that does not exist and keeps zoned ISO timestamps for the schema', () => {
    const d = createRowDialect({ date_format: 'DD.MM.YYYY', timezone: 'Europe/Berlin' });
    expect(d({ granted_at: '31.02.2026' })).toMatch(/not a valid date/);
    expect(d({ granted_at: '2026-02-01' })).toMatch(/does not match the date format DD.MM.YYYY/);
    const iso = createRowDialect({});
    const r: Record<string, unknown> = { granted_at: '2026-02-01T10:00:00+01:00', revoked_at: '' };
    expect(iso(r)).toBeUndefined();
    expect(r.granted_at).toBe('2026-02-01T10:00:00+01:00');
  });
});

describe('local times in a zone around the changes of the clocks', () => {
  it.each([
    // Berlin, spring 2026: 02:00 CET jumps to 03:00 CEST; a skipped time moves forward by the hour skipped
    ['Europe/Berlin', '2026-03-28T12:00:00', '2026-03-28T11:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29T01:59:59', '2026-03-29T00:59:59.000Z'],
    ['Europe/Berlin', '2026-03-29T02:00:00', '2026-03-29T01:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29T02:59:59', '2026-03-29T01:59:59.000Z'],
    ['Europe/Berlin', '2026-03-29T03:00:00', '2026-03-29T01:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29T12:00:00', '2026-03-29T10:00:00.000Z'],
    // Berlin, autumn 2026: 03:00 CEST falls back to 02:00 CET; a time that occurs twice is the earlier one
    ['Europe/Berlin', '2026-10-24T12:00:00', '2026-10-24T10:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25T01:59:59', '2026-10-24T23:59:59.000Z'],
    ['Europe/Berlin', '2026-10-25T02:00:00', '2026-10-25T00:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25T02:59:59', '2026-10-25T00:59:59.000Z'],
    ['Europe/Berlin', '2026-10-25T03:00:00', '2026-10-25T02:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25T12:00:00', '2026-10-25T11:00:00.000Z'],
    // the same rules west of UTC, where the earlier of two times has the larger (less negative) offset
    ['America/New_York', '2026-03-07T12:00:00', '2026-03-07T17:00:00.000Z'],
    ['America/New_York', '2026-03-08T02:30:00', '2026-03-08T07:30:00.000Z'],
    ['America/New_York', '2026-03-08T12:00:00', '2026-03-08T16:00:00.000Z'],
    ['America/New_York', '2026-11-01T01:30:00', '2026-11-01T05:30:00.000Z'],
    ['America/New_York', '2026-11-01T12:00:00', '2026-11-01T17:00:00.000Z'],
    // half an hour of summer time, and the outermost offsets
    ['Australia/Lord_Howe', '2026-01-15T12:00:00', '2026-01-15T01:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-07-15T12:00:00', '2026-07-15T01:30:00.000Z'],
    ['Pacific/Kiritimati', '2026-01-15T12:00:00', '2026-01-14T22:00:00.000Z'],
    ['Etc/GMT+12', '2026-01-15T12:00:00', '2026-01-16T00:00:00.000Z'],
    // milliseconds are kept; times before 1970 too
    ['Europe/Berlin', '2026-03-01T10:00:00.999', '2026-03-01T09:00:00.999Z'],
    ['Europe/Berlin', '1969-07-21T03:56:20.5', '1969-07-21T02:56:20.500Z'],
  ])('%s %s is %s', (zone, local, expected) => expect(utc(zone, local)).toBe(expected));

  it('gives every time of a file the same answer as a fresh reading, however many times it has read before', () => {
    const berlin = zonedTimeToUtc('Europe/Berlin');
    const start = Date.parse('2026-10-24T22:00:00Z');
    for (let local = start; local < start + 8 * 3_600_000; local += 7 * 60_000) {
      const fresh = zonedTimeToUtc('Europe/Berlin')(local);
      expect(berlin(local), new Date(local).toISOString()).toBe(fresh);
    }
  });
});

describe('a date format', () => {
  it.each([
    ['DD.MM.YYYY', '01.03.2026', '2026-03-01T00:00:00.000Z'],
    ['DD.MM.YYYY HH:mm', '31.12.2026 23:59', '2026-12-31T23:59:00.000Z'],
    ['DD.MM.YY', '01.03.26', '2026-03-01T00:00:00.000Z'],
    ['D.M.YYYY H:mm', '1.3.2026 7:05', '2026-03-01T07:05:00.000Z'],
    ['D.M.YYYY H:mm', '11.12.2026 17:05', '2026-12-11T17:05:00.000Z'],
    ['M/D/YYYY', '12/31/2026', '2026-12-31T00:00:00.000Z'],
    ['YYYY-MM-DD HH:mm:ss', '2026-03-01 10:05:59', '2026-03-01T10:05:59.000Z'],
    ['YYYY-MM-DD HH:mm:ss.SSS', '2026-03-01 10:05:59.999', '2026-03-01T10:05:59.999Z'],
    ['YYYY-MM-DD HH:mm:ss.SSS', '2026-03-01 10:05:59.001', '2026-03-01T10:05:59.001Z'],
    ['YYYYMMDDHHmmss', '20260301100559', '2026-03-01T10:05:59.000Z'],
    ['DD.MM.YYYY [um] HH:mm [Uhr]', '01.03.2026 um 10:05 Uhr', '2026-03-01T10:05:00.000Z'],
    ['YYYY/MM/DD (HH:mm)', '2026/03/01 (10:05)', '2026-03-01T10:05:00.000Z'],
    ['YYYY-MM-DD+HH', '2026-03-01+10', '2026-03-01T10:00:00.000Z'],
    ['YYYY[.]MM[.]DD[ (]HH[h)]', '2026.03.01 (10h)', '2026-03-01T10:00:00.000Z'],
    // leap days, and the first year a timestamp may name (issue 22: earlier ones are refused)
    ['DD.MM.YYYY', '29.02.2024', '2024-02-29T00:00:00.000Z'],
    ['DD.MM.YYYY', '29.02.2000', '2000-02-29T00:00:00.000Z'],
    ['DD.MM.YYYY', '31.01.2026', '2026-01-31T00:00:00.000Z'],
    ['DD.MM.YYYY', '30.04.2026', '2026-04-30T00:00:00.000Z'],
    ['DD.MM.YYYY', '01.01.1000', '1000-01-01T00:00:00.000Z'],
  ])('%s reads %j as %s (UTC)', (date_format, text, expected) => {
    expect(cell({ date_format, timezone: 'UTC' }, text)).toBe(expected);
  });

  it.each([
    ['DD.MM.YYYY HH:mm', '01.03.2026 10:05', 'Europe/Berlin', '2026-03-01T09:05:00.000Z'],
    ['DD.MM.YYYY HH:mm', '01.07.2026 10:05', 'Europe/Berlin', '2026-07-01T08:05:00.000Z'],
    ['DD.MM.YYYY HH:mm', '29.03.2026 02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ['DD.MM.YYYY HH:mm', '25.10.2026 02:30', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
    ['M/D/YYYY H:mm', '3/8/2026 2:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
  ])('%s reads %j in %s as %s', (date_format, text, timezone, expected) => {
    expect(cell({ date_format, timezone }, text)).toBe(expected);
  });

  it.each([
    ['Z', '2026-03-01T10:05:00.000Z'],
    ['+00:00', '2026-03-01T10:05:00.000Z'],
    ['-00:00', '2026-03-01T10:05:00.000Z'],
    ['+01:00', '2026-03-01T09:05:00.000Z'],
    ['+0100', '2026-03-01T09:05:00.000Z'],
    ['-05:30', '2026-03-01T15:35:00.000Z'],
    ['+05:45', '2026-03-01T04:20:00.000Z'],
    ['+14:00', '2026-02-28T20:05:00.000Z'],
    ['-12:00', '2026-03-01T22:05:00.000Z'],
    ['+23:59', '2026-02-28T10:06:00.000Z'],
    ['-2359', '2026-03-02T10:04:00.000Z'],
  ])('reads the zone %s of a time written with one, whatever --timezone says', (zone, expected) => {
    expect(cell({ date_format: 'DD.MM.YYYY HH:mm Z', timezone: 'Europe/Berlin' }, `01.03.2026 10:05 ${zone}`)).toBe(
      expected,
    );
    expect(cell({ date_format: 'DD.MM.YYYY HH:mmZZ' }, `01.03.2026 10:05${zone}`)).toBe(expected);
  });

  const nomatch = (text: string, format: string) =>
    `granted_at: ${JSON.stringify(text)} does not match the date format ${format}`;
  const invalid = (text: string) => `granted_at: ${JSON.stringify(text)} is not a valid date and time`;
  const hinted = (text: string, format: string, loose: string) =>
    `${nomatch(text, format)}; for days, months or hours without a leading zero use --date-format '${loose}' (API: date_format=${loose})`;
  const early = (text: string, year: number) =>
    `granted_at: ${JSON.stringify(text)} names the year ${year}; the year must be 1000 or later`;

  it.each([
    // written otherwise than the format says; without the leading zeros DD, MM and HH ask for, with a hint
    ['DD.MM.YYYY', '1.3.2026', hinted('1.3.2026', 'DD.MM.YYYY', 'D.M.YYYY')],
    ['DD.MM.YYYY', '01.3.2026', hinted('01.3.2026', 'DD.MM.YYYY', 'D.M.YYYY')],
    ['DD.MM.YYYY HH:mm', '1.3.2026 7:05', hinted('1.3.2026 7:05', 'DD.MM.YYYY HH:mm', 'D.M.YYYY H:mm')],
    ['[am ]DD.MM.YYYY', 'am 1.3.2026', hinted('am 1.3.2026', '[am ]DD.MM.YYYY', '[am ]D.M.YYYY')],
    ['DD.MM.YYYY HH:mm', '1.3.2026', nomatch('1.3.2026', 'DD.MM.YYYY HH:mm')],
    ['D.M.YYYY', '1-3-2026', nomatch('1-3-2026', 'D.M.YYYY')],
    ['DD.MM.YYYY', '01.03.26', nomatch('01.03.26', 'DD.MM.YYYY')],
    ['DD.MM.YYYY', '01-03-2026', nomatch('01-03-2026', 'DD.MM.YYYY')],
    ['DD.MM.YYYY', '01.03.2026 10:05', nomatch('01.03.2026 10:05', 'DD.MM.YYYY')],
    ['DD.MM.YYYY', 'am 01.03.2026', nomatch('am 01.03.2026', 'DD.MM.YYYY')],
    ['DD.MM.YYYY', '2026-03-01T10:05:00Z', nomatch('2026-03-01T10:05:00Z', 'DD.MM.YYYY')],
    ['D.M.YYYY', '001.3.2026', nomatch('001.3.2026', 'D.M.YYYY')],
    ['YYYY[.]MM[.]DD', '2026-03-01', nomatch('2026-03-01', 'YYYY[.]MM[.]DD')],
    ['YYYY-MM-DD+HH', '2026-03-0110', nomatch('2026-03-0110', 'YYYY-MM-DD+HH')],
    ['YYYY/MM/DD (HH:mm)', '2026/03/01 10:05', nomatch('2026/03/01 10:05', 'YYYY/MM/DD (HH:mm)')],
    ['YYYY-MM-DD HH:mm:ss.SSS', '2026-03-01 10:05:59.99', nomatch('2026-03-01 10:05:59.99', 'YYYY-MM-DD HH:mm:ss.SSS')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05', nomatch('01.03.2026 10:05', 'DD.MM.YYYY HH:mm Z')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 z', nomatch('01.03.2026 10:05 z', 'DD.MM.YYYY HH:mm Z')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 +1:00', nomatch('01.03.2026 10:05 +1:00', 'DD.MM.YYYY HH:mm Z')],
    // offsets the API refuses too
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 +24:00', nomatch('01.03.2026 10:05 +24:00', 'DD.MM.YYYY HH:mm Z')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 -30:00', nomatch('01.03.2026 10:05 -30:00', 'DD.MM.YYYY HH:mm Z')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 +01:60', nomatch('01.03.2026 10:05 +01:60', 'DD.MM.YYYY HH:mm Z')],
    ['DD.MM.YYYY HH:mm Z', '01.03.2026 10:05 +0175', nomatch('01.03.2026 10:05 +0175', 'DD.MM.YYYY HH:mm Z')],
    // dates and times that do not exist
    ['DD.MM.YYYY', '00.03.2026', invalid('00.03.2026')],
    ['DD.MM.YYYY', '32.01.2026', invalid('32.01.2026')],
    ['DD.MM.YYYY', '31.04.2026', invalid('31.04.2026')],
    ['DD.MM.YYYY', '29.02.2026', invalid('29.02.2026')],
    ['DD.MM.YYYY', '29.02.2100', invalid('29.02.2100')],
    ['DD.MM.YYYY', '01.00.2026', invalid('01.00.2026')],
    ['DD.MM.YYYY', '01.13.2026', invalid('01.13.2026')],
    // years before 1000: a typo, or a two-digit year
    ['DD.MM.YYYY', '01.01.0000', early('01.01.0000', 0)],
    ['DD.MM.YYYY', '01.03.0026', early('01.03.0026', 26)],
    ['DD.MM.YYYY', '31.12.0999', early('31.12.0999', 999)],
    ['DD.MM.YYYY HH:mm:ss', '01.03.2026 24:00:00', invalid('01.03.2026 24:00:00')],
    ['DD.MM.YYYY HH:mm:ss', '01.03.2026 23:60:00', invalid('01.03.2026 23:60:00')],
    ['DD.MM.YYYY HH:mm:ss', '01.03.2026 23:59:60', invalid('01.03.2026 23:59:60')],
  ])('%s refuses %j', (date_format, text, refused) => {
    expect(cell({ date_format, timezone: 'UTC' }, text)).toEqual({ refused });
  });

  it('reads a time without a zone only with --timezone', () => {
    expect(cell({ date_format: 'DD.MM.YYYY HH:mm' }, '01.03.2026 10:05')).toEqual({
      refused:
        'granted_at: "01.03.2026 10:05" has no time zone; write it with one (2026-03-01T10:00:00Z or +01:00) or ' +
        'say which zone the file means with --time-zone Europe/Berlin (API: ?timezone=Europe/Berlin)',
    });
  });

  const letters = (s: string) =>
    `unknown letters "${s}" in the date format; use YYYY YY MM M DD D HH H mm ss SSS Z, and [text] for literal text`;
  const needs = 'the date format needs a year (YYYY), a month (MM) and a day (DD)';

  it.each([
    ['dd.MM.yyyy', letters('dd.')],
    ['DD.MM.YYYY hh:mm', letters(' hh:')],
    ['YYYY-MM-DDTHH:mm', letters('T')],
    ['DD.MM.YYYY [um HH:mm', letters(' [um ')],
    ['DD.MM.YYYY HH:mm Uhr', letters(' Uhr')],
    ['DD.MM.YYYY HH:mm:ss.S', letters('.S')],
    ['HH:mm', needs],
    ['MM/DD', needs],
    ['YYYY-DD', needs],
    ['YYYY-MM', needs],
    ['[YYYY]-MM-DD', needs],
    ['YYYY-[MM]-DD', needs],
    ['YYYY-MM-[DD]', needs],
  ])('refuses the format %j: %s', (format, message) => {
    expect(() => compileDateFormat(format)).toThrow(message);
  });

  it.each([
    ['DD.MM.YYYY HH:mm Z', true],
    ['YYYY-MM-DD[T]HH:mm:ssZZ', true],
    ['DD.MM.YYYY HH:mm', false],
    ['DD.MM.YYYY HH:mm [Z]', false],
  ])('%s has a zone: %s', (format, hasZone) => {
    expect(compileDateFormat(format).hasZone).toBe(hasZone);
  });

  it('reads the default of each part a format leaves out', () => {
    expect(compileDateFormat('DD.MM.YYYY').parse('01.03.2026')).toEqual({
      year: 2026,
      month: 3,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
      ms: 0,
    });
  });
});

describe('an ISO time without a zone, when the file has no date format', () => {
  it.each([
    ['2026-03-01', 'Europe/Berlin', '2026-02-28T23:00:00.000Z'],
    ['2026-03-01T10:05', 'Europe/Berlin', '2026-03-01T09:05:00.000Z'],
    ['2026-03-01 10:05', 'Europe/Berlin', '2026-03-01T09:05:00.000Z'],
    ['2026-07-01T10:05', 'Europe/Berlin', '2026-07-01T08:05:00.000Z'],
    ['2026-03-01T10:05:59', 'Europe/Berlin', '2026-03-01T09:05:59.000Z'],
    ['2026-03-01T10:05:59.5', 'Europe/Berlin', '2026-03-01T09:05:59.500Z'],
    ['2026-03-01T10:05:59.12', 'Europe/Berlin', '2026-03-01T09:05:59.120Z'],
    ['2026-03-01T10:05:59.123456789', 'Europe/Berlin', '2026-03-01T09:05:59.123Z'],
    ['2026-03-01T23:59:59.999', 'UTC', '2026-03-01T23:59:59.999Z'],
    ['2024-02-29T00:00', 'UTC', '2024-02-29T00:00:00.000Z'],
    ['1000-03-01T10:05', 'UTC', '1000-03-01T10:05:00.000Z'],
  ])('%s in %s is %s', (text, timezone, expected) => {
    expect(cell({ timezone }, text)).toBe(expected);
  });

  it.each([
    ['0026-03-01T10:05', 26],
    ['0999-12-31', 999],
    ['0000-01-01', 0],
  ])('refuses %j, a year before 1000', (text, year) => {
    expect(cell({ timezone: 'UTC' }, text)).toEqual({
      refused: `granted_at: ${JSON.stringify(text)} names the year ${year}; the year must be 1000 or later`,
    });
  });

  // a time with its zone, or no ISO time at all: left as written, for the API's schema to take or refuse
  it.each([
    '2026-03-01T10:05:00Z',
    '2026-03-01T10:05:00+01:00',
    '2026-03-01T10:05:00.123-05:00',
    '2026-03-01T10:05+01:00',
    '2026-03-01Z',
    '2026-3-1',
    '2026-03-1',
    '26-03-01',
    '12026-03-01',
    '2026-03-01T10',
    '2026-03-01T1:05',
    '2026-03-01T10:5',
    '2026-03-01T10:05:5',
    '2026-03-01T10:05:00.',
    '2026-03-01T10:05:00.1234567890',
    '2026-03-01t10:05',
    '2026-03-01_10:05',
    '2026-03-01T10:05:00,5',
    '01.03.2026',
  ])('leaves %j to the schema', (text) => {
    expect(cell({ timezone: 'Europe/Berlin' }, text)).toBe(text);
    expect(cell({}, text)).toBe(text);
  });

  it.each([
    '2026-13-01',
    '2026-00-10',
    '2026-02-29',
    '2026-04-31',
    '2026-03-01T24:00',
    '2026-03-01T23:60',
    '2026-03-01T23:59:60',
  ])('refuses %j, which does not exist', (text) => {
    expect(cell({ timezone: 'Europe/Berlin' }, text)).toEqual({
      refused: `granted_at: ${JSON.stringify(text)} is not a valid date and time`,
    });
  });

  it.each(['2026-03-01', '2026-03-01T10:05', '2026-03-01 10:05:59.5'])('asks for the zone of %j', (text) => {
    expect(cell({}, text)).toEqual({
      refused: `granted_at: ${JSON.stringify(text)} has no time zone; write it with one (2026-03-01T10:00:00Z or +01:00) or say which zone the file means with --time-zone Europe/Berlin (API: ?timezone=Europe/Berlin)`,
    });
  });
});

describe('the time cells of a row', () => {
  const berlin = createRowDialect({ date_format: 'DD.MM.YYYY HH:mm', timezone: 'Europe/Berlin' });

  it('reads granted_at and revoked_at, trimmed, and touches no other field', () => {
    const row: Record<string, unknown> = {
      user_id: ' 01.03.2026 10:05 ',
      granted_at: ' 01.03.2026 10:05 ',
      revoked_at: '\t02.03.2026 11:00',
    };
    expect(berlin(row)).toBeUndefined();
    expect(row).toEqual({
      user_id: ' 01.03.2026 10:05 ',
      granted_at: '2026-03-01T09:05:00.000Z',
      revoked_at: '2026-03-02T10:00:00.000Z',
    });
  });

  it.each([
    [{}],
    [{ granted_at: '', revoked_at: '' }],
    [{ granted_at: '   ', revoked_at: null }],
    [{ granted_at: 20260301, revoked_at: true }],
  ])('leaves a cell alone that holds no text: %j', (row) => {
    const before = structuredClone(row);
    expect(berlin(row)).toBeUndefined();
    expect(row).toEqual(before);
  });

  it('names the cell it cannot read, granted_at first', () => {
    expect(berlin({ granted_at: '01.03.2026 10:05', revoked_at: '31.02.2026 10:00' })).toBe(
      'revoked_at: "31.02.2026 10:00" is not a valid date and time',
    );
    expect(berlin({ granted_at: ' 1.3.2026 ', revoked_at: '31.02.2026 10:00' })).toBe(
      'granted_at: "1.3.2026" does not match the date format DD.MM.YYYY HH:mm',
    );
    expect(cell({ timezone: 'UTC' }, '2026-02-30', 'revoked_at')).toEqual({
      refused: 'revoked_at: "2026-02-30" is not a valid date and time',
    });
  });
});

describe('the words for granted', () => {
  it.each([
    [{}, 'true', true],
    [{}, ' TRUE ', true],
    [{}, '1', true],
    [{}, 'Yes', true],
    [{}, 'false', false],
    [{}, '0', false],
    [{}, 'NO', false],
    // without words of its own a file's other words go to the schema, which names the ones it takes
    [{}, 'ja', 'ja'],
    [{}, '', ''],
    [{}, true, true],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, 'Ja', true],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, ' j ', true],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, 'NEIN', false],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, 'n', false],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, 'yes', true],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, '0', false],
    [{ true_values: 'ja,j', false_values: 'nein,n' }, false, false],
    [{ true_values: 'x' }, 'X', true],
    [{ true_values: 'x' }, 'no', false],
    [{ false_values: '-' }, '-', false],
    [{ false_values: '-' }, 'true', true],
    // a file's own word wins over the meaning it has by default
    [{ false_values: '1' }, '1', false],
    [{ true_values: '0' }, '0', true],
  ])('%j reads %j as %j', (opts, text, expected) => {
    expect(granted(opts, text)).toBe(expected);
  });

  it.each([
    [{ true_values: 'ja,j', false_values: 'nein,n' }, 'vielleicht', 'true, 1, yes, ja, j, false, 0, no, nein, n'],
    [{ true_values: 'x' }, '', 'true, 1, yes, x, false, 0, no'],
    [{ false_values: '-' }, 'x', 'true, 1, yes, false, 0, no, -'],
    [{ false_values: '1' }, 'y', 'true, yes, false, 0, no, 1'],
    [{ true_values: '0,no' }, 'nein', 'true, 1, yes, 0, no, false'],
  ])('with %j refuses %j, naming the words it takes', (opts, text, words) => {
    expect(granted(opts, text)).toEqual({ refused: `granted: expected one of ${words}; got ${JSON.stringify(text)}` });
  });

  it.each([
    [undefined, []],
    ['', []],
    [' , ,', []],
    [' Ja , ,J ', ['ja', 'j']],
    ['NEIN,n', ['nein', 'n']],
  ])('the word list %j is %j', (list, words) => {
    expect(wordList(list)).toEqual(words);
  });
});

describe('encodings', () => {
  it('finds the first invalid UTF-8 byte and guesses the encoding', () => {
    expect(firstInvalidUtf8(Buffer.from('aä', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from('ab\xe4c', 'latin1'))).toBe(2);
    expect(guessEncoding(Buffer.from('user_id', 'utf16le'))).toBe('utf-16le');
    expect(guessEncoding(Buffer.from('M\xfcller', 'latin1'))).toBe('windows-1252');
  });

  it('decodes a multi-byte character and a byte order mark cut between pieces', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ä€\n', 'utf8')]);
    const d = new ImportDecoder(undefined);
    let text = '';
    for (let i = 0; i < bytes.length; i++) text += d.decode(bytes.subarray(i, i + 1));
    expect(text + d.end()).toBe('ä€\n');
    expect(() => new ImportDecoder(undefined).decode(Buffer.from('user_id\n', 'utf16le'))).toThrow(
      /UTF-16 without a byte order mark/,
    );
  });
});
