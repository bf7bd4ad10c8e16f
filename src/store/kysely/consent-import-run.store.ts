import type { Kysely } from 'kysely';
import type {
  ChangedRenewal,
  ImportRunStore,
  LaterEntry,
  MovedRevocation,
} from '../../domain/consents/import-run-store.port.js';
import type { ImportRun, ImportRunOptions, ImportRunQuery } from '../../domain/consents/import-run.schema.js';
import { engineFor } from '../engine.js';
import type { DB } from '../db-types.js';
import type { ConsentTables } from '../db-types-consents.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';
import type { BatchGroup } from '../../domain/journal/changes.js';

type RunRow = ConsentTables['consent_import_run'];

export const runToRow = (r: ImportRun): RunRow => ({ ...r, options: JSON.stringify(r.options) });
/** The schema of a run's options, loaded with the first run read: opening the store builds no schemas. */
const optionsSchema = async () => (await import('../../domain/consents/import-run.schema.js')).ImportRunOptions;
const runFromRow = (r: RunRow, options: typeof ImportRunOptions): ImportRun => ({
  ...r,
  format: r.format as ImportRun['format'],
  status: r.status as ImportRun['status'],
  options: options.parse(JSON.parse(r.options)),
  read: Number(r.read),
  created: Number(r.created),
  unchanged: Number(r.unchanged),
  revoked: Number(r.revoked),
  renewed: Number(r.renewed),
  rejected: Number(r.rejected),
});

/** The deleted rows of a table as a batch group: their keys only. */
const deleted = (entity: string, ids: Array<{ id: string }>): BatchGroup => ({
  entity,
  op: 'delete',
  key: ['id'],
  columns: ['id'],
  rows: ids.map((r) => [r.id]),
});

/** Whole rows of a table as a batch group, their values in the order of the first row's columns. */
function written(entity: string, op: 'insert' | 'update', rows: Array<Record<string, unknown>>): BatchGroup {
  const columns = rows.length ? Object.keys(rows[0]!) : [];
  return { entity, op, key: ['id'], columns, rows: rows.map((r) => columns.map((c) => r[c])) };
}

/**
 * Import runs written once with kysely's builders; the revocation entries of a run are found by a partial index. A
 * revert's rows go into the journal as batch entries of the run, as the import's own batches do.
 */
