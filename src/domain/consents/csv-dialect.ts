import { MIN_YEAR } from '../schema-helpers.js';

/**
 * How another system writes the values of a consent file: its words for yes and no, its date format and the time zone
 * its timestamps mean. Applied to each imported row before the API's schema validates it.
 */
export interface DialectOptions {
  true_values?: string;
  false_values?: string;
  date_format?: string;
  timezone?: string;
}

/** Turns a row's values into the API's forms in place; answers the reason when a value cannot be read. */
export type RowDialect = (record: Record<string, unknown>) => string | undefined;

const DEFAULT_TRUE = ['true', '1', 'yes'];
const DEFAULT_FALSE = ['false', '0', 'no'];
const TIMESTAMP_FIELDS = ['granted_at', 'revoked_at'] as const;

/** Comma-separated words, trimmed and lower-cased. */
export const wordList = (s: string | undefined): string[] =>
  (s ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Minutes east of UTC when the text carries a zone. */
  offset?: number;
}

const TOKENS: Record<string, { re: string; set: (p: Parts, v: string) => void }> = {
  YYYY: { re: '(\\d{4})', set: (p, v) => (p.year = Number(v)) },
  YY: { re: '(\\d{2})', set: (p, v) => (p.year = 2000 + Number(v)) },
  MM: { re: '(\\d{2})', set: (p, v) => (p.month = Number(v)) },
  M: { re: '(\\d{1,2})', set: (p, v) => (p.month = Number(v)) },
  DD: { re: '(\\d{2})', set: (p, v) => (p.day = Number(v)) },
  D: { re: '(\\d{1,2})', set: (p, v) => (p.day = Number(v)) },
  HH: { re: '(\\d{2})', set: (p, v) => (p.hour = Number(v)) },
  H: { re: '(\\d{1,2})', set: (p, v) => (p.hour = Number(v)) },
  mm: { re: '(\\d{2})', set: (p, v) => (p.minute = Number(v)) },
  ss: { re: '(\\d{2})', set: (p, v) => (p.second = Number(v)) },
  SSS: { re: '(\\d{3})', set: (p, v) => (p.ms = Number(v)) },
  // the offsets the API's timestamps take: -23:59 to +23:59
  Z: { re: '(Z|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)', set: (p, v) => (p.offset = offsetMinutes(v)) },
};
// longest first, so YYYY is not read as YY twice
export const TOKEN_RE = /\[[^\]]*\]|YYYY|SSS|YY|MM|DD|HH|mm|ss|M|D|H|ZZ|Z/g;

const offsetMinutes = (v: string) => {
  if (v === 'Z') return 0;
  const d = v.replace(':', '');
  return (d[0] === '-' ? -1 : 1) * (Number(d.slice(1, 3)) * 60 + Number(d.slice(3, 5)));
};

/** A date format such as `DD.MM.YYYY HH:mm`, compiled once; throws a message naming what is wrong with it. */
export function compileDateFormat(format: string): { parse(text: string): Parts | undefined; hasZone: boolean } {
  const setters: Array<(p: Parts, v: string) => void> = [];
  // the letters of the tokens used (not those in [text]): Y for YYYY or YY, M for MM or M, ...
  const used = new Set<string>();
  let re = '';
  let last = 0;
  const literal = (s: string) => {
    if (/[A-Za-z]/.test(s))
      throw new Error(
        `unknown letters "${s}" in the date format; use YYYY YY MM M DD D HH H mm ss SSS Z, and [text] for literal text`,
      );
    re += s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  };
  for (const m of format.matchAll(TOKEN_RE)) {
    literal(format.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[0].startsWith('[')) {
      re += m[0].slice(1, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    const t = TOKENS[m[0] === 'ZZ' ? 'Z' : m[0]]!;
    re += t.re;
    setters.push(t.set);
    used.add(m[0][0]!);
  }
  literal(format.slice(last));
  if (!used.has('Y') || !used.has('M') || !used.has('D'))
    throw new Error('the date format needs a year (YYYY), a month (MM) and a day (DD)');
  const full = new RegExp(`^${re}$`);
  return {
    hasZone: used.has('Z'),
    parse(text: string) {
      const m = full.exec(text);
      if (!m) return undefined;
      const p: Parts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, ms: 0 };
      setters.forEach((set, i) => set(p, m[i + 1]!));
      return p;
    },
  };
}

const LOCAL_ISO = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?$/;

const partsOfLocalIso = (text: string): Parts | undefined => {
  const m = LOCAL_ISO.exec(text);
  if (!m) return undefined;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    ms: m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0,
  };
};

/** UTC milliseconds of a date and time; Date.UTC would read the years 0 to 99 as 1900 to 1999. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

/** The formatter zoneOffsetAt reads a zone's wall-clock time with. */
export const zoneClock = (zone: string): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });

/** The offset of a zone (minutes east of UTC) at an instant, from the runtime's time zone data. */
export function zoneOffsetAt(fmt: Intl.DateTimeFormat, utc: number): number {
  const p: Record<string, number> = {};
  for (const { type, value } of fmt.formatToParts(utc)) p[type] = Number(value);
  const wall = utcMs(p.year!, p.month!, p.day!, p.hour! % 24, p.minute!, p.second!);
  return Math.round((wall - Math.floor(utc / 1000) * 1000) / 60_000);
}

