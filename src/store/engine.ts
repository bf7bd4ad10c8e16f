import type { CompiledQuery, DialectAdapter, Expression, Kysely, QueryResult, RawBuilder } from 'kysely';
import type { DB } from './db-types.js';

export type EngineKind = 'sqlite' | 'postgres';

/** What a write transaction takes besides its work. */
export interface TransactionOptions {
  /**
   * Serialise with the other writers of this key (a tenant's journal): on PostgreSQL a session advisory lock taken
   * before the transaction starts, so the transaction's snapshot already sees the previous writer's commit and
   * writers of one tenant queue instead of failing each other; writers of other keys never wait. SQLite's write
   * lock serialises every writer anyway.
   */
  lock?: string;
}

/** Runs `fn` between `begin` and COMMIT on `conn` (ROLLBACK when it throws); `fn`'s calls to writeTransaction join it. */
export type RunTransaction = <T>(conn: Kysely<DB>, begin: string, fn: (trx: Kysely<DB>) => Promise<T>) => Promise<T>;

/**
 * What differs between the engines inside the code both share (src/store/kysely, journal, copy, transactions), as
 * kysely's adapters carry capability flags: each engine folder implements it once, and shared code asks the
 * connection's engine (`engineFor(db)`) instead of testing which engine it is.
 */
export interface Engine {
  readonly kind: EngineKind;
  /**
   * One write transaction on a connection of `db`: SQLite takes the write lock up front (BEGIN IMMEDIATE);
   * PostgreSQL runs it SERIALIZABLE (or REPEATABLE READ under the key's advisory lock) and again after a conflict.
   */
  writeTransaction<T>(
    db: Kysely<DB>,
    run: RunTransaction,
    fn: (trx: Kysely<DB>) => Promise<T>,
    opts: TransactionOptions,
  ): Promise<T>;
  /** The statement that opens one consistent, read-only view of every table (for `db copy`). */
  readonly snapshotBegin: string;
  /**
   * `select … for update` takes row locks that make concurrent writers of a row take turns (PostgreSQL); where the
   * engine's write lock already serialises every writer (SQLite) the clause is left out.
   */
  readonly locksRows: boolean;
  /**
   * Orders by `column` without letting the planner walk that column's index (SQLite: `+column`, when another index
   * narrows the rows to a few); an engine whose planner weighs both plans itself orders by the column.
   */
  orderOffIndex(column: string): RawBuilder<unknown>;
  /** The engine keeps consent tallies by trigger (PostgreSQL, migration 0013): counts read them, not the consents. */
  readonly consentTallies: boolean;
  /** Lifts the statement timeout for the rest of the current transaction (a bulk write such as a revert). */
  liftStatementTimeout(trx: Kysely<DB>): Promise<void>;
  /** Days (fractional) from one ISO timestamp column to another. */
  daysBetween(from: Expression<string>, to: Expression<string>): RawBuilder<number>;
  /** For each table, the tables its foreign keys point to (so rows can be written parents first). */
  foreignKeyParents(db: Kysely<DB>): Promise<Map<string, string[]>>;
  /** The placeholder of the `n`-th bound value (1-based) in SQL written by hand. */
  placeholder(n: number): string;
  /**
   * A statement answering the rows of `sql` as one JSON array of arrays, each row's values in `columns` order, built
   * by the engine: a batch of 10,000 consents is a few MB of text, and building it in the database costs a fraction
   * of reading the rows into JavaScript and serialising them (measured on SQLite: 135 ms a batch against 25).
   */
  jsonRows(sql: string, columns: readonly string[]): string;
  /**
   * A JSON array of `items` built by the database, whose text is what JSON.stringify writes for the same values (but
   * for control characters in strings): what lets the journal's verification read each entry's hashed text instead of
   * its fields (JournalStore.verifyPage). Absent where the engine writes JSON otherwise (PostgreSQL puts a space after
   * each comma).
   */
  jsonArrayText?(items: readonly Expression<unknown>[]): RawBuilder<string>;
}

/** A kysely adapter that knows its engine: the engine stores open their connections with one. */
export interface EngineAdapter extends DialectAdapter {
  readonly engine: Engine;
  /**
   * Runs a statement on the store's one connection at once, past kysely's executor, where the engine answers
   * synchronously (SQLite): for a caller that holds that connection, a write transaction (see executeHeld). Absent
   * where a store's connections are pooled (PostgreSQL).
   */
  direct?(query: CompiledQuery): QueryResult<unknown>;
}

const adapterOf = <D>(db: Kysely<D>): Partial<EngineAdapter> => db.getExecutor().adapter as Partial<EngineAdapter>;

/** The engine of a connection opened by a Store (the engine rides on its kysely adapter, transactions included). */
export function engineFor<D>(db: Kysely<D>): Engine {
  const engine = adapterOf(db).engine;
  if (!engine) throw new Error('a kysely instance not opened by a Store (sqlite-store.ts or postgres-store.ts)');
  return engine;
}

/** `query` run the adapter's direct way (EngineAdapter.direct); undefined where it has none. */
export function runDirect<D, R>(db: Kysely<D>, query: CompiledQuery<R>): QueryResult<R> | undefined {
  const adapter = adapterOf(db);
  return adapter.direct ? (adapter.direct(query) as QueryResult<R>) : undefined;
}

/** Groups foreign keys (child → parent) by child table. */
export function parentsByChild(rows: Array<{ child: string; parent: string }>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.child, [...(out.get(r.child) ?? []), r.parent]);
  return out;
}
