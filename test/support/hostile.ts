import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import type { BatchData } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { SYNC_TABLES } from '../../src/store/kysely/replica.store.js';
import type { Store } from '../../src/store/store.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest, forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { journalAfter } from './journal.js';

/** The answer of a raw request: its status and its body (JSON where it is). */
export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** A request to a server's /sdk/v1 as any client could send it: a key, a tenant, a body of any shape. */
export async function call(
  url: string,
  method: string,
  path: string,
  o: { key?: string; tenant?: string; body?: unknown; raw?: string | Buffer; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.tenant) headers['x-tenant-id'] = o.tenant;
  let body: string | Buffer | undefined;
  if (o.raw !== undefined) {
    body = o.raw;
    headers['content-type'] = o.type ?? 'application/octet-stream';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${url}/sdk/v1${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text as it came
  }
  return { status: res.status, body: parsed, text };
}

/** A push of raw items (each as a client could write it) by store `replica`. */
export const push = (url: string, key: string, tenant: string, items: unknown[], replica = 'laptop-1') =>
  call(url, 'POST', '/sync/push', { key, tenant, body: { replica, items, dry_run: false } });

/** The folder a tenant's media live in: the first 16 hex digits of the SHA-256 of its id. */
export const mediaFolder = (tenant: string) => createHash('sha256').update(tenant).digest('hex').slice(0, 16);

/**
 * Everything a tenant holds, as one text to compare: every record of every table that travels, in key order, and
 * the hashes of its journal. Equal before and after an attempt: the attempt changed nothing.
 */
export async function tenantState(b: LocalBackend, tenant: string): Promise<string> {
  const { tables, journal } = await tenantRecords(b, tenant);
  return JSON.stringify({ tables, journal });
}

/** A tenant's records per table and the hashes of its journal. */
export async function tenantRecords(
  b: LocalBackend,
  tenant: string,
): Promise<{ tables: Record<string, unknown[]>; journal: string[] }> {
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  const tables: Record<string, unknown[]> = {};
  await forTenant(tenant, async () => {
    for (const entity of uow.read.replica.entities) {
      const list: unknown[] = [];
      for await (const page of uow.read.replica.rows(tenant, entity)) list.push(...page);
      tables[entity] = list;
    }
  });
  const journal = (await journalAfter(b, tenant)).map((e) => e.hash);
  return { tables, journal };
}

/** A tenant's fingerprint: per table of records that travel, and for its journal, the row count and a hash of the rows. */
export type Fingerprint = Record<string, string>;

const columnsOf = new WeakMap<Store, Promise<Record<string, string[]>>>();

/** The columns of each table that travels, as the database has them (SQLite cannot turn a row into JSON without them). */
function syncColumns(store: Store): Promise<Record<string, string[]>> {
  let known = columnsOf.get(store);
  if (!known) {
    known = (async () => {
      const out: Record<string, string[]> = {};
      for (const table of Object.keys(SYNC_TABLES)) {
        const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(store.admin);
        out[table] = rows.map((r) => r.name);
      }
      return out;
    })();
    columnsOf.set(store, known);
  }
  return known;
}

/**
 * What each of `tenants` holds, read in one statement: for every table that travels (the tables `tenantRecords` reads
 * through the replica) and for the journal, the number of rows and the SHA-256 of the rows as the database holds them,
 * every column, in a fixed order. Any row of a tenant added, removed or changed changes its table's entry; cheap enough
 * to compare before and after every attempt of a hostile suite, where reading every record through the replica costs
 * dozens of queries.
 */
export async function fingerprints(b: LocalBackend, tenants: string[]): Promise<Record<string, Fingerprint>> {
  const store = b.store;
  const columns = store.kind === 'sqlite' ? await syncColumns(store) : {};
  // a row as one text: PostgreSQL's JSON of the row, SQLite's JSON array of its columns
  const text = (table: string, alias: string) =>
    store.kind === 'postgres'
      ? sql`to_jsonb(${sql.ref(alias)})::text`
      : sql`json_array(${sql.join(columns[table]!.map((c) => sql.ref(`${alias}.${c}`)))})`;
  const aggregate = (table: string, alias: string) =>
    store.kind === 'postgres'
      ? sql`string_agg(${text(table, alias)}, chr(10) order by ${text(table, alias)})`
      : sql`group_concat(${text(table, alias)}, char(10) order by ${text(table, alias)})`;
  const wanted = sql.join(tenants);
  const parts = Object.entries(SYNC_TABLES).map(([table, spec]) =>
    spec.tenant === false
      ? // a table without a tenant column: its rows are their parent's tenant's (block links: their block's)
        sql`select ${sql.lit(table)} as t, p.tenant_id as tenant, count(*) as n, ${aggregate(table, 'r')} as rows
          from ${sql.table(table)} as r join training_block as p on p.id = r.block_id
          where p.tenant_id in (${wanted}) group by p.tenant_id`
      : sql`select ${sql.lit(table)} as t, r.tenant_id as tenant, count(*) as n, ${aggregate(table, 'r')} as rows
          from ${sql.table(table)} as r where r.tenant_id in (${wanted}) group by r.tenant_id`,
  );
  const journal =
    store.kind === 'postgres'
      ? sql`string_agg(hash, chr(10) order by seq)`
      : sql`group_concat(hash, char(10) order by seq)`;
  parts.push(
    sql`select 'journal' as t, tenant_id as tenant, count(*) as n, ${journal} as rows
      from journal where tenant_id in (${wanted}) group by tenant_id`,
  );
  const { rows } = await sql<{ t: string; tenant: string; n: number | string; rows: string | null }>`${sql.join(
    parts,
    sql` union all `,
  )}`.execute(store.admin);
  const out: Record<string, Fingerprint> = {};
  for (const tenant of tenants) {
    out[tenant] = {};
    for (const t of [...Object.keys(SYNC_TABLES), 'journal']) out[tenant][t] = '0';
  }
  for (const r of rows)
    out[r.tenant]![r.t] = `${Number(r.n)} ${createHash('sha256')
      .update(r.rows ?? '')
      .digest('hex')}`;
  return out;
}

/** The tenant's chain verified end to end, as `audit verify` does it. */
export async function expectIntact(b: LocalBackend, tenant: string): Promise<void> {
  const reports = await (await b.auditor()).verify(tenant);
  expect(reports.map((r) => ({ tenant: r.tenant, ok: r.ok, problem: r.problem }))).toEqual([
    { tenant, ok: true, problem: undefined },
  ]);
}

/** The row a record has on the server, as a push would send it. */
export async function heldRow(b: LocalBackend, tenant: string, entity: string, id: string) {
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  return forTenant(tenant, () => uow.read.replica.read(tenant, entity, id));
}

/** The version of a row as sync names it (SHA-256 of its canonical JSON). */
export function versionOf(row: Record<string, unknown> | null): string | null {
  if (!row) return null;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(row).sort()) sorted[k] = row[k] === undefined ? null : row[k];
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/**
 * Appends a batch entry to a server's journal as given, its rows in no table: a server whose journal was poisoned
 * (`data`'s groups derive their rows from its staged rows, as an import's do).
 */
export async function poisonBatch(b: LocalBackend, tenant: string, run: string, data: BatchData): Promise<void> {
  const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
  await forRequest({ tenant, actor: 'mallory', principal: 'sync:evil' }, () =>
    uow.write(tenant, (tx) =>
      tx.replica.asOneEntry('consent_import_run', run, async (entry) =>
        entry.adopt({ groups: data.groups, staged: data.staged!, covers: new Map() }),
      ),
    ),
  );
}

/**
 * An import's batch entry as a hostile server sends it again: its derived groups alone (the consents and history
 * entries it makes from its staged rows), for `tenant` when given (every rule's tenant cell), under new ids when
 * `newIds` (another id prefix). A copy: change it freely.
 */
export function batchAgain(entry: JournalEntry, o: { tenant?: string; newIds?: boolean } = {}): BatchData {
  const data = structuredClone(entry.data) as BatchData;
  data.groups = data.groups.filter((g) => g.derive);
  if (o.tenant !== undefined)
    for (const g of data.groups)
      for (const rule of g.derive!) rule.cells[g.columns.indexOf('tenant_id')] = ['c', o.tenant];
  if (o.newIds) data.staged!.ids.prefix = data.staged!.ids.prefix.replace(/^./, (d) => (d === 'f' ? 'e' : 'f'));
  return data;
}

/** Sets the staged value that column `column` of the rows `entity`'s group derives takes from staged row `row`. */
export function setStaged(data: BatchData, entity: string, column: string, row: number, value: unknown): void {
  const group = data.groups.find((g) => g.entity === entity)!;
  const cell = group.derive![0]!.cells[group.columns.indexOf(column)]!;
  if (cell[0] !== 'v' && cell[0] !== 'or') throw new Error(`${entity}.${column} is not taken from the staged rows`);
  data.staged!.rows[row]![1 + cell[1]] = value;
}
