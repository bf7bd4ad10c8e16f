import * as z from 'zod';

/**
 * An integer query parameter. Query strings and CLI flags arrive as text, so text is converted first;
 * text that is not a whole number fails as a type error (400), a number out of range as a validation error (422).
 */
export const queryInt = (o: { min?: number; max?: number; default: number }) => {
  let n = z.int();
  if (o.min !== undefined) n = n.min(o.min);
  if (o.max !== undefined) n = n.max(o.max);
  return z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim();
      return /^[-+]?\d+$/.test(t) ? Number(t) : v;
    }, n)
    .default(o.default) as unknown as z.ZodDefault<z.ZodNumber>;
};

/** The loose booleans, so the OpenAPI document can state every spelling they accept. */
export const looseBooleans = new WeakSet<z.ZodType>();

/** What a loose boolean accepts, as JSON Schema: a boolean, or one of the spellings in any case, spaces around. */
export const LOOSE_BOOLEAN_JSON_SCHEMA = {
  anyOf: [
    { type: 'boolean' },
    { type: 'string', pattern: '^\\s*(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0|[Yy][Ee][Ss]|[Nn][Oo])\\s*$' },
  ],
};

/** A boolean query parameter or CSV cell: true/false/1/0/yes/no (any case). */
export const looseBoolean = () => {
  const s = z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(t)) return true;
      if (['false', '0', 'no'].includes(t)) return false;
      return v;
    },
    z.boolean({
      error: (i) =>
        i.input === undefined
          ? undefined
          : `expected a boolean (true/false, 1/0, yes/no), got ${JSON.stringify(i.input)}`,
    }),
  );
  looseBooleans.add(s);
  return s;
};

/**
 * No control character (C0 or DEL) inside the text; whitespace around it (a trailing newline) is trimmed away first.
 * The server tests the trimmed text, where the optional `\s*` match nothing; the document's validators test the text
 * as sent, so both refuse exactly the same texts.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what these texts refuse
const NO_CONTROL = /^\s*(?:[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f])?\s*$/;

/**
 * A text that must say something: surrounding whitespace is trimmed and a blank text is refused. The rule is the
 * pattern `\S` (at least one character that is not whitespace), so the OpenAPI document states it exactly as the
 * server applies it.
 */
export const nonBlank = (max = 100_000) => z.string().trim().max(max).regex(/\S/, 'must not be empty');

/** Text without the NUL character, which no store can hold (PostgreSQL refuses it in text). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what these texts refuse
export const NO_NUL = /^[^\u0000]*$/;

/** A one-line text a person reads (a name, a title, an id a person typed): `nonBlank`, without control characters. */
export const label = (max = 1000) => nonBlank(max).regex(NO_CONTROL, 'must not contain control characters');

/** A one-line text of an optional field: like `label`, but blank is allowed (and read as "" to clear the field). */
export const optionalLabel = (max = 1000) =>
  z.string().trim().max(max).regex(NO_CONTROL, 'must not contain control characters');

const ISO_DATE = /^(?:\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))?$/;

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-02-30, nor 2026-13-01, which Date cannot even print). */
export function isCalendarDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A calendar date `YYYY-MM-DD` of an optional field, or "" to clear it. */
export const optionalDate = () =>
  z
    .string()
    .trim()
    .regex(ISO_DATE, 'expected a date such as 2026-12-31 (or "" to clear it)')
    // zod runs this check even after the pattern failed: only a text of the right shape is looked up in the calendar
    .refine((s) => {
      if (s === '' || !ISO_DATE.test(s)) return true;
      return isCalendarDay(s);
    }, 'no such day in the calendar');

/** Control characters a text spanning lines refuses: C0 except tab, line feed and carriage return, and DEL. */
const NO_CONTROL_MULTILINE =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what these texts refuse
  /^\s*(?:[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*[^\s\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f])?\s*$/;

/**
 * A text of paragraphs (Markdown, an opinion, an assessment): trimmed, at most `max` characters, line breaks and tabs
 * allowed, other control characters refused. Empty is allowed: where a field is optional, an empty text clears it.
 */
export const longText = (max = 20_000) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(NO_CONTROL_MULTILINE, 'must not contain control characters other than line breaks and tabs');

/**
 * An e-mail address: a local part of 1 to 64 characters, one `@`, a domain with at least one dot; no whitespace,
 * no control characters and no `"` anywhere. Non-ASCII letters are fine (`jürgen@example.de`).
 */
export const EMAIL_PATTERN =
  // eslint-disable-next-line no-control-regex -- control characters are refused explicitly
  /^[^\s@"\u0000-\u001f\u007f]{1,64}@[^\s@"\u0000-\u001f\u007f.]+(\.[^\s@"\u0000-\u001f\u007f.]+)+$/u;
export const emailAddress = () =>
  z
    .string()
    .max(320)
    .regex(EMAIL_PATTERN, 'expected an e-mail address such as name@example.com (no spaces or control characters)');

/** Query filters that take one value or a comma-separated list, with the schema of one value, for the OpenAPI document. */
export const commaListItems = new WeakMap<z.ZodType, z.ZodType>();

/** A query filter of one value or a comma-separated list (`severity=high,critical`): OpenAPI `style: form, explode: false`. */
export function commaList<T extends z.ZodType<string, string>>(item: T) {
  const list = z
    .string()
    .trim()
    .min(1)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));
  commaListItems.set(list, item);
  return list;
}

/** The earliest year a timestamp may name: before it, a year is a typo or a two-digit year read as four ("0025"). */
export const MIN_YEAR = 1000;

/** Whether an ISO 8601 text names a year before MIN_YEAR (its first four digits; a signed year is refused anyway). */
export const yearTooEarly = (iso: string): boolean => /^\d{4}/.test(iso) && Number(iso.slice(0, 4)) < MIN_YEAR;

/**
 * An ISO 8601 timestamp with a zone (`2026-03-01T10:00:00Z`, `+01:00`), from the year 1000 on: the one form every face
 * takes (bodies, query parameters, import cells). `error` words the message of a text that is not a timestamp.
 */
export const isoTimestamp = (error?: (input: unknown) => string | undefined) =>
  z.iso
    .datetime({ offset: true, ...(error ? { error: (i: { input: unknown }) => error(i.input) } : {}) })
    .refine((s) => !yearTooEarly(s), {
      message: `the year must be ${MIN_YEAR} or later (four digits: a two-digit year cannot be read as one)`,
    });
