import { sql, type Kysely } from 'kysely';
import { ConnectionLostError } from './connection-lost.js';
import { isPostgres } from './dialect.js';
import type { DB } from './db-types.js';

const inTransaction = new WeakSet<object>();

/**
 * SQLSTATEs after which the transaction runs again: a serialization failure and a deadlock, which PostgreSQL asks the
 * client to retry, and a unique violation. A write transaction checks a key before it inserts one (a module code, an
 * open assignment), so a violation means a concurrent transaction inserted the key after the check; PostgreSQL
 * reports that as a serialization failure only when the check read the very index the insert hits. Run again, the
 * check sees the other row and the domain answers as it should (409, or the existing record).
 */
const RETRY_CODES = new Set(['40001', '40P01', '23505']);
const MAX_ATTEMPTS = 25;

const retryable = (e: unknown): boolean => RETRY_CODES.has(String((e as { code?: unknown })?.code ?? ''));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One write transaction; calls inside it join it. The engines reach the same guarantee in their own way: SQLite
 * takes the write lock up front (BEGIN IMMEDIATE), so a read-modify-write never fails halfway and concurrent writers
 * wait their turn; PostgreSQL runs it SERIALIZABLE and runs it again when another transaction got in the way, so two
 * replicas that revoke the same consent or escalate the same assignment behave as if they had taken turns.
 * `fn` may therefore run more than once: it must not have effects outside the database.
 */
export async function writeTransaction<T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (inTransaction.has(db)) return fn(db);
  if (!isPostgres(db)) return once(db, 'begin immediate', fn);
  let reconnected = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(db, 'begin isolation level serializable', fn);
    } catch (e) {
      // The connection broke before COMMIT was sent (a restarted server, an ended session): the database rolled the
      // transaction back with it, so it runs once more on a new connection. A COMMIT whose answer was lost is not
      // repeated: it may have been committed (ConnectionLostError.outcomeUnknown).
      if (e instanceof ConnectionLostError && e.safeToRepeat && !reconnected) {
        reconnected = true;
        continue;
      }
      if (!retryable(e) || attempt >= MAX_ATTEMPTS) throw e;
      // back off with jitter, so the transactions that collided do not collide again
      await sleep(Math.random() * Math.min(200, 2 ** attempt));
    }
  }
}

function once<T>(db: Kysely<DB>, begin: string, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
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
  });
}
