// Times written for a spreadsheet (consents export --date-format, --time-zone): what each stored UTC time becomes, and
// that the import reads it back with the same options.
import { describe, expect, it } from 'vitest';
import { createRowDialect } from '../../src/domain/consents/csv-dialect.js';
import { createTimeWriter } from '../../src/domain/consents/date-writer.js';

describe('times written in a zone and a format', () => {
  it.each([
    [
      { date_format: 'DD.MM.YYYY HH:mm:ss', timezone: 'Europe/Berlin' },
      '2026-03-01T09:15:00.000Z',
      '01.03.2026 10:15:00',
    ],
    [
      { date_format: 'DD.MM.YYYY HH:mm:ss', timezone: 'Europe/Berlin' },
      '2026-07-01T22:30:00.000Z',
      '02.07.2026 00:30:00',
    ],
    [{ date_format: 'D.M.YY H:mm', timezone: 'Europe/Berlin' }, '2026-03-01T06:05:00.000Z', '1.3.26 7:05'],
    [
      { date_format: 'YYYY-MM-DD HH:mm:ss.SSS Z', timezone: 'America/New_York' },
      '2026-03-08T07:30:00.123Z',
      '2026-03-08 03:30:00.123 -04:00',
    ],
    [
      { date_format: 'DD.MM.YYYY HH:mm Z', timezone: 'Asia/Kathmandu' },
      '2026-03-01T00:00:00.000Z',
      '01.03.2026 05:45 +05:45',
    ],
    [{ date_format: 'DD.MM.YYYY[ um ]HH:mm Z' }, '2026-03-01T09:15:00.000Z', '01.03.2026 um 09:15 Z'],
    [{ timezone: 'Europe/Berlin' }, '2026-07-01T08:00:00.000Z', '2026-07-01T10:00:00.000+02:00'],
    [{ timezone: 'UTC' }, '2026-07-01T08:00:00.000Z', '2026-07-01T08:00:00.000+00:00'],
  ])('%j writes %s as %j', (opts, stored, written) => {
    expect(createTimeWriter(opts)!(stored)).toBe(written);
  });

  it('leaves times as stored without a format or a zone', () => {
    expect(createTimeWriter({})).toBeUndefined();
  });

  it.each([
    { date_format: 'DD.MM.YYYY HH:mm:ss', timezone: 'Europe/Berlin' },
    { date_format: 'YYYY-MM-DD HH:mm:ss.SSS Z', timezone: 'America/New_York' },
    { timezone: 'Australia/Lord_Howe' },
  ])('writes what the import reads back as the same instant: %j', (opts) => {
    const write = createTimeWriter(opts)!;
    const read = createRowDialect(opts);
    // every quarter hour of a year, the changes of the clocks included, but the hour the clocks go back (written
    // without an offset it occurs twice; the import reads the earlier one)
    for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 900_000 * 7) {
      const stored = new Date(t).toISOString();
      const record: Record<string, unknown> = { granted_at: write(stored) };
      expect(read(record)).toBeUndefined();
      const back = Date.parse(record.granted_at as string);
      // the earlier of the two: an hour before (Lord Howe moves its clocks by half an hour)
      if (back !== t) expect([-3_600_000, -1_800_000], `${stored} -> ${record.granted_at}`).toContain(back - t);
    }
  });
});
