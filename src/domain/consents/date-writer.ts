import { TOKEN_RE, zoneClock, zoneOffsetAt } from './csv-dialect.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `+01:00`, `-05:30`, `+00:00`: an offset in minutes east of UTC as the import's `Z` token reads it. */
const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

type Part = string | ((t: Date, offset: number) => string);

/** What each token of compileDateFormat writes, from the wall-clock time `t` (read with UTC getters) and its offset. */
const WRITERS: Record<string, (t: Date, offset: number, utc: boolean) => string> = {
  YYYY: (t) => pad(t.getUTCFullYear(), 4),
  YY: (t) => pad(t.getUTCFullYear() % 100),
  MM: (t) => pad(t.getUTCMonth() + 1),
  M: (t) => String(t.getUTCMonth() + 1),
  DD: (t) => pad(t.getUTCDate()),
  D: (t) => String(t.getUTCDate()),
  HH: (t) => pad(t.getUTCHours()),
  H: (t) => String(t.getUTCHours()),
  mm: (t) => pad(t.getUTCMinutes()),
  ss: (t) => pad(t.getUTCSeconds()),
  SSS: (t) => pad(t.getUTCMilliseconds(), 3),
  Z: (_t, offset, utc) => (utc ? 'Z' : offsetText(offset)),
};

/**
 * Writes stored timestamps (UTC, `…Z`) as a spreadsheet's people read them: in a zone's local time (`timezone`) and a
 * date format (`date_format`, the tokens the import reads), so an export imports back with the same options. With a
 * zone and no format, ISO 8601 with the zone's offset (`2026-03-01T10:00:00.000+01:00`); with a format and no zone,
 * UTC (the format then has `Z`, which writes `Z`). Undefined when neither is given: timestamps are written as stored.
 */
export function createTimeWriter(o: {
  date_format?: string;
  timezone?: string;
}): ((iso: string) => string) | undefined {
  if (!o.date_format && !o.timezone) return undefined;
  const utc = !o.timezone;
  const clock = o.timezone ? zoneClock(o.timezone) : undefined;
  // offsets change at most a few times a year: remember them per quarter hour
  const cache = new Map<number, number>();
  const offsetAt = (ms: number) => {
    if (!clock) return 0;
    const key = Math.floor(ms / 900_000);
    let offset = cache.get(key);
    if (offset === undefined) {
      offset = zoneOffsetAt(clock, ms);
      if (cache.size > 10_000) cache.clear();
      cache.set(key, offset);
    }
    return offset;
  };
  const parts: Part[] = [];
  const format = o.date_format ?? 'YYYY-MM-DD[T]HH:mm:ss.SSSZ';
  let last = 0;
  for (const m of format.matchAll(TOKEN_RE)) {
    if (m.index > last) parts.push(format.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[0].startsWith('[')) parts.push(m[0].slice(1, -1));
    else {
      const write = WRITERS[m[0] === 'ZZ' ? 'Z' : m[0]]!;
      parts.push((t, offset) => write(t, offset, utc));
    }
  }
  if (last < format.length) parts.push(format.slice(last));
  return (iso) => {
    const ms = Date.parse(iso);
    const offset = offsetAt(ms);
    const t = new Date(ms + offset * 60_000);
    let out = '';
    for (const p of parts) out += typeof p === 'string' ? p : p(t, offset);
    return out;
  };
}
