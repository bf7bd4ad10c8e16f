import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { launchPostgres, type PostgresProcess } from '../support/postgres-server.js';
import { exited, serve } from '../support/serve-process.js';

type Served = Awaited<ReturnType<typeof serve>>;

/**
 * Clients that keep creating, updating and reading assessments on a `serve` until `stop` resolves, as an operator's
 * load would. Every answer is tallied by status (0: no HTTP answer at all); the ids of acknowledged creations are
 * kept, to be read back afterwards.
 */
async function load(url: string, clients: number, stop: Promise<void>) {
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const created: string[] = [];
  const unavailable: string[] = [];
  let done = false;
  void stop.then(() => (done = true));
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-user-id': 'load' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    }).catch((e: Error) => ({ status: 0, text: async () => e.message }) as const);
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500 && res.status !== 503)
      failures.push(`${res.status} ${method} ${path}: ${text.slice(0, 200)}`);
    if (res.status === 0) failures.push(`no answer ${method} ${path}: ${text}`);
    if (res.status === 503 && unavailable.length < 5) unavailable.push(`${method} ${path}: ${text.slice(0, 300)}`);
    return { status: res.status, body: res.status >= 200 && res.status < 300 ? JSON.parse(text) : undefined };
  };
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; !done; i++) {
        const made = await call('POST', '/dsfa', { title: `Last ${c}-${i}` });
        if (made.status !== 201) continue;
        created.push(made.body.id);
        await call('PUT', `/dsfa/${made.body.id}`, { description: `Fassung ${i}` });
        await call('GET', `/dsfa/${made.body.id}`);
        await call('GET', '/dsfa?limit=20');
      }
    }),
  );
  return { statuses, failures, created, unavailable };
}

/** Every page of a list. */
async function all<T>(url: string, path: string, param: 'skip' | 'offset'): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = (await (await fetch(`${url}/sdk/v1${path}&limit=500&${param}=${out.length}`)).json()) as T[];
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** After the storm: every acknowledged creation is there, and every stored assessment has its CREATE audit entry. */
async function consistent(url: string, created: string[]) {
  const ids = new Set((await all<{ id: string }>(url, '/dsfa?', 'skip')).map((d) => d.id));
  for (const id of created) expect(ids.has(id), `acknowledged ${id}`).toBe(true);
  const audit = await all<{ dsfa_id: string; action: string }>(url, '/dsfa/audit-log?', 'offset');
  const withCreate = new Set(audit.filter((e) => e.action === 'CREATE').map((e) => e.dsfa_id));
  for (const id of ids) expect(withCreate.has(id), `CREATE audit of ${id}`).toBe(true);
}

const figures = (m: Map<number, number>) =>
  [...m.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');

describe('serve on PostgreSQL when its connections die', () => {
  const servers: Served[] = [];
  afterAll(async () => {
    for (const s of servers) {
      if (s.proc.exitCode !== null || s.proc.signalCode !== null) continue;
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  });

  it('answers no 500 while an administrator keeps ending its sessions (pg_terminate_backend)', async () => {
    const db = await freshPostgresDatabase();
    const s = await serve(['--db', db]);
    servers.push(s);
    const name = new URL(db).pathname.slice(1);
    const admin = new pg.Client({ connectionString: db });
    await admin.connect();
    let killed = 0;
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = load(s.url, 8, stopped);
    try {
      for (let round = 0; round < 15; round++) {
        await new Promise((r) => setTimeout(r, 300));
        const { rows } = await admin.query<{ n: number }>(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = $1 and application_name = 'compliance' and pid <> pg_backend_pid()`,
          [name],
        );
        killed += rows[0]!.n;
      }
    } finally {
      stop();
      await admin.end();
    }
    const { statuses, failures, created, unavailable } = await running;
    process.stdout.write(`pg_terminate_backend: ${killed} sessions ended; answers ${figures(statuses)}\n`);
    if (process.env.DEBUG_FAULTS) process.stdout.write(unavailable.join('\n') + '\n');
    expect(s.proc.exitCode, s.stderr().slice(-3000)).toBeNull();
    expect(failures.slice(0, 10)).toEqual([]);
    expect(killed).toBeGreaterThan(10);
    // a broken connection is replaced and the work repeated where that is safe: most requests succeed
    const ok = (statuses.get(200) ?? 0) + (statuses.get(201) ?? 0);
    expect(ok).toBeGreaterThan(5 * (statuses.get(503) ?? 0));
    await consistent(s.url, created);
  }, 90_000);

  describe('a server restarted under load (pg_ctl restart -m fast)', () => {
    let postgres: PostgresProcess;
    beforeAll(async () => {
      postgres = await launchPostgres();
    }, 60_000);
    afterAll(() => postgres?.remove());

    it('answers every request with success or 503, never 500, and loses no acknowledged write', async () => {
      const s = await serve(['--db', postgres.url]);
      servers.push(s);
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const running = load(s.url, 8, stopped);
      try {
        for (let round = 0; round < 2; round++) {
          await new Promise((r) => setTimeout(r, 1500));
          await postgres.restart();
        }
        await new Promise((r) => setTimeout(r, 1500));
      } finally {
        stop();
      }
      const { statuses, failures, created } = await running;
      process.stdout.write(`pg_ctl restart: answers ${figures(statuses)}\n`);
      expect(s.proc.exitCode, s.stderr().slice(-3000)).toBeNull();
      expect(failures.slice(0, 10)).toEqual([]);
      expect(created.length).toBeGreaterThan(10);
      // and it serves again without a restart of its own
      expect((await fetch(`${s.url}/sdk/v1/health`)).status).toBe(200);
      await consistent(s.url, created);
    }, 120_000);
  });
});