export class KyselyImportRunStore implements ImportRunStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async insert(run: ImportRun): Promise<void> {
    const row = runToRow(run);
    await this.db.insertInto('consent_import_run').values(row).execute();
    this.journal.put('consent_import_run', row.id, row, 'insert');
  }

  async update(run: ImportRun): Promise<void> {
    await this.finishIf(run, false);
  }

  async finish(run: ImportRun): Promise<boolean> {
    return this.finishIf(run, true);
  }

  /** Replaces the record of a run (only while it is `running` when `running`); false when no row changed. */
  private async finishIf(run: ImportRun, running: boolean): Promise<boolean> {
    const { id, tenant_id, ...rest } = runToRow(run);
    let q = this.db.updateTable('consent_import_run').set(rest).where('tenant_id', '=', tenant_id).where('id', '=', id);
    if (running) q = q.where('status', '=', 'running');
    const row = await q.returningAll().executeTakeFirst();
    if (row) this.journal.put('consent_import_run', id, row);
    return row !== undefined;
  }

  async get(tenant: string, id: string): Promise<ImportRun | undefined> {
    const r = await this.db
      .selectFrom('consent_import_run')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && runFromRow(r, await optionsSchema());
  }

  async list(tenant: string, q: ImportRunQuery): Promise<{ total: number; rows: ImportRun[] }> {
    const base = this.db.selectFrom('consent_import_run').where('tenant_id', '=', tenant);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base.selectAll().orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    const options = await optionsSchema();
    return { total, rows: rows.map((r) => runFromRow(r, options)) };
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
    // a revert is a bulk write like the import it undoes (a run may hold a million consents): no statement timeout
    await engineFor(this.db).liftStatementTimeout(this.db);
    const created = this.db
      .selectFrom('consent')
      .select('id')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId);
    const history = await this.db
      .deleteFrom('consent_history')
      .where('tenant_id', '=', tenant)
      .where('consent_id', 'in', created)
      .returning('id')
      .execute();
    const consents = await this.db
      .deleteFrom('consent')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId)
      .returning('id')
      .execute();
    this.journal.batch('consent_import_run', runId, {
      groups: [deleted('consent_history', history), deleted('consent', consents)],
    });
    return consents.length;
  }

  async undoRevocations(tenant: string, runId: string): Promise<number> {
    const consents = await this.db
      .updateTable('consent')
      .set({ revoked_at: null })
      .where('tenant_id', '=', tenant)
      .where('id', 'in', this.revocations(tenant, runId).select('h.consent_id'))
      .returningAll()
      .execute();
    const entries = await this.db
      .deleteFrom('consent_history')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId)
      .where('action', '=', 'revoked')
      .where('source', '=', 'import')
      .returning('id')
      .execute();
    this.journal.batch('consent_import_run', runId, {
      groups: [written('consent', 'update', consents), deleted('consent_history', entries)],
    });
    return consents.length;
  }

  /** The run's renewals of consents it did not create (source `import`, the partial index of migration 0023). */
  private renewals(tenant: string, runId: string) {
    return this.db
      .selectFrom('consent_history as h')
      .leftJoin('consent as c', (j) => j.onRef('c.tenant_id', '=', 'h.tenant_id').onRef('c.id', '=', 'h.consent_id'))
      .where('h.tenant_id', '=', tenant)
      .where('h.import_run_id', '=', runId)
      .where('h.action', '=', 'version_update')
      .where('h.source', '=', 'import')
      .where((eb) => eb.or([eb('c.import_run_id', 'is', null), eb('c.import_run_id', '<>', runId)]));
  }

  async changedRenewals(tenant: string, runId: string, limit: number): Promise<ChangedRenewal[]> {
    return this.renewals(tenant, runId)
      .leftJoin('consent_history as e', (j) =>
        j
          .onRef('e.tenant_id', '=', 'h.tenant_id')
          .onRef('e.consent_id', '=', 'h.consent_id')
          .onRef('e.created_at', '>=', 'h.created_at')
          .onRef('e.id', '<>', 'h.id')
          .on((eb) => eb.or([eb('e.import_run_id', 'is', null), eb('e.import_run_id', '<>', runId)])),
      )
      .select([
        'h.consent_id',
        'c.user_id',
        'c.data_point_id',
        'h.created_at as renewed_by_run_at',
        'e.action',
        'e.created_at',
        'e.import_run_id',
      ])
      .where((eb) => eb.or([eb('c.id', 'is', null), eb('e.id', 'is not', null)]))
      .orderBy('h.consent_id')
      .limit(limit)
      .execute();
  }

  async undoRenewals(tenant: string, runId: string): Promise<number> {
    const entries = await this.renewals(tenant, runId)
      .select(['h.id', 'h.consent_id', 'h.created_at'])
      .orderBy('h.consent_id')
      .execute();
    if (!entries.length) return 0;
    const ids = [...new Set(entries.map((e) => e.consent_id))];
    const theirs = new Set(entries.map((e) => e.id));
    const consents: Array<Record<string, unknown>> = [];
    for (let i = 0; i < ids.length; i += 500) {
      const some = ids.slice(i, i + 500);
      const history = await this.db
        .selectFrom('consent_history')
        .select(['id', 'consent_id', 'consent_version'])
        .where('tenant_id', '=', tenant)
        .where('consent_id', 'in', some)
        .orderBy('consent_id')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      // the version before the run's first renewal of each consent: that of the entry before it
      const before = new Map<string, string>();
      let last: { consent_id: string; consent_version: string } | undefined;
      for (const h of history) {
        if (theirs.has(h.id) && !before.has(h.consent_id) && last?.consent_id === h.consent_id)
          before.set(h.consent_id, last.consent_version);
        if (!theirs.has(h.id)) last = h;
      }
      for (const [id, version] of before) {
        const row = await this.db
          .updateTable('consent')
          .set({ consent_version: version })
          .where('tenant_id', '=', tenant)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (row) consents.push(row);
      }
    }
    // the run's renewals of consents it created went with them (removeCreated runs first)
    const removed = await this.db
      .deleteFrom('consent_history')
      .where('tenant_id', '=', tenant)
      .where('import_run_id', '=', runId)
      .where('action', '=', 'version_update')
      .where('source', '=', 'import')
      .returning('id')
      .execute();
    this.journal.batch('consent_import_run', runId, {
      groups: [written('consent', 'update', consents), deleted('consent_history', removed)],
    });
    return consents.length;
  }
}
