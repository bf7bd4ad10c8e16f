import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept prepared: the queries of a run repeat, the few unique ones fall out first. */
const KEEP = 256;

/**
 * The database as kysely's SqliteDialect reaches it, with each statement prepared once and kept (least recently used
 * out first). kysely prepares every query it runs; a bulk write repeats one wide statement hundreds of times, and
 * preparing it again each time cost a third of a sync's inserts (measured). Statements of one connection are used one
 * at a time (kysely's connection mutex), so a kept statement is never busy when it is asked for again.
 */
export function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = kept.get(sql);
      if (stmt) kept.delete(sql);
      else {
        stmt = sqlite.prepare(sql);
        if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
      }
      kept.set(sql, stmt);
      return stmt;
    },
  };
}
