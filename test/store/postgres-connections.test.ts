import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionLostError } from '../../src/store/connection-lost.js';
import { poolAs } from '../../src/store/postgres/connections.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { writeTransaction } from '../../src/store/transaction.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';

const TIMEOUTS = { statementTimeout: 5000, lockTimeout: 3000, queryTimeout: 7000 };

/**
 * Connections whose statements answer as scripted: the moment a connection breaks (after COMMIT reached the server,
 * before its answer came back) cannot be timed on a real server, so these cases run on a stand-in for pg's pool.
 * `fail(text, n)` says how the n-th connection answers a statement, or undefined for success.
 */
function scriptedPool(fail: (text: string, n: number) => Error | undefined) {
  const released: Array<Error | undefined> = [];
  const sent: string[] = [];
  let made = 0;
  const pool = {
    async connect() {
      const n = made++;
      return {
        escapeLiteral: (s: string) => `'${s}'`,
        async query(q: { text: string }) {
          sent.push(`${n}: ${q.text}`);
          const e = fail(q.text, n);
          if (e) throw e;
          return { command: 'SELECT', rowCount: 0, rows: [] };
        },
        release: (e?: Error) => released.push(e),
      };
    },
  } as unknown as pg.Pool;
  return { app: poolAs(pool, 'app', TIMEOUTS), released, sent };
}

// as the server sends it: a DatabaseError with its SQLSTATE (the code decides, postgres-errors.ts)
const terminated = () => {
  const message = 'terminating connection due to administrator command';
  return Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code: '57P01' });
};
const notQueryable = () => new Error('Client has encountered a connection error and is not queryable');
const run = (c: { query: (t: string, v: unknown[]) => Promise<unknown> }, text: string) => c.query(text, []);

describe('PostgreSQL connections that break', () => {
  it('runs a read outside a transaction once more on a new connection, and discards the broken one', async () => {
    const p = scriptedPool((t, n) => (n === 0 && t.startsWith('select *') ? terminated() : undefined));
    const c = await p.app.connect();
    await run(c, 'select * from dsfa');
    c.release();
    expect(p.sent.filter((s) => s.endsWith('select * from dsfa'))).toEqual([
      '0: select * from dsfa',
      '1: select * from dsfa',
    ]);
    expect(p.released[0]).toMatchObject({ code: '57P01' });

    const cte = scriptedPool((t, n) => (n === 0 && t.startsWith('with') ? terminated() : undefined));
    const d = await cte.app.connect();
    await run(d, 'with x as (select updated_at from dsfa) select * from x');
    expect(cte.sent.filter((s) => s.includes('with x'))).toHaveLength(2);
    const writing = scriptedPool((t) => (t.startsWith('with') ? terminated() : undefined));
    const w = await writing.app.connect();
    const e = await run(w, 'with x as (delete from dsfa returning id) select * from x').catch((x: unknown) => x);
    expect(e).toMatchObject({ outcomeUnknown: true });
  });

  it('says a COMMIT whose answer was lost may or may not have been committed, and does not repeat it', async () => {
    const p = scriptedPool((t) => (t === 'commit' ? terminated() : undefined));
    const c = await p.app.connect();
    await run(c, 'begin');
    await run(c, 'insert into dsfa values (1)');
    const e = await run(c, 'commit').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectionLostError);
    expect(e).toMatchObject({ outcomeUnknown: true, safeToRepeat: false });
    expect(p.sent.filter((s) => s.endsWith('commit'))).toHaveLength(1);
  });

  it('treats a write outside a transaction whose answer was lost alike, but repeats one that never left', async () => {
    const lost = scriptedPool((t) => (t.startsWith('update') ? terminated() : undefined));
    const c = await lost.app.connect();
    expect(await run(c, 'update dsfa set title = 1').catch((x: unknown) => x)).toMatchObject({ outcomeUnknown: true });

    const unsent = scriptedPool((t, n) => (n === 0 && t.startsWith('update') ? notQueryable() : undefined));
    const d = await unsent.app.connect();
    await run(d, 'update dsfa set title = 1');
    expect(unsent.sent.filter((s) => s.includes('update'))).toHaveLength(2);
  });

  it('lets a transaction that broke before COMMIT run again, and never repeats after a timeout', async () => {
    const p = scriptedPool((t) => (t.startsWith('insert') ? terminated() : undefined));
    const c = await p.app.connect();
    await run(c, 'begin');
    expect(await run(c, 'insert into dsfa values (1)').catch((x: unknown) => x)).toMatchObject({
      outcomeUnknown: false,
      safeToRepeat: true,
    });
    const slow = scriptedPool((t) => (t.startsWith('select *') ? new Error('Query read timeout') : undefined));
    const s = await slow.app.connect();
    expect(await run(s, 'select * from dsfa').catch((x: unknown) => x)).toMatchObject({
      kind: 'timeout',
      safeToRepeat: false,
    });
    expect(slow.sent.filter((x) => x.endsWith('select * from dsfa'))).toHaveLength(1);
  });

  it('sends nothing more over a connection whose statement got no answer: the rollback and the unlock fail at once', async () => {
    const p = scriptedPool((t) => (t.startsWith('insert') ? new Error('Query read timeout') : undefined));
    const c = await p.app.connect();
    await run(c, 'select pg_advisory_lock(1)');
    await run(c, 'begin');
    expect(await run(c, 'insert into dsfa values (1)').catch((x: unknown) => x)).toMatchObject({ kind: 'timeout' });
    // pg would queue these behind the statement still waiting, each waiting out a read timeout of its own
    expect(await run(c, 'rollback').catch((x: unknown) => x)).toMatchObject({ kind: 'timeout', safeToRepeat: false });
    expect(await run(c, 'select pg_advisory_unlock(1)').catch((x: unknown) => x)).toBeInstanceOf(ConnectionLostError);
    expect(p.sent.filter((x) => /rollback|unlock/.test(x))).toEqual([]);
    c.release();
    expect(p.released[0]).toMatchObject({ message: 'Query read timeout' });
  });

  it('reports a pool that hands out no connection within the connect timeout as a timeout', async () => {
    const pool = {
      connect: () => Promise.reject(new Error('timeout exceeded when trying to connect')),
    } as unknown as pg.Pool;
    const e = await poolAs(pool, 'app', TIMEOUTS)
      .connect()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectionLostError);
    expect(e).toMatchObject({ kind: 'timeout', outcomeUnknown: false });
  });

  describe('on a real server', () => {
    let store: Store;
    afterAll(() => store?.close());

    it('runs a write transaction once more when its session was ended before COMMIT, committing it once', async () => {
      store = await openStore(await freshPostgresDatabase());
      await sql`create table attempt_log (n int)`.execute(store.admin);
      await sql`grant insert, select on attempt_log to compliance_app`.execute(store.admin);
      let attempts = 0;
      const result = await writeTransaction(store.db, async (trx) => {
        attempts++;
        await sql`insert into attempt_log values (${attempts})`.execute(trx);
        // an administrator ends this very session in the middle of the first attempt
        if (attempts === 1) {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await asAdmin('select pg_terminate_backend($1)', [rows[0]!.pid]);
          await new Promise((r) => setTimeout(r, 200));
          await sql`select 1`.execute(trx);
        }
        return attempts;
      });
      expect(result).toBe(2);
      const { rows } = await sql<{ n: number }>`select n from attempt_log`.execute(store.admin);
      expect(rows).toEqual([{ n: 2 }]);
    });
  });
});
