import { SqliteAdapter, SqliteDialect, sql } from 'kysely';
import type { CompiledQuery, Kysely, QueryResult, SqliteDialectConfig } from 'kysely';
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

  constructor(private readonly database: SqliteDialectConfig['database']) {
    super();
  }

  /** What kysely's SqliteConnection does with a statement, without its executor around it. */
  direct(query: CompiledQuery): QueryResult<unknown> {
    if (typeof this.database === 'function') throw new Error('a store opens its database before its dialect');
    const statement = this.database.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) };
    const { changes } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), rows: [] };
  }
}

/** kysely's SQLite dialect, with an adapter that carries the engine (engineFor) and reaches the one connection. */
export class SqliteEngineDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createAdapter(): SqliteEngineAdapter {
    return new SqliteEngineAdapter(this.config.database);
  }
}
