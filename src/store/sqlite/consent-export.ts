import Database from 'better-sqlite3';
import { CONSENT_FIELDS, type ExportQuery } from '../../domain/consents/consent.schema.js';
import { consentExportFormat } from '../consent-export-format.js';
import { storageError } from './sqlite-errors.js';

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
    const where = ['tenant_id = ?'];
    const args: unknown[] = [tenant];
    const filter = (condition: string, value: unknown) => {
      where.push(condition);
      args.push(value);
    };
    if (q.user_id) filter('user_id = ?', q.user_id);
    if (q.data_point_id) filter('data_point_id = ?', q.data_point_id);
    if (q.granted !== undefined) filter('granted = ?', q.granted ? 1 : 0);
    const stmt = db.prepare(
      `select ${CONSENT_FIELDS.join(', ')} from consent where ${where.join(' and ')} order by id`,
    );
    const format = consentExportFormat(q);
    if (format.head) yield format.head;
    let out: string[] = [];
    for (const r of stmt.iterate(...args) as Iterable<Record<string, unknown>>) {
      const row: Record<string, unknown> = { ...r, granted: r.granted === 1 };
      out.push(format.row(row));
      if (out.length >= 1000) {
        yield out.join('\n') + '\n';
        out = [];
      }
    }
    if (out.length) yield out.join('\n') + '\n';
  } finally {
    db.close();
  }
}
