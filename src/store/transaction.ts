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

/**
 * One write transaction; calls inside it join it. The engines reach the same guarantee in their own way: SQLite
 * takes the write lock up front (BEGIN IMMEDIATE), so a read-modify-write never fails halfway and concurrent writers
 * wait their turn; PostgreSQL runs it SERIALIZABLE and runs it again when another transaction got in the way, so two
 * replicas that revoke the same consent or escalate the same assignment behave as if they had taken turns.
 * `fn` may therefore run more than once: it must not have effects outside the database.
 */
export async function writeTransaction<T>(
  db: Kysely<DB>,
  fn: (trx: Kysely<DB>) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  if (inTransaction.has(db)) return fn(db);
  if (!isPostgres(db)) return db.connection().execute((conn) => once(conn, 'begin immediate', fn));
  for (let reconnected = false; ; reconnected = true) {
    try {
      return await db.connection().execute((conn) => attempts(conn, fn, opts.lock));
    } catch (e) {
      // The connection broke before COMMIT was sent (a restarted server, an ended session): the database rolled the
      // transaction back with it (and released its lock), so it runs once more on a new connection. A COMMIT whose
      // answer was lost is not repeated: it may have been committed (ConnectionLostError.outcomeUnknown).
      if (e instanceof ConnectionLostError && e.safeToRepeat && !reconnected) continue;
      throw e;
    }
  }
}

/**
 * The attempts of one transaction on one PostgreSQL connection, under the key's lock when there is one. The lock
 * orders the key's writers; what keeps them correct if a writer ever runs without it (a connection replaced under
 * it) are the unique keys, whose violations run the transaction again.
 */
async function attempts<T>(conn: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>, key?: string): Promise<T> {
  const lock = key === undefined ? undefined : sql`hashtext('compliance journal'), hashtext(${key})`;
  if (lock) await sql`select pg_advisory_lock(${lock})`.execute(conn);
  // Under the key's lock the key's writers run one after another, each on a snapshot taken after the previous one
  // committed: REPEATABLE READ then gives what SERIALIZABLE would, without the false conflicts SERIALIZABLE's
  // page-level read locks raise between writers of different keys whose rows share an index page.
  const begin = lock ? 'begin isolation level repeatable read' : 'begin isolation level serializable';
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(conn, begin, fn);
      } catch (e) {
        if (!retryable(e) || attempt >= MAX_ATTEMPTS) throw e;
        // back off with jitter, so the transactions that collided do not collide again
        await sleep(Math.random() * Math.min(200, 2 ** attempt));
      }
    }
  } finally {
    // a connection that broke has lost its lock with its session
    if (lock) await sql`select pg_advisory_unlock(${lock})`.execute(conn).catch(() => undefined);
  }
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
