import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { APP_ROLE } from '../../../migrations/dialect.js';
import { DomainError } from '../../domain/errors.js';
import { ConnectionLostError } from '../connection-lost.js';
import { driverFailure, serverState } from './postgres-errors.js';
import { currentTenant } from '../tenant-scope.js';

/**
 * How long the application's statements may take, in milliseconds (0: no limit). The server ends a statement after
 * `statementTimeout` and a wait for a lock after `lockTimeout`; a server that does not answer at all (frozen, or
 * cut off without a reset) is given up by the client after `queryTimeout`, and that connection is discarded.
 */
export interface Timeouts {
  statementTimeout: number;
  lockTimeout: number;
  queryTimeout: number;
}

/** The settings as text, from the environment (the URL's query parameters win over them). */
export interface TimeoutSettings {
  statement_timeout?: string;
  lock_timeout?: string;
  query_timeout?: string;
}

export const DEFAULT_TIMEOUTS: Timeouts = { statementTimeout: 5000, lockTimeout: 3000, queryTimeout: 7000 };

/** Query parameters of a store URL that this store applies itself, rather than the driver to every connection. */
const OWN_PARAMS = ['statement_timeout', 'lock_timeout', 'query_timeout', 'pool_max'];

/** The URL without the parameters this store applies itself: for connections of its own kind (bulk import, export). */
export function driverUrl(url: string): string {
  const u = new URL(url);
  for (const p of OWN_PARAMS) u.searchParams.delete(p);
  return u.toString();
}

/**
 * The timeouts for a store URL: its query parameters, else the environment's settings, else the defaults. The
 * query timeout defaults to two seconds past the statement timeout, so a server that answers reports its own.
 */
export function timeoutsFor(url: string, env: TimeoutSettings = {}): Timeouts {
  const params = new URL(url).searchParams;
  const read = (name: keyof TimeoutSettings, envName: string): number | undefined => {
    const fromUrl = params.get(name);
    const text = fromUrl ?? env[name];
    if (text === undefined || text === '') return undefined;
    if (!/^\d{1,9}$/.test(text.trim()))
      throw new DomainError(
        'bad_request',
        `invalid ${fromUrl !== null ? `${name} in the database URL` : envName}: "${text}" (milliseconds, 0 for none)`,
        [{ path: fromUrl !== null ? name : envName, message: 'a whole number of milliseconds; 0 for no limit' }],
      );
    return Number(text.trim());
  };
  const statementTimeout =
    read('statement_timeout', 'COMPLIANCE_PG_STATEMENT_TIMEOUT') ?? DEFAULT_TIMEOUTS.statementTimeout;
  return {
    statementTimeout,
    lockTimeout: read('lock_timeout', 'COMPLIANCE_PG_LOCK_TIMEOUT') ?? DEFAULT_TIMEOUTS.lockTimeout,
    queryTimeout:
      read('query_timeout', 'COMPLIANCE_PG_QUERY_TIMEOUT') ?? (statementTimeout ? statementTimeout + 2000 : 0),
  };
}

/**
 * How a failed statement left its connection, or undefined when the connection is fine: by the server's SQLSTATE,
 * Node's socket code, or the driver's own code-less error (postgres-errors.ts), never by words in a message.
 */
