import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { TrailDigestPage, TrailSnapshot } from '../../domain/journal/journal-store.port.js';
import { rowText, takeRows, type TrailColumns } from '../../domain/journal/trails.js';
import type { DB } from '../db-types.js';
import { engineFor } from '../engine.js';
import { tenantPageQuery, tenantPages } from '../kysely/tenant-pages.js';
import { headQuery } from './journal-head.js';
import type { Statement, VerifyThreads } from './verify-jobs.js';

/** Rows of an audit trail read per statement on the store's connection. */
const TRAIL_PAGE = 5000;

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
type JsonArray = (items: readonly Expression<unknown>[]) => RawBuilder<string>;

export interface SnapshotOptions {
  /** Where the engine writes JSON as JSON.stringify does: a row's text is written by the database. */
  jsonArray?: JsonArray;
  /** Threads to read on, and the rows of the trails from which they are worth starting. */
  threads?: () => Promise<VerifyThreads | undefined>;
  threadRows: number;
}

/** The tenant's rows in one trail: a guide to the size only (read outside the snapshot). */
async function rowsIn(db: Kysely<DB>, tenant: string, table: string): Promise<number> {
  const row = await (db as unknown as AnyDb)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', tenant)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The tenant's audit trails in one snapshot of the store, with the journal's last entry in it: on a thread of its
 * own where the store has threads, the engine writes the rows' texts and the trails hold `threadRows` rows or more;
 * else on the store's connection (every page of every trail in one read transaction).
 */
export async function readTrailSnapshot(
  db: Kysely<DB>,
  tenant: string,
  trails: TrailColumns,
  o: SnapshotOptions,
  tally?: string,
): Promise<{ read: Promise<TrailSnapshot> }> {
  const { jsonArray } = o;
  let rows = 0;
  for (const table of Object.keys(trails)) rows += await rowsIn(db, tenant, table);
  const runner = jsonArray && rows >= o.threadRows ? await o.threads?.() : undefined;
  if (runner && jsonArray) {
    const compiled = (q: { compile(): Statement }): Statement => {
      const { sql: text, parameters } = q.compile();
      return { sql: text, parameters };
    };
    const tables = Object.entries(trails).map(([table, columns]) => ({
      table,
      ...compiled(
        (db as unknown as AnyDb)
          .selectFrom(table)
          .select(['id', jsonArray(columns.map((c) => sql.ref(c))).as('row_text')])
          .where('tenant_id', '=', tenant),
      ),
    }));
    const { sql: headSql, parameters } = headQuery(db, tenant);
    const started = runner.run({ kind: 'trails', head: { sql: headSql, parameters }, tables, tally });
    // a thread that could not read them (a value stored as a blob, which JSON cannot hold) or that failed (the file
    // unreadable to a second connection, memory short) leaves them to this one
    const read = started
      .catch(() => undefined)
      .then((r) => (r?.ok ? { head: r.head, tables: r.tables } : snapshotHere(db, tenant, trails, jsonArray, tally)));
    return { read };
  }
  return { read: snapshotHere(db, tenant, trails, jsonArray, tally) };
}

/** The same on the store's connection, in one read transaction (SQLite: the walk's reads wait for it). */
async function snapshotHere(
  db: Kysely<DB>,
  tenant: string,
  trails: TrailColumns,
  jsonArray: JsonArray | undefined,
  tally: string | undefined,
): Promise<TrailSnapshot> {
  return db.connection().execute(async (conn) => {
    await sql.raw(engineFor(db).snapshotBegin).execute(conn);
    try {
      const [last] = (await conn.executeQuery(headQuery(conn, tenant))).rows;
      const head = Number(last?.seq ?? 0);
      const tables: TrailSnapshot['tables'] = {};
      for (const [table, columns] of Object.entries(trails))
        tables[table] = await digestsHere(conn, tenant, table, columns, jsonArray, tally);
      return { head, tables };
    } finally {
      await sql.raw('commit').execute(conn);
    }
  });
}

/**
 * A trail's rows, each as its id and the digest of its text (or with a `tally` key their tally): the text written by
 * the database where it can, else (and for a page the database cannot write as JSON: a value stored as a blob, which
 * no trail column holds unless someone wrote one there by hand) read whole and written here.
 */
async function digestsHere(
  db: Kysely<DB>,
  tenant: string,
  table: string,
  columns: readonly string[],
  jsonArray: JsonArray | undefined,
  tally: string | undefined,
): Promise<TrailDigestPage> {
  const whole = async (after: unknown[] | undefined) => {
    const rows = await tenantPageQuery(db, table, tenant, after, TRAIL_PAGE).execute();
    return rows.map((r) => ({ ...r, row_text: rowText(columns, r) }));
  };
  const text = jsonArray?.(columns.map((c) => sql.ref(c))).as('row_text');
  const read = text
    ? (after: unknown[] | undefined) =>
        tenantPageQuery(db, table, tenant, after, TRAIL_PAGE, text)
          .execute()
          .catch(() => whole(after))
    : whole;
  const taken = takeRows(tally);
  for await (const rows of tenantPages(db, table, tenant, TRAIL_PAGE, read))
    for (const r of rows) taken.add(r.id, r.row_text as string);
  return taken.page;
}