/**
 * Local wall-clock time in a zone → UTC milliseconds. Around a change of the clocks it follows Temporal's
 * `compatible` rule: a time that occurs twice (autumn) is the earlier one, a time skipped (spring) moves forward.
 */
export function zonedTimeToUtc(zone: string): (local: number) => number {
  const fmt = zoneClock(zone);
  // offsets change at most a few times a year: remember them per quarter hour of local time
  const cache = new Map<number, number>();
  return (local) => {
    const key = Math.floor(local / 900_000);
    let offset = cache.get(key);
    if (offset === undefined) {
      const before = zoneOffsetAt(fmt, local - 86_400_000);
      const after = zoneOffsetAt(fmt, local + 86_400_000);
      const fits = (o: number) => zoneOffsetAt(fmt, local - o * 60_000) === o;
      // the offset of the day before, unless the time exists only with the offset of the day after: a time that occurs
      // twice (the clocks went back) keeps the earlier offset, a time skipped (they went forward) moves forward
      offset = !fits(before) && fits(after) ? after : before;
      if (cache.size > 10_000) cache.clear();
      cache.set(key, offset);
    }
    return local - offset * 60_000;
  };
}

// years from 1000 on, as the API's timestamps (MIN_YEAR): an earlier one is a typo or a two-digit year, and year 0
// would be 1 BC in the runtime's zone data, putting the time years off
const validParts = (p: Parts) =>
  p.year >= MIN_YEAR &&
  p.month >= 1 &&
  p.month <= 12 &&
  p.day >= 1 &&
  p.day <= new Date(utcMs(p.year, p.month + 1, 0)).getUTCDate() &&
  p.hour <= 23 &&
  p.minute <= 59 &&
  p.second <= 59;

/**
 * The format with two-digit day, month and hour tokens made one-or-two-digit ones (`DD.MM.YYYY` -> `D.M.YYYY`), or
 * undefined when it has none.
 */
export function looseFormat(format: string): string | undefined {
  const loose = format.replace(TOKEN_RE, (t) => (t === 'DD' || t === 'MM' || t === 'HH' ? t[0]! : t));
  return loose === format ? undefined : loose;
}

/** The reading of a file's values that `opts` describes, as one function applied to every row. */
export function createRowDialect(opts: DialectOptions): RowDialect {
  const trues = wordList(opts.true_values);
  const falses = wordList(opts.false_values);
  const custom = trues.length > 0 || falses.length > 0;
  const truthy = new Set([...DEFAULT_TRUE.filter((w) => !falses.includes(w)), ...trues]);
  const falsy = new Set([...DEFAULT_FALSE.filter((w) => !trues.includes(w)), ...falses]);
  const format = opts.date_format ? compileDateFormat(opts.date_format) : undefined;
  // DD.MM.YYYY refuses 1.3.2026; the same format with one-digit tokens is offered when it would read the text
  const loose = opts.date_format ? looseFormat(opts.date_format) : undefined;
  const looseParser = loose ? compileDateFormat(loose) : undefined;
  const toUtc = opts.timezone ? zonedTimeToUtc(opts.timezone) : undefined;
  const accepted = () => [...truthy, ...falsy].join(', ');

  const timestamp = (field: string, text: string): string | { error: string } => {
    const parts = format ? format.parse(text) : partsOfLocalIso(text);
    if (!parts) {
      if (!format) return text; // a timestamp with its zone: the schema checks it
      const hint = looseParser?.parse(text)
        ? `; for days, months or hours without a leading zero use --date-format '${loose}' (API: date_format=${loose})`
        : '';
      return { error: `${field}: ${JSON.stringify(text)} does not match the date format ${opts.date_format}${hint}` };
    }
    if (parts.year < MIN_YEAR)
      return {
        error: `${field}: ${JSON.stringify(text)} names the year ${parts.year}; the year must be ${MIN_YEAR} or later`,
      };
    if (!validParts(parts)) return { error: `${field}: ${JSON.stringify(text)} is not a valid date and time` };
    const local = utcMs(parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second, parts.ms);
    if (parts.offset !== undefined) return new Date(local - parts.offset * 60_000).toISOString();
    if (!toUtc)
      return {
        error: `${field}: ${JSON.stringify(text)} has no time zone; write it with one (2026-03-01T10:00:00Z or +01:00) or say which zone the file means with --time-zone Europe/Berlin (API: ?timezone=Europe/Berlin)`,
      };
    return new Date(toUtc(local)).toISOString();
  };

  return (record) => {
    const g = record.granted;
    if (typeof g === 'string') {
      const w = g.trim().toLowerCase();
      if (truthy.has(w)) record.granted = true;
      else if (falsy.has(w)) record.granted = false;
      else if (custom) return `granted: expected one of ${accepted()}; got ${JSON.stringify(g)}`;
    }
    for (const f of TIMESTAMP_FIELDS) {
      const v = record[f];
      if (typeof v !== 'string' || v.trim() === '') continue;
      const r = timestamp(f, v.trim());
      if (typeof r !== 'string') return r.error;
      record[f] = r;
    }
    return undefined;
  };
}
