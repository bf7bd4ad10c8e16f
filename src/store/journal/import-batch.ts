import { BATCH_OP, type BatchGroup } from '../../domain/journal/changes.js';
import type { JournalRow } from '../db-types.js';
import { currentRequest } from '../tenant-scope.js';
import { chainEntries, type ChainHead } from './journal-writer.js';

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

/** The parameters a batch's statement takes: the tenant, the run, the batch's id prefix and the end of its range. */
interface BatchKeys {
  tenant: string;
  run: string;
  prefix: string;
  end: string;
}

/**
 * The batch's rows, by statements both engines run on an index (`?` placeholders): the ids of a batch are its prefix
 * and a counter, so the consents it created are a range of the (tenant, id) index, their history entries are found
 * through them (the history's key begins with the consent), and its revocations and renewals of stored consents are
 * entries of the run with source `import` (partial indexes; a created consent's own `revoked` entry has no source).
 * The run's id is compared as an expression, so no plan walks every consent of the run instead of the batch's range.
 */
const CREATED = `c.tenant_id = ? and c.id >= ? and c.id < ? and coalesce(c.import_run_id, '') = ?`;
const CHANGES_OF = (action: 'revoked' | 'version_update') => `select * from consent_history h where h.tenant_id = ?
    and h.import_run_id = ? and h.action = '${action}' and h.source = 'import' and h.id >= ? and h.id < ?`;
const REVOCATIONS = CHANGES_OF('revoked');
const RENEWALS = CHANGES_OF('version_update');
const changeParams = (k: BatchKeys) => [k.tenant, k.run, k.prefix, k.end];
export const BATCH_QUERIES: Array<{
  /** The table the statement reads, whose columns the group lists. */
  entity: 'consent' | 'consent_history';
  op: 'insert' | 'update';
  sql: string;
  params: (k: BatchKeys) => string[];
}> = [
  {
    entity: 'consent',
    op: 'insert',
    sql: `select * from consent c where ${CREATED} order by c.id`,
    params: (k) => [k.tenant, k.prefix, k.end, k.run],
  },
  {
    entity: 'consent_history',
    op: 'insert',
    sql: `select h.* from consent c join consent_history h on h.consent_id = c.id and h.tenant_id = c.tenant_id
      where ${CREATED} order by h.id`,
    params: (k) => [k.tenant, k.prefix, k.end, k.run],
  },
  {
    entity: 'consent_history',
    op: 'insert',
    sql: `${REVOCATIONS} order by h.id`,
    params: changeParams,
  },
  {
    entity: 'consent_history',
    op: 'insert',
    sql: `${RENEWALS} order by h.id`,
    params: changeParams,
  },
  {
    entity: 'consent',
    op: 'update',
    sql: `select * from consent where tenant_id = ? and id in (select consent_id from (${REVOCATIONS}) r
      union select consent_id from (${RENEWALS}) v) order by id`,
    params: (k) => [k.tenant, ...changeParams(k), ...changeParams(k)],
  },
];
export const RUN_QUERY = `select * from consent_import_run where tenant_id = ? and id = ?`;

/** The parameters of a batch query. */
export const batchParams = (tenant: string, run: string, prefix: string, q: (typeof BATCH_QUERIES)[number]) =>
  q.params({ tenant, run, prefix, end: `${prefix}~` });

/** The tables a batch entry holds rows of (the run's record is read as one row). */
export const BATCH_TABLES = ['consent', 'consent_history', 'consent_import_run'] as const;
export type BatchTable = (typeof BATCH_TABLES)[number];

/**
 * A statement answering the rows of `sql` as one JSON array of arrays (each row's values in `columns` order), built
 * by the engine: a batch of 10,000 consents is a few MB of text, and building it in the database costs a fraction of
 * reading the rows into JavaScript and serialising them (measured on SQLite: 135 ms a batch against 25).
 */
export function asJsonRows(engine: 'sqlite' | 'postgres', sql: string, columns: readonly string[]): string {
  const values = columns.map((c) => `r."${c}"`).join(', ');
  return engine === 'sqlite'
    ? `select json_group_array(json_array(${values})) as rows from (${sql}) r`
    : `select coalesce(json_agg(json_build_array(${values})), '[]')::text as rows from (${sql}) r`;
}

/** One group of a batch entry as JSON text, its rows already JSON (see BatchData). */
export const groupJson = (entity: string, op: BatchGroup['op'], columns: readonly string[], rows: string): string =>
  `{"entity":${JSON.stringify(entity)},"op":"${op}","key":["id"],"columns":${JSON.stringify(columns)},"rows":${rows}}`;

/** The batch's journal entry after `head`; `groups` are groupJson's texts. */
export function batchEntry(
  tenant: string,
  run: string,
  head: ChainHead | undefined,
  who: ImportJournal,
  txn: string,
  groups: string[],
): JournalRow {
  const meta = { txn, time: new Date().toISOString(), ...who };
  const change = {
    entity: 'consent_import_run',
    entity_id: run,
    op: BATCH_OP,
    data: `{"groups":[${groups.join(',')}]}`,
  };
  return chainEntries(tenant, head, meta, [change])[0]!;
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
/** A tenant's first entry registers the tenant (as JournalWriter does): `?` the tenant and the entry's time. */
export const REGISTER_TENANT = `insert into tenant (tenant_id, created_at) values (?, ?) on conflict (tenant_id) do nothing`;
