import { SqliteAdapter, SqliteDialect, sql, type Kysely } from 'kysely';
import type { DB } from '../db-types.js';
import { parentsByChild, type Engine, type EngineAdapter } from '../engine.js';

/** SQLite's side of what the engines do differently in shared code (see Engine). */
export const sqliteEngine: Engine = {
  kind: 'sqlite',
  // the write lock up front: a read-modify-write never fails halfway, and concurrent writers wait their turn
  writeTransaction: (db, run, fn) => db.connection().execute((conn) => run(conn, 'begin immediate', fn)),
  // a read transaction sees one snapshot of the file (WAL) until it ends
  snapshotBegin: 'begin',
  locksRows: false,
  orderOffIndex: (column) => sql.raw(`+${column}`),
  consentTallies: false,
  liftStatementTimeout: async () => undefined,
  daysBetween: (from, to) => sql<number>`(julianday(${to}) - julianday(${from}))`,
  async foreignKeyParents(db: Kysely<DB>) {
    const { rows } = await sql<{ child: string; parent: string }>`select m.name as child, f."table" as parent
            from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db);
    return parentsByChild(rows);
  },
  placeholder: () => '?',
  jsonRows: (query, columns) =>
    `select json_group_array(json_array(${columns.map((c) => `r."${c}"`).join(', ')})) as rows from (${query}) r`,
  jsonArrayText: (items) => sql<string>`json_array(${sql.join(items)})`,
};

class SqliteEngineAdapter extends SqliteAdapter implements EngineAdapter {
  readonly engine = sqliteEngine;
}

/** kysely's SQLite dialect, with an adapter that carries the engine (engineFor). */
export class SqliteEngineDialect extends SqliteDialect {
  override createAdapter(): SqliteEngineAdapter {
    return new SqliteEngineAdapter();
  }
}
