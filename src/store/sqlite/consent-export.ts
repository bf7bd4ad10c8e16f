import Database from 'better-sqlite3';
import { CONSENT_FIELDS, type ExportQuery } from '../../domain/consents/consent.schema.js';
import { exportFilters, formatExport, type ExportRow } from '../consent-export-format.js';
import { storageError } from './sqlite-store.js';

/**
 * Streams a tenant's consents as CSV (header row with the import's field names) or NDJSON, oldest first, in chunks
 * of a thousand rows, from a read connection of its own (a long export never blocks the store).
 */
export async function* exportConsents(file: string, tenant: string, q: ExportQuery): AsyncGenerator<string> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, timeout: 5000 });
  } catch (e) {
    throw storageError(file, e);
  }
  try {
    const filters = exportFilters(q);
    const where = ['tenant_id = ?', ...filters.map(([column]) => `${column} = ?`)];
    const stmt = db.prepare(
      `select ${CONSENT_FIELDS.join(', ')} from consent where ${where.join(' and ')} order by id`,
    );
    const rows = stmt.iterate(tenant, ...filters.map(([, value]) => value)) as IterableIterator<ExportRow>;
    yield* formatExport(rows, q.format);
  } finally {
    db.close();
  }
}
