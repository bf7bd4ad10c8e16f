import type { ImportOptions } from '../../../domain/consents/consent.schema.js';
import { DomainError } from '../../../domain/errors.js';

/** The flags of a CSV dialect, the same for `consents export` and `consents import`. */
export interface CsvDialectFlags {
  delimiter?: string;
  trueValues?: string;
  falseValues?: string;
  dateFormat?: string;
  timeZone?: string;
  timezone?: string;
  rawCells?: boolean;
}

/** `\\t` or `tab` for a tab, as a delimiter flag takes it. */
export const tabOr = (d: string | undefined) => (d === '\\t' || d === 'tab' ? '\t' : d);

/** The flag each option of an import or export comes from, for messages. */
const FLAGS: Record<string, string> = {
  dry_run: '--dry-run',
  delimiter: '--delimiter',
  map: '--map',
  file_name: 'the file name',
  encoding: '--encoding',
  true_values: '--true-values',
  false_values: '--false-values',
  date_format: '--date-format',
  timezone: '--time-zone',
  format: '--format',
  bom: '--bom',
  granted: '--granted',
  user_id: '--user-id',
  data_point_id: '--data-point',
  raw_cells: '--raw-cells',
};

/**
 * The options of an import or export as the API reads them, or a usage error (exit 2) naming each flag that is wrong
 * and why, before a file is read or a request sent.
 */
export async function checkOptions<K extends 'ImportOptions' | 'ExportQuery'>(
  schema: K,
  query: Record<string, unknown>,
): Promise<K extends 'ImportOptions' ? ImportOptions : unknown> {
  // loaded here, as the schemas are by the backend: a command that imports nothing does not pay for them
  const schemas = await import('../../../domain/consents/consent.schema.js');
  const { detailsFromZod } = await import('../../../domain/validation.js');
  const r = schemas[schema].safeParse(query, { reportInput: true });
  if (r.success) return r.data as K extends 'ImportOptions' ? ImportOptions : unknown;
  const details = detailsFromZod(r.error).map((d) => ({ path: FLAGS[d.path] ?? d.path, message: d.message }));
  throw new DomainError('validation', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
}
