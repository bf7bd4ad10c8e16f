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
