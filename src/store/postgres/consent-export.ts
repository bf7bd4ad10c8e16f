import pg from 'pg';
import Cursor from 'pg-cursor';
import { APP_ROLE } from '../../../migrations/dialect.js';
import { CONSENT_FIELDS, type ExportQuery } from '../../domain/consents/consent.schema.js';
import { consentExportFormat } from '../consent-export-format.js';

const PAGE = 1000;

/**
 * Streams a tenant's consents as the SQLite export does, byte for byte (the same row format, the same byte order of
 * ids): through a cursor, a thousand rows at a time, on a connection of its own in one read-only snapshot, as the
 * application role inside the tenant's row-level-security scope.
 */
export async function* exportConsentsPostgres(
  url: string,
  tenant: string,
  q: ExportQuery,
  mapError: (e: unknown) => unknown,
): AsyncGenerator<string> {
  const client = new pg.Client({
    connectionString: url,
    application_name: 'compliance export',
    connectionTimeoutMillis: 5000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`set role ${APP_ROLE}`);
    await client.query(`select set_config('app.tenant', $1, false)`, [tenant]);
    await client.query('begin isolation level repeatable read read only');
  } catch (e) {
    await client.end().catch(() => undefined);
    throw mapError(e);
  }
  try {
    const where = ['tenant_id = $1'];
    const args: unknown[] = [tenant];
    const filter = (column: string, value: unknown) => {
      args.push(value);
      where.push(`${column} = $${args.length}`);
    };
    if (q.user_id) filter('user_id', q.user_id);
    if (q.data_point_id) filter('data_point_id', q.data_point_id);
    if (q.granted !== undefined) filter('granted', q.granted ? 1 : 0);
    const cursor = client.query(
      new Cursor<Record<string, unknown>>(
        `select ${CONSENT_FIELDS.join(', ')} from consent where ${where.join(' and ')} order by id`,
        args,
      ),
    );
    const format = consentExportFormat(q);
    if (format.head) yield format.head;
    for (;;) {
      let rows: Array<Record<string, unknown>>;
      try {
        rows = await cursor.read(PAGE);
      } catch (e) {
        throw mapError(e);
      }
      if (rows.length === 0) break;
      yield rows.map((r) => format.row({ ...r, granted: r.granted === 1 })).join('\n') + '\n';
    }
    await cursor.close();
  } finally {
    await client.end().catch(() => undefined);
  }
}
