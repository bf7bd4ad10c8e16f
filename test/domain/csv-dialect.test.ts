import { describe, expect, it } from 'vitest';
import { compileDateFormat, createRowDialect, zonedTimeToUtc } from '../../src/domain/consents/csv-dialect.js';
import { firstInvalidUtf8, guessEncoding, ImportDecoder } from '../../src/domain/consents/text-encoding.js';

const utc = (zone: string, local: string) => new Date(zonedTimeToUtc(zone)(Date.parse(`${local}Z`))).toISOString();

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
