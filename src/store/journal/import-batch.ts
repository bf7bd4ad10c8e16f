import type { BatchData, BatchGroup } from '../../domain/journal/changes.js';
import type { JournalRow } from '../db-types.js';
import { currentRequest } from '../tenant-scope.js';
import { batchChange, chainEntries, type ChainHead } from './journal-writer.js';

/**
 * An import's batches are journaled as one entry each (op `batch` of its run): the consents and history entries it
 * created, the stored consents it revoked with their entries, and the run's record. Each engine's writer runs the
 * same statements on its own connection, inside the batch's transaction and under the tenant's journal lock.
 */

/** Who the entries name, decided where the import was asked for (the worker thread has no request scope). */
export interface ImportJournal {
  actor: string;
  principal: string;
}

/** The journal's who for an import run by `actor` in the current request; null when the journal is off (benchmarks). */
export function importJournal(actor: string): ImportJournal | null {
  if (process.env.COMPLIANCE_BENCH_NO_JOURNAL === '1') return null;
  const request = currentRequest();
  return { actor: request?.actor ?? actor, principal: request?.principal ?? 'unknown' };
}

/** The key of the tenant's journal lock on PostgreSQL, as transaction.ts takes it ($1: the tenant). */
export const JOURNAL_LOCK = `hashtext('compliance journal'), hashtext($1)`;

/**
 * The batch's rows, each statement with the parameters tenant, run, the batch's id prefix and the end of its range
 * (`?` placeholders in this order; ids of a batch are the prefix and a counter, so a range of the primary key holds
 * them). A created consent's own `revoked` entry has no source, so entries with source `import` are revocations of
 * stored consents.
 */
const IN_BATCH = `tenant_id = ? and import_run_id = ? and id >= ? and id < ?`;
export const BATCH_QUERIES: Array<{ entity: string; op: 'insert' | 'update'; sql: string; params: 'range' | 'run' }> = [
  { entity: 'consent', op: 'insert', sql: `select * from consent where ${IN_BATCH} order by id`, params: 'range' },
  {
    entity: 'consent_history',
    op: 'insert',
    sql: `select * from consent_history where ${IN_BATCH} order by id`,
    params: 'range',
  },
  {
    entity: 'consent',
    op: 'update',
    sql: `select * from consent where tenant_id = ? and id in (select consent_id from consent_history
        where ${IN_BATCH} and action = 'revoked' and source = 'import') order by id`,
    params: 'range',
  },
];
export const RUN_QUERY = `select * from consent_import_run where tenant_id = ? and id = ?`;

/** The parameters of a batch query. */
export const batchParams = (tenant: string, run: string, prefix: string, q: (typeof BATCH_QUERIES)[number]) =>
  q.op === 'update' ? [tenant, tenant, run, prefix, `${prefix}~`] : [tenant, run, prefix, `${prefix}~`];

export const group = (entity: string, op: BatchGroup['op'], columns: string[], rows: unknown[][]): BatchGroup => ({
  entity,
  op,
  key: ['id'],
  columns,
  rows,
});

/** The batch's journal entry after `head`. */
export function batchEntry(
  tenant: string,
  run: string,
  head: ChainHead | undefined,
  who: ImportJournal,
  txn: string,
  data: BatchData,
): JournalRow {
  const meta = { txn, time: new Date().toISOString(), ...who };
  return chainEntries(tenant, head, meta, [batchChange('consent_import_run', run, data)])[0]!;
}

export const JOURNAL_COLUMNS: Array<keyof JournalRow> = [
  'tenant_id',
  'seq',
  'txn',
  'time',
  'actor',
  'principal',
  'entity',
  'entity_id',
  'op',
  'data',
  'data_hash',
  'prev_hash',
  'hash',
];
export const HEAD_QUERY = `select seq, hash from journal where tenant_id = ? order by seq desc limit 1`;