function brokenBy(e: unknown): 'unsent' | 'lost' | 'timeout' | undefined {
  const state = serverState(e);
  if (state !== undefined) return /^(57P0[123]|08\d\d\d)$/.test(state) ? 'lost' : undefined;
  if (['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(String((e as { code?: unknown })?.code ?? ''))) return 'lost';
  // pg refuses a statement on a connection it already knows is broken ('unsent': nothing reached the server)
  const driver = driverFailure(e);
  return driver === 'unsent' || driver === 'lost' || driver === 'timeout' ? driver : undefined;
}

/** What a statement is, for deciding whether it may run again on a new connection. */
function statementKind(text: string): 'begin' | 'end' | 'commit' | 'read' | 'write' {
  const head = text.trimStart().slice(0, 24).toLowerCase();
  if (/^(begin|start transaction)\b/.test(head)) return 'begin';
  if (/^(commit|end)\b/.test(head)) return 'commit';
  if (/^(rollback|abort)\b/.test(head)) return 'end';
  // a plain select (or a with … select that holds no insert, update or delete) changes nothing; set_config and
  // advisory locks do, inside the transactions that use them
  if (/^select\b/.test(head) && !/set_config|pg_advisory|nextval/i.test(text)) return 'read';
  if (/^with\b/.test(head) && !/\b(insert|update|delete|merge)\b|set_config|pg_advisory|nextval/i.test(text))
    return 'read';
  return 'write';
}

/** A statement with pg's client-side timeout, which @types/pg does not declare. */
export const timed = (text: string, values: readonly unknown[] | undefined, timeoutMs: number): pg.QueryConfig =>
  (timeoutMs ? { text, values, query_timeout: timeoutMs } : { text, values }) as unknown as pg.QueryConfig;

type Mode = 'owner' | 'app';
const STATE = Symbol('compliance connection state');
// tenant null: never set on this connection (an empty tenant id is the store's own chain, and is set like any other)
type StatefulClient = pg.PoolClient & { [STATE]?: { mode: Mode; tenant: string | null } };

/**
 * A pooled connection in one mode. `app` connections run as the application role, which row-level security cannot
 * be bypassed by, with the current tenant (tenant-scope.ts) as the policy's key and the timeouts; `owner`
 * connections run as the connecting role without them, for migrations and administration (`db copy` of a large
 * store). A connection is switched only when its mode or tenant differs from what it had, in one round trip.
 * A connection found broken is discarded, and one more is tried where nothing can have been done twice.
 */
async function acquire(pool: pg.Pool, mode: Mode, t: Timeouts, again = true): Promise<StatefulClient> {
  let client: StatefulClient;
  try {
    client = (await pool.connect()) as StatefulClient;
  } catch (e) {
    // the pool's own timeout (no free connection, or a new one not ready, within the connect timeout) carries no code
    const message = (e as Error)?.message ?? '';
    if (/^timeout exceeded when trying to connect$|due to connection timeout/.test(message))
      throw new ConnectionLostError(message, e, 'timeout', false);
    throw e;
  }
  const state = (client[STATE] ??= { mode: 'owner', tenant: null });
  const tenant = mode === 'app' ? (currentTenant() ?? '') : '';
  const statements: string[] = [];
  if (state.mode !== mode)
    statements.push(
      mode === 'app'
        ? `set role ${APP_ROLE}; set statement_timeout = ${t.statementTimeout}; set lock_timeout = ${t.lockTimeout}`
        : 'reset role; reset statement_timeout; reset lock_timeout',
    );
  if (state.tenant !== tenant)
    statements.push(`select set_config('app.tenant', ${client.escapeLiteral(tenant)}, false)`);
  if (!statements.length) return client;
  try {
    await client.query(timed(statements.join('; '), undefined, t.queryTimeout));
  } catch (e) {
    client.release(e as Error);
    // these statements only set up the session: on a connection that was found broken, a new one may do it again
    const broken = brokenBy(e);
    if (again && (broken === 'unsent' || broken === 'lost')) return acquire(pool, mode, t, false);
    throw broken
      ? new ConnectionLostError((e as Error).message, e, broken === 'timeout' ? 'timeout' : 'lost', false)
      : e;
  }
  state.mode = mode;
  state.tenant = tenant;
  return client;
}

/**
 * What kysely's PostgresDialect holds as one checked-out connection. It knows whether a transaction is open, so that
 * a broken connection is told apart: a read outside a transaction (or a statement that never left) runs once more on
 * a new connection; inside a transaction the error says the database rolled it back (the caller may run the whole
 * transaction again); a COMMIT, or a write outside a transaction, that was sent and never answered may or may not
 * have been committed, and says so.
 */
class Checkout {
  private inTransaction = false;
  private broken: Error | undefined;
  private released = false;
  private retried = false;
  /**
   * A transaction that lifted its statement timeout (`set local statement_timeout = 0`: a bulk write, such as a revert
   * of an import of a million rows) is not cut off by the client's read timeout either, until it ends.
   */
  private unbounded = false;

  constructor(
    private client: StatefulClient,
    private readonly pool: pg.Pool,
    private readonly mode: Mode,
    private readonly timeouts: Timeouts,
  ) {}

  query(text: unknown, values?: readonly unknown[]): unknown {
    // a cursor (a streamed read) goes through as it is: its rows are read in pieces, so it cannot run again
    if (typeof text !== 'string') return this.client.query(text as pg.QueryConfig);
    return this.run(text, values);
  }

  private send(text: string, values?: readonly unknown[]) {
    const bounded = this.mode === 'app' && !this.unbounded;
    return this.client.query(timed(text, values, bounded ? this.timeouts.queryTimeout : 0));
  }

  private async run(text: string, values?: readonly unknown[]) {
    const kind = statementKind(text);
    // Nothing more goes over a connection found broken: after a statement that got no answer, pg would queue the next
    // one (the rollback, the unlock of the tenant's lock) behind it, each waiting out its own read timeout, so a
    // request took three timeouts. The connection is discarded on release, which rolls back what it had not committed.
    if (this.broken)
      throw new ConnectionLostError(
        this.broken.message,
        this.broken,
        brokenBy(this.broken) === 'timeout' ? 'timeout' : 'lost',
        false,
      );
    const wasInTransaction = this.inTransaction;
    if (this.inTransaction && /^\s*set local statement_timeout\s*=\s*0\b/i.test(text)) this.unbounded = true;
    try {
      const result = await this.send(text, values);
      if (kind === 'begin') this.inTransaction = true;
      if (kind === 'commit' || kind === 'end') this.inTransaction = this.unbounded = false;
      return result;
    } catch (e) {
      // a failed COMMIT ends the transaction too (PostgreSQL rolls it back); a failed statement inside one does not
      if (kind === 'commit' || kind === 'end') this.inTransaction = this.unbounded = false;
      const broken = brokenBy(e);
      if (!broken) throw e;
      this.broken = e as Error;
      this.inTransaction = this.unbounded = false;
      if (!wasInTransaction && !this.retried && (broken === 'unsent' || (broken === 'lost' && kind === 'read'))) {
        this.retried = true;
        await this.replace();
        try {
          return await this.send(text, values);
        } catch (again) {
          const b = brokenBy(again);
          if (!b) throw again;
          this.broken = again as Error;
          throw new ConnectionLostError((again as Error).message, again, b === 'timeout' ? 'timeout' : 'lost', false);
        }
      }
      const sent = broken !== 'unsent';
      const outcomeUnknown = sent && (kind === 'commit' || (!wasInTransaction && kind === 'write'));
      throw new ConnectionLostError((e as Error).message, e, broken === 'timeout' ? 'timeout' : 'lost', outcomeUnknown);
    }
  }

  /** Discards the broken connection and takes a new one in the same mode and tenant. */
  private async replace(): Promise<void> {
    this.released = true;
    this.client.release(this.broken);
    this.client = await acquire(this.pool, this.mode, this.timeouts);
    this.released = false;
    this.broken = undefined;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    // with the error, the pool closes the connection instead of handing it out again
    this.client.release(this.broken);
  }
}

/** The pool as kysely's PostgresDialect sees it, handing out connections in one mode. */
export function poolAs(pool: pg.Pool, mode: Mode, timeouts: Timeouts): PostgresPool {
  return {
    async connect() {
      return new Checkout(await acquire(pool, mode, timeouts), pool, mode, timeouts) as unknown as PostgresPoolClient;
    },
    // the store ends the pool once, in close()
    end: async () => undefined,
  };
}
