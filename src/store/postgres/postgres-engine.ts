import { PostgresAdapter, PostgresDialect, sql, type Kysely } from 'kysely';
import { ConnectionLostError } from '../connection-lost.js';
import type { DB } from '../db-types.js';
import { parentsByChild, type Engine, type EngineAdapter, type RunTransaction } from '../engine.js';

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

/** PostgreSQL's side of what the engines do differently in shared code (see Engine). */
export const postgresEngine: Engine = {
  kind: 'postgres',
  async writeTransaction(db, run, fn, opts) {
    for (let reconnected = false; ; reconnected = true) {
      try {
        return await db.connection().execute((conn) => attempts(conn, run, fn, opts.lock));
      } catch (e) {
        // The connection broke before COMMIT was sent (a restarted server, an ended session): the database rolled the
        // transaction back with it (and released its lock), so it runs once more on a new connection. A COMMIT whose
        // answer was lost is not repeated: it may have been committed (ConnectionLostError.outcomeUnknown).
        if (e instanceof ConnectionLostError && e.safeToRepeat && !reconnected) continue;
        throw e;
      }
    }
  },
  snapshotBegin: 'begin isolation level repeatable read read only',
  locksRows: true,
  orderOffIndex: (column) => sql.ref(column),
  consentTallies: true,
  liftStatementTimeout: async (trx) => {
    await sql`set local statement_timeout = 0`.execute(trx);
  },
  daysBetween: (from, to) => sql<number>`(extract(epoch from (${to}::timestamptz - ${from}::timestamptz)) / 86400.0)`,
  async foreignKeyParents(db: Kysely<DB>) {
    const { rows } = await sql<{ child: string; parent: string }>`select c.relname as child, p.relname as parent
            from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
            where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(db);
    return parentsByChild(rows);
  },
  placeholder: (n) => `$${n}`,
  jsonRows: (query, columns) =>
    `select coalesce(json_agg(json_build_array(${columns.map((c) => `r."${c}"`).join(', ')})), '[]')::text as rows from (${query}) r`,
};

/**
 * The attempts of one transaction on one PostgreSQL connection, under the key's lock when there is one. The lock
 * orders the key's writers; what keeps them correct if a writer ever runs without it (a connection replaced under
 * it) are the unique keys, whose violations run the transaction again.
 */
async function attempts<T>(
  conn: Kysely<DB>,
  run: RunTransaction,
  fn: (trx: Kysely<DB>) => Promise<T>,
  key?: string,
): Promise<T> {
  const lock = key === undefined ? undefined : sql`hashtext('compliance journal'), hashtext(${key})`;
  if (lock) await sql`select pg_advisory_lock(${lock})`.execute(conn);
  // Under the key's lock the key's writers run one after another, each on a snapshot taken after the previous one
  // committed: REPEATABLE READ then gives what SERIALIZABLE would, without the false conflicts SERIALIZABLE's
  // page-level read locks raise between writers of different keys whose rows share an index page.
  const begin = lock ? 'begin isolation level repeatable read' : 'begin isolation level serializable';
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(conn, begin, fn);
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

class PostgresEngineAdapter extends PostgresAdapter implements EngineAdapter {
  readonly engine = postgresEngine;
}

/** kysely's PostgreSQL dialect, with an adapter that carries the engine (engineFor). */
export class PostgresEngineDialect extends PostgresDialect {
  override createAdapter(): PostgresEngineAdapter {
    return new PostgresEngineAdapter();
  }
}
