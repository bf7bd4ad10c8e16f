import { CONSENT_FIELDS, type ExportQuery } from '../domain/consents/consent.schema.js';
import { createTimeWriter } from '../domain/consents/date-writer.js';
import { opensFormula } from '../domain/spreadsheet-cells.js';

/** How an exporter of any engine writes consents: what comes before the first row, and each row as one line. */
export interface ConsentExportFormat {
  /** The byte order mark and header row of a CSV export; empty for NDJSON. */
  head: string;
  /** One consent (granted as a boolean) as a line without its line break. */
  row(r: Record<string, unknown>): string;
}

/** The first word of a comma-separated list, as given (the import reads words in any case). */
const firstWord = (words: string | undefined) =>
  words
    ?.split(',')
    .map((w) => w.trim())
    .find(Boolean);

type Layout = Pick<
  ExportQuery,
  'format' | 'delimiter' | 'bom' | 'true_values' | 'false_values' | 'date_format' | 'timezone' | 'raw_cells'
>;

/**
 * The row formatting an export query asks for: NDJSON, or CSV with its delimiter (default `,`), optional BOM, words
 * for granted and times in a zone and format, and cells that would open a formula in a spreadsheet neutralised
 * (unless `raw_cells`). Both engines' exporters use it, so they write the same bytes.
 */
export function consentExportFormat(q: Layout): ConsentExportFormat {
  if (q.format !== 'csv') return { head: '', row: (r) => JSON.stringify(r) };
  const d = q.delimiter ?? ',';
  const needsQuotes = new RegExp(`["\\r\\n${d.replace(/[\\\]^-]/g, '\\$&')}]`);
  const guard = !q.raw_cells;
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    // a cell a spreadsheet would run as a formula gets a ' in front, and quotes (spreadsheet-cells.ts)
    if (guard && opensFormula(s)) return `"'${s.replace(/"/g, '""')}"`;
    return needsQuotes.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const yes = firstWord(q.true_values) ?? 'true';
  const no = firstWord(q.false_values) ?? 'false';
  const time = createTimeWriter(q);
  const value = (f: (typeof CONSENT_FIELDS)[number], r: Record<string, unknown>): unknown => {
    const v = r[f];
    if (f === 'granted') return v ? yes : no;
    if (time && (f === 'granted_at' || f === 'revoked_at') && typeof v === 'string') return time(v);
    return v;
  };
  return {
    head: `${q.bom ? '\uFEFF' : ''}${CONSENT_FIELDS.join(d)}\n`,
    row: (r) => CONSENT_FIELDS.map((f) => cell(value(f, r))).join(d),
  };
}
