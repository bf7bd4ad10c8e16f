import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from './db-types.js';

/**
 * The few expressions whose SQL differs between the engines. Everything else is written once with kysely's builders;
 * both engines store timestamps as ISO 8601 text in UTC, booleans as 0/1 and JSON as text, so they compare, sort
 * and read back alike.
 */
export const isPostgres = (db: Kysely<DB>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Days (fractional) from one ISO timestamp column to another. */
export function daysBetween(db: Kysely<DB>, from: Expression<string>, to: Expression<string>): RawBuilder<number> {
  return isPostgres(db)
    ? sql<number>`(extract(epoch from (${to}::timestamptz - ${from}::timestamptz)) / 86400.0)`
    : sql<number>`(julianday(${to}) - julianday(${from}))`;
}

/** For each table, the tables its foreign keys point to (so rows can be written parents first). */
export async function foreignKeyParents(db: Kysely<DB>): Promise<Map<string, string[]>> {
  const rows = isPostgres(db)
    ? (
        await sql<{ child: string; parent: string }>`select c.relname as child, p.relname as parent
            from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
            where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(db)
      ).rows
    : (
        await sql<{ child: string; parent: string }>`select m.name as child, f."table" as parent
            from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db)
      ).rows;
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.child, [...(out.get(r.child) ?? []), r.parent]);
  return out;
}
