import { PostgresAdapter, sql, type ColumnDataType, type Expression, type Kysely } from 'kysely';

/**
 * What the migrations need to run on both engines from one list. The SQLite statements are exactly those the
 * migrations ran before PostgreSQL was added (a test holds the SQLite schema to a snapshot); where PostgreSQL needs
 * something else, the migration branches on `isPostgres`.
 */
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The role every request runs as on PostgreSQL: no BYPASSRLS, not the owner, so row-level security always applies. */
export const APP_ROLE = 'compliance_app';

type ColumnType = ColumnDataType | Expression<unknown>;

/**
 * Column types: text compares and sorts byte by byte on both engines (COLLATE "C" on PostgreSQL, as SQLite's BINARY),
 * so lists come back in the same order; `real` is a double on both.
 */
export function columnTypes(db: Kysely<any>): { text: ColumnType; real: ColumnType; blob: ColumnType } {
  return isPostgres(db)
    ? { text: sql`text collate "C"`, real: 'double precision', blob: 'bytea' }
    : { text: 'text', real: 'real', blob: 'blob' };
}

/**
 * Row-level security for a table with a `tenant_id` column (PostgreSQL; nothing on SQLite): the application role
 * sees and writes only the rows of the tenant its connection is set to (`app.tenant`, set per request), and none
 * when no tenant is set. Every migration that adds such a table calls this; a test checks that none was forgotten.
 */
export async function isolateTenant(db: Kysely<any>, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  const t = sql.table(table);
  await sql`alter table ${t} enable row level security`.execute(db);
  await sql`create policy tenant_isolation on ${t} to ${sql.raw(APP_ROLE)}
    using (tenant_id = current_setting('app.tenant', true))
    with check (tenant_id = current_setting('app.tenant', true))`.execute(db);
}
