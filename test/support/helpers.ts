import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Backend } from '../../src/backend/backend.js';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend, type LocalOptions } from '../../src/backend/local/local-backend.js';
import { copiedPostgresDatabase, freshPostgresDatabase } from './postgres.js';
import type { Clock } from '../../src/domain/clock.js';
import type { DomainError } from '../../src/domain/errors.js';
import type { ByteRange, FilePayload } from '../../src/contract/operation.js';
import { main } from '../../src/main.js';
import { checkedTransport, checkedLocal } from './openapi-check.js';
import { atFileEnd } from './file-end.js';
import { createApiServer, type ApiServerOptions } from '../../src/server/server.js';

/** A fresh temp folder, removed after the test file. */
export function tmp(prefix = 'compliance-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  atFileEnd(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export const tmpDb = (): string => join(tmp(), 'store.db');

export { freePort } from './ports.js';

/** The error a call fails with; a call that succeeds fails the test. */
/** The bytes of a file an operation answered (those of `range`, when given), read to the end. */
export async function bytesOf(file: FilePayload, range?: ByteRange): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of await file.open(range)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

export async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected the call to fail');
}

/** A real server on 127.0.0.1 over a local store, with its URL. */
export async function startServer(
  local: LocalBackend,
  opts: { keys?: boolean; server?: Partial<ApiServerOptions> } = {},
): Promise<{ url: string; server: Server; logs: string[]; close(): Promise<void> }> {
  const logs: string[] = [];
  const keys = opts.keys === false ? undefined : await local.keys();
  const server = createApiServer({
    backend: local,
    keys,
    store: local.store,
    log: (l) => logs.push(l),
    ...opts.server,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    logs,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A real server over a fresh local store for the tests of one describe block: started before them, stopped after.
 * Read `url`, `logs` and `local` inside the tests.
 */
export function useServer(opts: LocalOptions = {}): { url: string; logs: string[]; local: LocalBackend } {
  const state = {} as { url: string; logs: string[]; local: LocalBackend; close?: () => Promise<void> };
  beforeAll(async () => {
    state.local = await createLocalBackend(await freshStore('sqlite'), opts);
    const srv = await startServer(state.local);
    state.url = srv.url;
    state.logs = srv.logs;
    state.close = async () => {
      await srv.close();
      await state.local.close();
    };
  });
  afterAll(async () => {
    await state.close?.();
  });
  return state;
}

/**
 * The faces × engines the contract suite runs on: the domain core in process (`sqlite`, `postgres`) and the same
 * through `compliance serve` and the HTTP client (`sqlite-http`, `postgres-http`).
 */
export type BackendName = 'sqlite' | 'sqlite-http' | 'postgres' | 'postgres-http';
export const ALL_BACKENDS: BackendName[] = ['sqlite', 'sqlite-http', 'postgres', 'postgres-http'];

/** `BACKENDS=sqlite,postgres-http` narrows the suite; `ENGINES=sqlite` or `FACES=http` narrow one dimension. */
export const BACKEND_NAMES: BackendName[] = ALL_BACKENDS.filter((n) => {
  const listed = process.env.BACKENDS?.split(',').filter(Boolean);
  if (listed && !listed.includes(n)) return false;
  const engines = process.env.ENGINES?.split(',').filter(Boolean);
  if (engines && !engines.includes(engineOf(n))) return false;
  const faces = process.env.FACES?.split(',').filter(Boolean);
  return !faces || faces.includes(n.endsWith('-http') ? 'http' : 'local');
});

// declarations, not constants: BACKEND_NAMES above calls them while the module is still being evaluated
export function engineOf(name: BackendName): 'sqlite' | 'postgres' {
  return name.startsWith('postgres') ? 'postgres' : 'sqlite';
}
export function overHttp(name: BackendName): boolean {
  return name.endsWith('-http');
}

/** The engines the backends under test run on (`ENGINES=`, `BACKENDS=` and `FACES=` narrow them as above). */
export const ENGINE_NAMES: Array<'sqlite' | 'postgres'> = [...new Set(BACKEND_NAMES.map(engineOf))];

/**
 * A fresh store with no rows for one engine: a temp SQLite file, or a new database on the test run's PostgreSQL. Both
 * are copies of the run's migrated templates (test/support/store-templates.ts) where the global setup made them, so
 * the schema is in place; else empty, and migrated when first opened. Tests of migrations start from
 * `freshPostgresDatabase()` or `tmpDb()`.
 */
export async function freshStore(engine: 'sqlite' | 'postgres'): Promise<string> {
  const templates = inject('storeTemplates');
  if (engine === 'postgres') {
    return templates ? copiedPostgresDatabase(templates.postgres) : freshPostgresDatabase();
  }
  const target = tmpDb();
  if (templates) copyFileSync(templates.sqlite, target);
  return target;
}

export interface BackendUnderTest {
  name: BackendName;
  backend: Backend;
  local: LocalBackend;
  close(): Promise<void>;
}

export async function openBackend(
  name: BackendName,
  opts: Omit<LocalOptions, 'onUpgrade'> = {},
): Promise<BackendUnderTest> {
  const local = await createLocalBackend(await freshStore(engineOf(name)), opts);
  if (!overHttp(name)) return { name, backend: checkedLocal(local), local, close: () => local.close() };
  // the suite's webhook receivers listen on 127.0.0.1: the server runs as an operator who allows that (operatorFields)
  const srv = await startServer(local, { server: { operatorFields: ['allow_private'] } });
  // every answer the contract suite receives over HTTP is checked against the served OpenAPI document
  const http = createHttpBackend({ url: srv.url, transport: checkedTransport(srv.url) });
  return {
    name,
    backend: http,
    local,
    close: async () => {
      await srv.close();
      await local.close();
    },
  };
}

/**
 * The backend `name` for the tests of a describe block: opened fresh in `beforeAll` (before the block's own hooks)
 * and closed in `afterAll`. Its fields are read when a hook or test runs. `opts` as a function is called when the
 * backend opens, for options known only then (the URL of a fake server an earlier `beforeAll` started).
 */
export function useBackend(
  name: BackendName,
  opts: Omit<LocalOptions, 'onUpgrade'> | (() => Omit<LocalOptions, 'onUpgrade'>) = {},
): BackendUnderTest {
  let opened: BackendUnderTest | undefined;
  beforeAll(async () => {
    opened = await openBackend(name, typeof opts === 'function' ? opts() : opts);
  });
  afterAll(async () => {
    await opened?.close();
  });
  const get = (): BackendUnderTest => {
    if (!opened) throw new Error(`the ${name} backend is opened in beforeAll: use it inside a hook or a test`);
    return opened;
  };
  return {
    name,
    get backend() {
      return get().backend;
    },
    get local() {
      return get().local;
    },
    close: () => get().close(),
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process with memory streams and returns what it printed. Not a TTY, unless `tty` makes stdout one
 * (tables instead of tab-separated lines; stdin stays a pipe, so nothing prompts).
 */
export async function cli(
  args: string[],
  opts: { env?: Record<string, string | undefined>; stdin?: string; clock?: Clock; tty?: boolean } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const code = await main(['node', 'compliance', ...args], {
    io: {
      stdin: Readable.from([opts.stdin ?? '']),
      stdout,
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: opts.tty === true,
      stderrIsTTY: opts.tty === true,
      color: false,
    },
    env: { HOME: tmp(), COMPLIANCE_USER: 'tester', ...opts.env },
    clock: opts.clock,
  });
  return { code, stdout: out, stderr: err };
}
