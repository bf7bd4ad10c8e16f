import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { Backend } from '../../src/backend/backend.js';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { ApiKeyStore } from '../../src/backend/local/api-keys.js';
import { uuidv7Source } from '../../src/backend/local/ids.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Clock } from '../../src/domain/clock.js';
import { main } from '../../src/main.js';
import { createApiServer } from '../../src/server/server.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp folder, removed after the test file. */
export function tmp(prefix = 'compliance-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export const tmpDb = (): string => join(tmp(), 'store.db');

/** A port on 127.0.0.1 that nothing listens on (taken and released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A real server on 127.0.0.1 over a local store, with its URL. */
export async function startServer(
  local: LocalBackend,
  opts: { keys?: boolean } = {},
): Promise<{ url: string; server: Server; logs: string[]; close(): Promise<void> }> {
  const logs: string[] = [];
  const keys =
    opts.keys === false ? undefined : new ApiKeyStore(local.store.db, { now: () => new Date() }, uuidv7Source());
  const server = createApiServer({ backend: local, keys, log: (l) => logs.push(l) });
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
export function useServer(): { url: string; logs: string[]; local: LocalBackend } {
  const state = {} as { url: string; logs: string[]; local: LocalBackend; close?: () => Promise<void> };
  beforeAll(async () => {
    state.local = await createLocalBackend(tmpDb());
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

export interface BackendUnderTest {
  name: 'local' | 'http';
  backend: Backend;
  local: LocalBackend;
  close(): Promise<void>;
}

/** Every backend the contract suite runs on; `BACKENDS=local` or `BACKENDS=http` narrows it. */
export const BACKEND_NAMES = (process.env.BACKENDS ?? 'local,http').split(',').filter(Boolean) as Array<
  'local' | 'http'
>;

export async function openBackend(name: 'local' | 'http', opts: { clock?: Clock } = {}): Promise<BackendUnderTest> {
  const local = await createLocalBackend(tmpDb(), { clock: opts.clock });
  if (name === 'local') return { name, backend: local, local, close: () => local.close() };
  const srv = await startServer(local);
  const http = createHttpBackend({ url: srv.url });
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

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with memory streams (not a TTY) and returns what it printed. */
export async function cli(
  args: string[],
  opts: { env?: Record<string, string | undefined>; stdin?: string; clock?: Clock } = {},
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
      stdoutIsTTY: false,
      stderrIsTTY: false,
      color: false,
    },
    env: { HOME: tmp(), COMPLIANCE_USER: 'tester', ...opts.env },
    clock: opts.clock,
  });
  return { code, stdout: out, stderr: err };
}
