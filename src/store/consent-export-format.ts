import { CONSENT_FIELDS, type ExportQuery } from '../domain/consents/consent.schema.js';

/** How an exporter of any engine writes consents: what comes before the first row, and each row as one line. */
export interface ConsentExportFormat {
  /** The byte order mark and header row of a CSV export; empty for NDJSON. */
  head: string;
  /** One consent (granted as a boolean) as a line without its line break. */
  row(r: Record<string, unknown>): string;
}

/** The row formatting an export query asks for: NDJSON, or CSV with its delimiter (default `,`) and optional BOM. */
export function consentExportFormat(
  q: Pick<ExportQuery, 'format'> & { delimiter?: string; bom?: boolean },
): ConsentExportFormat {
  if (q.format !== 'csv') return { head: '', row: (r) => JSON.stringify(r) };
  const d = q.delimiter ?? ',';
  const needsQuotes = new RegExp(`["\\r\\n${d.replace(/[\\\]^-]/g, '\\$&')}]`);
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = String(v);
    return needsQuotes.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return {
    head: `${q.bom ? '\uFEFF' : ''}${CONSENT_FIELDS.join(d)}\n`,
    row: (r) => CONSENT_FIELDS.map((f) => cell(r[f])).join(d),
  };
}
