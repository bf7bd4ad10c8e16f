import { sql, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { engineFor, runDirect, type TransactionOptions } from './engine.js';
import type { DB } from './db-types.js';

export type { TransactionOptions } from './engine.js';

const inTransaction = new WeakSet<object>();

/**
 * One write transaction; calls inside it join it. The engines reach the same guarantee in their own way (see
 * Engine.writeTransaction): SQLite takes the write lock up front (BEGIN IMMEDIATE), so a read-modify-write never fails
 * halfway and concurrent writers wait their turn; PostgreSQL runs it SERIALIZABLE and runs it again when another
 * transaction got in the way, so two replicas that revoke the same consent or escalate the same assignment behave as
 * if they had taken turns. `fn` may therefore run more than once: it must not have effects outside the database.
 */
export async function writeTransaction<T>(
  db: Kysely<DB>,
  fn: (trx: Kysely<DB>) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  if (inTransaction.has(db)) return fn(db);
  return engineFor(db).writeTransaction(db, once, fn, opts);
}

/**
 * A statement of a write transaction's connection (`db`, as writeTransaction hands it to its work): run straight on
 * it where the engine can (EngineAdapter.direct: SQLite, whose one connection the transaction holds), through kysely
 * otherwise. Outside a transaction always through kysely, whose mutex lets one caller at a time use SQLite's
 * connection. A DSFA write's two journal statements (the head read, the entries inserted) took 47–51 µs through
 * kysely's executor in serve, 26 µs this way (medians).
 */
export async function executeHeld<D, R>(db: Kysely<D>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const answered = inTransaction.has(db) ? runDirect(db, query) : undefined;
  return answered ?? db.executeQuery(query);
}

async function once<T>(conn: Kysely<DB>, begin: string, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  inTransaction.add(conn);
  await sql.raw(begin).execute(conn);
  try {
    const result = await fn(conn);
    await sql`commit`.execute(conn);
    return result;
  } catch (e) {
    await sql`rollback`.execute(conn).catch(() => undefined);
    throw e;
  }
}
