import { BATCH_OP, type BatchGroup, type DeriveCell, type DeriveRule } from '../../domain/journal/changes.js';
import { DomainError } from '../../domain/errors.js';
import { ROW_FIELDS, ROW_WIDTH, type BatchValue, type ImportJournal } from '../consent-import-rows.js';
import type { JournalRow } from '../db-types.js';
import { currentRequest } from '../tenant-scope.js';
import { chainEntries, type ChainHead } from './journal-writer.js';

/**
 * An import's batches are journaled as one entry each (op `batch` of its run): the consents and history entries it
 * created, the stored consents it revoked with their entries, and the run's record. Each engine's writer runs the
 * same statements on its own connection, inside the batch's transaction and under the tenant's journal lock.
 */

/** Who the entries name, decided where the import was asked for (the worker thread has no request scope). */
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
 * The batch's rows read back, by statements both engines run on an index (`?` placeholders): its revocations and
 * renewals of stored consents are entries of the run with source `import` (partial indexes; a created consent's own
 * `revoked` entry has no source), their ids the batch's prefix and a counter. The consents it created are not read
 * back: both writers know their staged rows' numbers (createdGroups).
 */
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
/**
 * The consents a batch created and their history entries are not read back for its entry: they are what the writers'
 * set-based inserts make of the staged rows, so the entry holds the staged rows of the created consents and these
 * rules, which say what each insert writes into each column (BatchGroup.derive). Both writers' statements and these
 * rules change together; a column the rules do not know stops the import (a test compares the derived rows with the
 * tables after an import of every kind of row on both engines).
 */
function importRules(
  tenant: string,
  now: string,
  run: string,
): Record<'consent' | 'consent_history', Array<{ when?: number; cells: Record<string, DeriveCell> }>> {
  const v = (f: (typeof ROW_FIELDS)[number]): DeriveCell => ['v', ROW_FIELDS.indexOf(f)];
  const grantedAt: DeriveCell = ['or', ROW_FIELDS.indexOf('granted_at'), now];
  const common: Record<string, DeriveCell> = {
    tenant_id: ['c', tenant],
    import_run_id: ['c', run],
    consent_version: v('consent_version'),
  };
  return {
    consent: [
      {
        cells: {
          ...common,
          id: ['id', 0],
          user_id: v('user_id'),
          data_point_id: v('data_point_id'),
          granted: v('granted'),
          granted_at: grantedAt,
          revoked_at: v('revoked_at'),
          source: v('source'),
          ip_address: v('ip_address'),
          user_agent: v('user_agent'),
          created_at: ['c', now],
          banner_revision: ['c', null],
          policy_version_id: ['c', null],
          policy_content_hash: ['c', null],
        },
      },
    ],
    consent_history: [
      {
        cells: {
          ...common,
          id: ['id', 1],
          consent_id: ['id', 0],
          action: ['c', 'granted'],
          ip_address: v('ip_address'),
          user_agent: v('user_agent'),
          source: v('source'),
          created_at: grantedAt,
        },
      },
      {
        when: ROW_FIELDS.indexOf('revoked_at'),
        cells: {
          ...common,
          id: ['id', 2],
          consent_id: ['id', 0],
          action: ['c', 'revoked'],
          ip_address: ['c', null],
          user_agent: ['c', null],
          source: ['c', null],
          created_at: v('revoked_at'),
        },
      },
    ],
  };
}

/** What a batch's writer knows of the consents it created: its staged rows, their ids' prefix and counter start. */
export interface CreatedRows {
  pieces: BatchValue[][];
  prefix: string;
  start: number;
  /** The numbers (n) of the staged rows whose consents it created, in order. */
  created: number[];
}

/**
 * The groups of the consents a batch created and of their history entries, as rules over its staged rows, and the
 * staged rows of the created consents (the text of BatchData's `staged`).
 */
export function createdGroups(
  tenant: string,
  now: string,
  run: string,
  columns: Record<'consent' | 'consent_history', readonly string[]>,
  created: CreatedRows,
): { groups: string[]; staged: string } {
  const rules = importRules(tenant, now, run);
  const groups = (['consent', 'consent_history'] as const).map((entity) => {
    const derive: DeriveRule[] = rules[entity].map((r) => ({
      ...(r.when === undefined ? {} : { when: r.when }),
      cells: columns[entity].map((c) => {
        const cell = r.cells[c];
        if (!cell) throw new DomainError('internal', `the import's journal entry does not know column ${entity}.${c}`);
        return cell;
      }),
    }));
    return `{"entity":"${entity}","op":"insert","key":["id"],"columns":${JSON.stringify(columns[entity])},"derive":${JSON.stringify(derive)}}`;
  });
  // the staged rows of the created consents, in the order of their numbers (n), as the staged rows are
  const rows: BatchValue[][] = [];
  let piece = 0;
  let first = 0;
  for (const n of created.created) {
    while (n >= first + created.pieces[piece]!.length / ROW_WIDTH) first += created.pieces[piece++]!.length / ROW_WIDTH;
    const at = (n - first) * ROW_WIDTH;
    rows.push([n, ...created.pieces[piece]!.slice(at, at + ROW_WIDTH)]);
  }
  const staged = JSON.stringify({ ids: { prefix: created.prefix, start: created.start, step: 3 }, rows });
  return { groups, staged };
}

export const RUN_QUERY = `select * from consent_import_run where tenant_id = ? and id = ?`;

/** The parameters of a batch query. */
export const batchParams = (tenant: string, run: string, prefix: string, q: (typeof BATCH_QUERIES)[number]) =>
  q.params({ tenant, run, prefix, end: `${prefix}~` });

/** The tables a batch entry holds rows of (the run's record is read as one row). */
export const BATCH_TABLES = ['consent', 'consent_history', 'consent_import_run'] as const;
export type BatchTable = (typeof BATCH_TABLES)[number];

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
  staged?: string,
): JournalRow {
  const meta = { txn, time: new Date().toISOString(), ...who };
  const change = {
    entity: 'consent_import_run',
    entity_id: run,
    op: BATCH_OP,
    data: `{"groups":[${groups.join(',')}]${staged === undefined ? '' : `,"staged":${staged}`}}`,
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
/** The bulk paths' statements on the journal (`?` placeholders): its head, and one entry appended (JOURNAL_COLUMNS). */
export const HEAD_QUERY = `select seq, hash from journal where tenant_id = ? order by seq desc limit 1`;
export const APPEND_ENTRY = `insert into journal (${JOURNAL_COLUMNS.join(', ')}) values (${JOURNAL_COLUMNS.map(() => '?').join(', ')})`;
/** A tenant's first entry registers the tenant (as JournalWriter does): `?` the tenant and the entry's time. */
export const REGISTER_TENANT = `insert into tenant (tenant_id, created_at) values (?, ?) on conflict (tenant_id) do nothing`;
