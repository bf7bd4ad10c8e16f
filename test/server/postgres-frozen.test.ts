import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { writeTransaction } from '../../src/store/transaction.js';
import { launchPostgres, type PostgresProcess } from '../support/postgres-server.js';
import { exited, serve } from '../support/serve-process.js';

type Answer = { status: number; body: { code?: string; error?: string; id?: string }; ms: number };

async function timed(url: string, method = 'GET', body?: unknown): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    // far beyond any bound below: a request that hangs fails the test instead of the test hanging
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'], ms: Date.now() - started };
}

/**
 * A PostgreSQL server of this test's own, frozen with SIGSTOP (the postmaster and every backend: connections stay
 * open, nothing answers) and locked by another session: requests answer 503 within seconds instead of waiting for
 * the database, and the server serves again by itself once the database answers.
 */
describe('serve while PostgreSQL stops answering', () => {
  let postgres: PostgresProcess;
  beforeAll(async () => {
    postgres = await launchPostgres();
  }, 60_000);
  afterAll(() => postgres?.remove());

  it('answers 503 within seconds while the server is frozen, and recovers when it answers again', async () => {
    // the timeouts from the environment: statements 2 s, so the client gives up after 4 s
    const s = await serve(['--db', postgres.url], { COMPLIANCE_PG_STATEMENT_TIMEOUT: '2000' });
    const api = `${s.url}/sdk/v1`;
    try {
      const before = await timed(`${api}/dsfa`, 'POST', { title: 'vor dem Einfrieren' });
      expect(before.status).toBe(201);
      // every pooled connection in use once, so the freeze catches open connections as well as new ones
      await Promise.all(Array.from({ length: 10 }, () => timed(`${api}/dsfa/stats`)));

      postgres.freeze();
      const during = await Promise.all([
        timed(`${api}/dsfa`, 'POST', { title: 'während des Einfrierens' }),
        timed(`${api}/dsfa/${before.body.id}`, 'PUT', { description: 'eingefroren' }),
        ...Array.from({ length: 12 }, (_, i) => timed(`${api}/dsfa${i % 2 ? '/stats' : ''}`)),
        timed(`${api}/health`),
      ]);
      for (const r of during) {
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({ code: 'unavailable', error: expect.stringMatching(/PostgreSQL at/) });
        // seconds, not the 45 s a request once waited: query timeout 4 s, connect timeout 5 s, a loaded machine
        expect(r.ms).toBeLessThan(15_000);
      }
      expect(during.at(-1)!.ms).toBeLessThan(5_000); // health answers within its own 2 s
      expect(s.proc.exitCode).toBeNull();

      postgres.thaw();
      let back = await timed(`${api}/dsfa?limit=500`);
      for (let i = 0; i < 80 && back.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 250));
        back = await timed(`${api}/dsfa?limit=500`);
      }
      expect(back.status).toBe(200);
      expect((await timed(`${api}/dsfa`, 'POST', { title: 'nach dem Auftauen' })).status).toBe(201);
      // the write that was refused is either there whole or not at all, never half-written
      const listed = back.body as unknown as Array<{ id: string; title: string }>;
      const audit = (await timed(`${api}/dsfa/audit-log?limit=500`)).body as unknown as Array<{
        dsfa_id: string;
        action: string;
      }>;
      for (const d of listed)
        expect(
          audit.some((e) => e.dsfa_id === d.id && e.action === 'CREATE'),
          d.title,
        ).toBe(true);
      expect(s.stderr()).not.toMatch(/internal error/);
    } finally {
      postgres.thaw();
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  }, 120_000);

  it('holds the bound for every request of a loaded server while it is frozen, and says truly what was saved', async () => {
    // statements 2 s, so the client gives up on a statement after 4 s (Q) and on a new connection after 5 s (C): no
    // request may take much more than C + Q, whatever it was doing when the freeze came (a statement in the middle
    // of a transaction, a COMMIT, waiting for the tenant's turn behind a write that hangs). The freeze (13 s) is
    // longer than three statement timeouts, the most a request once waited (statement, rollback, unlock).
    const s = await serve(['--db', postgres.url], { COMPLIANCE_PG_STATEMENT_TIMEOUT: '2000' });
    const api = `${s.url}/sdk/v1`;
    const BOUND_MS = 4_000 + 5_000 + 1_500;
    type Done = Answer & { kind: string; title?: string; started: number };
    const done: Done[] = [];
    const call = async (kind: string, path: string, method = 'GET', body?: unknown, title?: string) => {
      const started = Date.now();
      const r = await timed(`${api}${path}`, method, body);
      done.push({ ...r, kind, title, started });
      return r;
    };
    let stop = false;
    // twelve clients, four on each of three tenants: writers of one tenant queue for its turn
    const client = async (i: number) => {
      const tenant = `frozen${i % 3}`;
      for (let n = 0; !stop; n++) {
        const title = `c${i}-${n}`;
        const created = await call('create', `/dsfa?tenant_id=${tenant}`, 'POST', { title }, title);
        if (created.status === 201)
          await call('update', `/dsfa/${created.body.id}?tenant_id=${tenant}`, 'PUT', { description: title });
        await call('list', `/dsfa${n % 2 ? '/stats' : ''}?tenant_id=${tenant}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      const clients = Array.from({ length: 12 }, (_, i) => client(i));
      // under way: every client past its first round
      while (done.length < 72) await new Promise((r) => setTimeout(r, 50));
      const frozenAt = Date.now();
      postgres.freeze();
      await new Promise((r) => setTimeout(r, 13_000));
      postgres.thaw();
      await new Promise((r) => setTimeout(r, 2_000));
      stop = true;
      await Promise.all(clients);

      const during = done.filter((d) => d.started + d.ms > frozenAt);
      const slowest = Math.max(...done.map((d) => d.ms));
      const unknown = done.filter((d) => d.status === 503 && /may or may not/.test(d.body.error ?? ''));
      expect(done.map((d) => d.status).filter((st) => ![200, 201, 503].includes(st))).toEqual([]);
      expect(
        done.filter((d) => d.ms > BOUND_MS).map((d) => `${d.kind} ${d.title ?? ''} ${d.ms} ms ${d.status}`),
      ).toEqual([]);
      expect(during.filter((d) => d.status === 503).length).toBeGreaterThan(0);

      // what was saved: every created assessment answered 201 is there; one refused without "may or may not" is not
      const stored = new Set<string>();
      for (const tenant of ['frozen0', 'frozen1', 'frozen2']) {
        const list = await timed(`${api}/dsfa?tenant_id=${tenant}&limit=500`);
        expect(list.status).toBe(200);
        for (const d of list.body as unknown as Array<{ title: string }>) stored.add(d.title);
      }
      const creates = done.filter((d) => d.kind === 'create');
      expect(creates.filter((d) => d.status === 201 && !stored.has(d.title!)).map((d) => d.title)).toEqual([]);
      const refused = creates.filter((d) => d.status === 503 && !unknown.includes(d));
      expect(refused.filter((d) => stored.has(d.title!)).map((d) => `${d.title}: ${d.body.error}`)).toEqual([]);
      console.log(
        `frozen 13 s: ${done.length} requests, ${during.length} ended during or after the freeze, ` +
          `${done.filter((d) => d.status === 503).length} answered 503, slowest ${slowest} ms; ` +
          `${unknown.length} said "may or may not have been saved", ` +
          `${unknown.filter((d) => d.title && stored.has(d.title)).length} of them were`,
      );
      expect(s.stderr()).not.toMatch(/internal error/);
    } finally {
      stop = true;
      postgres.thaw();
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  }, 120_000);

  it('answers 503 within the lock timeout while another session holds a lock it needs', async () => {
    const url = `${postgres.url}?lock_timeout=1000`;
    const s = await serve(['--db', url]);
    const api = `${s.url}/sdk/v1`;
    const other = new pg.Client({ connectionString: postgres.url });
    await other.connect();
    try {
      expect((await timed(`${api}/dsfa`, 'POST', { title: 'gesperrt' })).status).toBe(201);
      await other.query('begin');
      await other.query('lock table dsfa in access exclusive mode');
      const r = await timed(`${api}/dsfa`);
      expect(r.status).toBe(503);
      expect(r.body.error).toMatch(/lock_timeout/);
      expect(r.ms).toBeLessThan(10_000);
      await other.query('rollback');
      expect((await timed(`${api}/dsfa`)).status).toBe(200);
    } finally {
      await other.end().catch(() => undefined);
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  }, 60_000);

  it('ends a statement after the statement timeout with a clear error, and takes the timeouts from the URL', async () => {
    const store = await openStore(`${postgres.url}?statement_timeout=500&query_timeout=5000`);
    try {
      const started = Date.now();
      const e = await sql`select pg_sleep(10)`.execute(store.db).then(
        () => undefined,
        (err: unknown) => store.mapError(err) as Error & { code: string },
      );
      expect(e).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/statement_timeout/) });
      expect(Date.now() - started).toBeLessThan(5_000);
      // administration (migrations, db copy) runs without the request timeouts
      await sql`select pg_sleep(0.8)`.execute(store.admin);
      await expect(openStore(`${postgres.url}?statement_timeout=soon`)).rejects.toThrow(
        /invalid statement_timeout in the database URL: "soon"/,
      );
    } finally {
      await store.close();
    }
  });

  it('lets a bulk transaction that lifts its statement timeout run past the client read timeout too', async () => {
    const store = await openStore(`${postgres.url}?statement_timeout=300&query_timeout=600`);
    try {
      const sleep = (bulk: boolean) =>
        writeTransaction(store.db, async (trx) => {
          if (bulk) await sql`set local statement_timeout = 0`.execute(trx);
          await sql`select pg_sleep(1)`.execute(trx);
        });
      await expect(sleep(false)).rejects.toThrow();
      await sleep(true);
      // the next transaction on the pool has both timeouts again
      await expect(sleep(false)).rejects.toThrow();
    } finally {
      await store.close();
    }
  });
});
