import { CONSENT_FIELDS, type ExportQuery } from '../domain/consents/consent.schema.js';

/** A consent row as both engines read it for an export: the consent fields, `granted` as 0 or 1. */
export type ExportRow = Record<(typeof CONSENT_FIELDS)[number], unknown>;

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * The export's bytes, written once for both engines so they cannot drift: CSV with a header row of the import's field
 * names (quoted only where needed) or NDJSON in field order, in chunks of a thousand rows.
 */
export async function* formatExport(
  rows: AsyncIterable<ExportRow> | Iterable<ExportRow>,
  format: ExportQuery['format'],
): AsyncGenerator<string> {
  let out: string[] = [];
  if (format === 'csv') out.push(CONSENT_FIELDS.join(','));
  const line = (r: ExportRow) => {
    const row: Record<string, unknown> = { ...r, granted: r.granted === 1 };
    return format === 'csv' ? CONSENT_FIELDS.map((f) => csvCell(row[f])).join(',') : JSON.stringify(row);
  };
  // a synchronous source (SQLite) is read without a promise per row
  if (Symbol.iterator in rows) {
    for (const r of rows) {
      out.push(line(r));
      if (out.length >= 1000) {
        yield out.join('\n') + '\n';
        out = [];
      }
    }
  } else {
    for await (const r of rows) {
      out.push(line(r));
      if (out.length >= 1000) {
        yield out.join('\n') + '\n';
        out = [];
      }
    }
  }
  if (out.length) yield out.join('\n') + '\n';
}

/** The filters of an export as (column, value) pairs, for either engine's query. */
export function exportFilters(q: ExportQuery): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (q.user_id) out.push(['user_id', q.user_id]);
  if (q.data_point_id) out.push(['data_point_id', q.data_point_id]);
  if (q.granted !== undefined) out.push(['granted', q.granted ? 1 : 0]);
  return out;
}
