import { sql, type AliasedRawBuilder, type Kysely } from 'kysely';

/**
 * The order in which a tenant's rows of a table are read a page at a time: the columns after the tenant of an index
 * both engines have, so that each page continues the index where the last one ended. By id for the other tables.
 * Consent history goes by consent, time and id: SQLite keys it so (migration 0027) and has no index on the id alone;
 * read by id, every page sorted the tenant's whole history first (PostgreSQL: index consent_history_consent). An
 * assessment and its trail go by time and id (their indexes `*_tenant_created`), for the same reason. The columns
 * are never null: a row comparison with a null in it would end the reading early.
 */
const PAGE_ORDER: Record<string, readonly string[]> = {
  consent_history: ['consent_id', 'created_at', 'id'],
  dsfa: ['created_at', 'id'],
  dsfa_audit: ['created_at', 'id'],
};

export const pageOrder = (table: string): readonly string[] => PAGE_ORDER[table] ?? ['id'];

/**
 * One page of a tenant's rows of `table` after the row whose `pageOrder` columns hold `after` (none: the first): each
 * row whole, or its `pageOrder` columns and the `extra` value only.
 */
export function tenantPageQuery<D>(
  db: Kysely<D>,
  table: string,
  tenant: string,
  after: unknown[] | undefined,
  size: number,
  extra?: AliasedRawBuilder<unknown, string>,
) {
  const order = pageOrder(table);
  const anyDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const from = anyDb.selectFrom(table);
  let q = (extra ? from.select([...order, extra]) : from.selectAll()).where('tenant_id', '=', tenant);
  if (after) {
    const columns = sql.join(order.map((c) => sql.ref(c)));
    q = q.where(sql<boolean>`(${columns}) > (${sql.join(after)})`);
  }
  for (const c of order) q = q.orderBy(c);
  return q.limit(size);
}

type PageReader = (after: unknown[] | undefined) => Promise<Array<Record<string, unknown>>>;

/**
 * Every row of a tenant's `table`, in pageOrder, `size` rows per statement: each row whole, or as `read` reads the
 * page after the row whose pageOrder columns hold `after` (its rows must have those columns).
 */
export async function* tenantPages<D>(
  db: Kysely<D>,
  table: string,
  tenant: string,
  size: number,
  read: PageReader = (after) => tenantPageQuery(db, table, tenant, after, size).execute(),
): AsyncIterable<Array<Record<string, unknown>>> {
  const order = pageOrder(table);
  for (let after: unknown[] | undefined; ;) {
    const rows = await read(after);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = order.map((c) => last[c]);
  }
}
