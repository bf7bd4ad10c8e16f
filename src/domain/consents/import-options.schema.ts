import * as z from 'zod';
import { looseBoolean } from '../schema-helpers.js';
import { isTimeZone } from '../clock.js';
import { compileDateFormat, wordList } from './csv-dialect.js';
import { encodingOf, IMPORT_ENCODINGS } from './text-encoding.js';

/** The other names an encoding is accepted under, for messages and the OpenAPI document. */
const ALIASES = 'utf8, cp1252, ansi, iso-8859-1, latin-1, utf-16, ucs-2';

/** A CSV delimiter: exactly one character (a tab is `\t` in a query string as %09). */
export const oneCharacter = z
  .string()
  .length(1, 'must be exactly one character, such as , ; | or a tab')
  .refine((c) => !/["\r\n]/.test(c), 'must not be a quote or a line break');

/** How the file of an import is written: its encoding and its words for booleans, dates and zones. */
export const ImportDialect = z.object({
  encoding: z
    .string()
    .transform((name, ctx) => {
      const e = encodingOf(name);
      if (e) return e;
      ctx.addIssue({
        code: 'custom',
        message: `expected one of ${IMPORT_ENCODINGS.join(', ')} (also ${ALIASES}; any case); got ${JSON.stringify(name)}`,
      });
      return z.NEVER;
    })
    .optional()
    .describe(
      `character encoding of the file (default utf-8; a byte order mark is followed): ${IMPORT_ENCODINGS.join(', ')}, also ${ALIASES}; any case`,
    ),
  true_values: z
    .string()
    .max(500)
    .optional()
    .describe('comma-separated words that also mean granted=true, e.g. ja,j,x'),
  false_values: z
    .string()
    .max(500)
    .optional()
    .describe('comma-separated words that also mean granted=false, e.g. nein,n'),
  date_format: z
    .string()
    .max(100)
    .optional()
    .describe('format of granted_at and revoked_at, e.g. DD.MM.YYYY HH:mm (tokens YYYY YY MM M DD D HH H mm ss SSS Z)'),
  timezone: z
    .string()
    .refine(isTimeZone, 'expected an IANA time zone such as Europe/Berlin or UTC')
    .optional()
    .describe('IANA zone of timestamps written without one, e.g. Europe/Berlin'),
});

export function checkImportDialect(o: z.infer<typeof ImportDialect>, ctx: z.RefinementCtx): void {
  const both = wordList(o.true_values).filter((w) => wordList(o.false_values).includes(w));
  if (both.length)
    ctx.addIssue({
      code: 'custom',
      path: ['true_values'],
      message: `${both.join(', ')} cannot mean both true and false`,
    });
  if (!o.date_format) return;
  let hasZone: boolean;
  try {
    hasZone = compileDateFormat(o.date_format).hasZone;
  } catch (e) {
    ctx.addIssue({ code: 'custom', path: ['date_format'], message: (e as Error).message });
    return;
  }
  if (!hasZone && !o.timezone)
    ctx.addIssue({
      code: 'custom',
      path: ['timezone'],
      message: `the date format ${o.date_format} has no time zone: say which zone the times are in with --time-zone Europe/Berlin (API: timezone=Europe/Berlin), or add Z to the format`,
    });
}

/**
 * How a CSV export is laid out for a spreadsheet: delimiter and byte order mark (German Excel wants `;` and a BOM),
 * and the words and times an import reads back with the same options (`ja`/`nein`, `DD.MM.YYYY HH:mm:ss` in
 * Europe/Berlin).
 */
export const CsvLayout = z.object({
  delimiter: oneCharacter.optional().describe('CSV only: column delimiter (default ,)'),
  bom: looseBoolean().optional().describe('CSV only: start with a UTF-8 byte order mark, so Excel reads umlauts right'),
  true_values: ImportDialect.shape.true_values.describe(
    'CSV only: the first of these comma-separated words is written for granted=true (as an import with the same option reads it), e.g. ja',
  ),
  false_values: ImportDialect.shape.false_values.describe(
    'CSV only: the first of these words is written for granted=false, e.g. nein',
  ),
  date_format: ImportDialect.shape.date_format.describe(
    'CSV only: format of granted_at and revoked_at, with the tokens an import reads (YYYY YY MM M DD D HH H mm ss SSS Z), e.g. DD.MM.YYYY HH:mm:ss',
  ),
  timezone: ImportDialect.shape.timezone.describe(
    'CSV only: IANA zone the times are written in, e.g. Europe/Berlin (default UTC); without date_format as ISO 8601 with the offset',
  ),
  raw_cells: looseBoolean()
    .optional()
    .describe(
      "CSV only: write cells that start with = + - @, a tab or a carriage return as they are; by default they get a ' in front and are quoted, so a spreadsheet shows them as text instead of running them as formulas (an import takes the ' away again)",
    ),
});

const CSV_ONLY = ['delimiter', 'bom', 'true_values', 'false_values', 'date_format', 'timezone', 'raw_cells'] as const;

export function checkCsvLayout(o: z.infer<typeof CsvLayout> & { format: string }, ctx: z.RefinementCtx): void {
  if (o.format !== 'csv') {
    for (const k of CSV_ONLY)
      if (o[k] !== undefined && o[k] !== false)
        ctx.addIssue({ code: 'custom', path: [k], message: 'only for format=csv' });
    return;
  }
  checkImportDialect(o, ctx);
}
