import { sql, type Kysely } from 'kysely';
import type { ImportRunStore, LaterEntry, MovedRevocation } from '../../domain/consents/import-run-store.port.js';
import { ImportRunOptions, type ImportRun, type ImportRunQuery } from '../../domain/consents/import-run.schema.js';
import { IMPORT_LOCK } from '../consent-import-rows.js';
import { isPostgres } from '../dialect.js';
import type { DB } from '../db-types.js';
import type { ConsentTables } from '../db-types-consents.js';
import { writeTransaction } from '../transaction.js';

type RunRow = ConsentTables['consent_import_run'];

export const runToRow = (r: ImportRun): RunRow => ({ ...r, options: JSON.stringify(r.options) });
const runFromRow = (r: RunRow): ImportRun => ({
  ...r,
  format: r.format as ImportRun['format'],
  status: r.status as ImportRun['status'],
  options: ImportRunOptions.parse(JSON.parse(r.options)),
  read: Number(r.read),
  created: Number(r.created),
  unchanged: Number(r.unchanged),
  revoked: Number(r.revoked),
  rejected: Number(r.rejected),
});

/** Import runs written once with kysely's builders; the revocation entries of a run are found by a partial index. */
export class KyselyImportRunStore implements ImportRunStore {
  constructor(private readonly db: Kysely<DB>) {}

  transaction<T>(tenant: string, fn: (s: ImportRunStore) => Promise<T>): Promise<T> {
    return writeTransaction(this.db, async (trx) => {
      // SQLite's write lock already makes imports and reverts take turns; on PostgreSQL the import writer takes this
      // lock for each batch (it runs READ COMMITTED, outside the serializable checks of the API's transactions)
      if (isPostgres(trx)) {
        await sql`select pg_advisory_xact_lock(hashtext(${IMPORT_LOCK}), hashtext(${tenant}))`.execute(trx);
        // a revert is a bulk write like the import it undoes (a run may hold a million consents): no statement timeout
        await sql`set local statement_timeout = 0`.execute(trx);
      }
      return fn(new KyselyImportRunStore(trx));
    });
  }

  async insert(run: ImportRun): Promise<void> {
    await this.db.insertInto('consent_import_run').values(runToRow(run)).execute();
  }

  async update(run: ImportRun): Promise<void> {
    const { id, tenant_id, ...rest } = runToRow(run);
    await this.db
      .updateTable('consent_import_run')
      .set(rest)
      .where('tenant_id', '=', tenant_id)
      .where('id', '=', id)
      .execute();
  }

  async finish(run: ImportRun): Promise<boolean> {
    const { id, tenant_id, ...rest } = runToRow(run);
    const r = await this.db
      .updateTable('consent_import_run')
      .set(rest)
      .where('tenant_id', '=', tenant_id)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async get(tenant: string, id: string): Promise<ImportRun | undefined> {
    const r = await this.db
      .selectFrom('consent_import_run')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && runFromRow(r);
  }

  async list(tenant: string, q: ImportRunQuery): Promise<{ total: number; rows: ImportRun[] }> {
    const base = this.db.selectFrom('consent_import_run').where('tenant_id', '=', tenant);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base.selectAll().orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    return { total, rows: rows.map(runFromRow) };
  }

  async laterEntries(tenant: string, runId: string, limit: number): Promise<LaterEntry[]> {
    return this.db
      .selectFrom('consent as c')
      .innerJoin('consent_history as h', (j) =>
        j.onRef('h.consent_id', '=', 'c.id').onRef('h.tenant_id', '=', 'c.tenant_id'),
      )
      .select(['c.id as consent_id', 'c.user_id', 'c.data_point_id', 'h.action', 'h.created_at', 'h.import_run_id'])
      .where('c.tenant_id', '=', tenant)
      .where('c.import_run_id', '=', runId)
      .where((eb) => eb.or([eb('h.import_run_id', 'is', null), eb('h.import_run_id', '<>', runId)]))
      .orderBy('c.id')
      .orderBy('h.created_at')
      .limit(limit)
      .execute();
  }

  /** The run's revocation entries of stored consents (source `import`, the partial index of migration 0016). */
  private revocations(tenant: string, runId: string) {
    return this.db
      .selectFrom('consent_history as h')
      .where('h.tenant_id', '=', tenant)
      .where('h.import_run_id', '=', runId)
      .where('h.action', '=', 'revoked')
      .where('h.source', '=', 'import');
  }

  async movedRevocations(tenant: string, runId: string, limit: number): Promise<MovedRevocation[]> {
    return this.revocations(tenant, runId)
      .leftJoin('consent as c', (j) => j.onRef('c.tenant_id', '=', 'h.tenant_id').onRef('c.id', '=', 'h.consent_id'))
      .select(['h.consent_id', 'c.user_id', 'c.data_point_id', 'h.created_at as revoked_by_run_at', 'c.revoked_at'])
      .where((eb) =>
        eb.or([
          eb('c.id', 'is', null),
          eb('c.revoked_at', 'is', null),
          eb('c.revoked_at', '<>', eb.ref('h.created_at')),
        ]),
      )
      .orderBy('h.consent_id')
      .limit(limit)
      .execute();
  }

  async removeCreated(tenant: string, runId: string): Promise<number> {
    const created = this.db
      .selectFrom('consent')
      .select('id')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId);
    await this.db
      .deleteFrom('consent_history')
      .where('tenant_id', '=', tenant)
      .where('consent_id', 'in', created)
      .execute();
    const r = await this.db
      .deleteFrom('consent')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async undoRevocations(tenant: string, runId: string): Promise<number> {
    const r = await this.db
      .updateTable('consent')
      .set({ revoked_at: null })
      .where('tenant_id', '=', tenant)
      .where('id', 'in', this.revocations(tenant, runId).select('h.consent_id'))
      .executeTakeFirst();
    await this.db
      .deleteFrom('consent_history')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId)
      .where('action', '=', 'revoked')
      .where('source', '=', 'import')
      .execute();
    return Number(r.numUpdatedRows);
  }
}
