import type { Command } from 'commander';
import type { Backend } from '../backend/backend.js';
import type { LocalBackend } from '../backend/local/local-backend.js';
import type { Config, GlobalFlags } from '../config.js';
import type { OpenOptions } from '../store/store.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import type { StoreAccess, TenantUse } from './store-access.js';

/** The terminal a command talks to; tests hand in memory streams. */
export interface IO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour only on a TTY and without NO_COLOR. */
  color: boolean;
}

/** Everything a command needs, handed in rather than imported, so tests run commands on temp stores. */
export interface CliContext {
  io: IO;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /**
   * Resolves flags + environment into the configuration; called once the command line is parsed, with the store
   * access the command declares (a command that only reads never creates a store) and how it uses its tenant (one
   * that needs a known tenant refuses a tenant the store has never seen as it opens the store).
   */
  configure(flags: GlobalFlags, access?: StoreAccess, tenant?: TenantUse): Promise<void>;
  config(): Config;
  /** The local store or the remote server, opened on first use, its tenant checked as the command declares. */
  backend(): Promise<Backend>;
  /**
   * The embedded store itself, for commands that only make sense locally (db, keys, serve); `onMissing` is told
   * when the store file did not exist.
   */
  localBackend(command: string, opts?: { onMissing?: OpenOptions['onMissing'] }): Promise<LocalBackend>;
  /** The command being run, once the command line is parsed: errors name its flags. */
  command?: Command;
  /** Exit code a command wants without failing (6 when a check found problems). */
  exitCode: number;
  close(): Promise<void>;
}

export function createContext(io: IO, env: NodeJS.ProcessEnv, clock: Clock = systemClock): CliContext {
  let config: Config | undefined;
  let access: StoreAccess = 'read';
  let tenantUse: TenantUse = 'known';
  let opened: Promise<Backend> | undefined;
  let onMissing: OpenOptions['onMissing'];

  /** The local store or the remote server, as the configuration names it. */
  const open = () => openBackend(ctx.config(), { io, env, clock, access, onMissing: (o, l) => onMissing?.(o, l) });

  const ctx: CliContext = {
    io,
    env,
    clock,
    exitCode: 0,
    async configure(flags, declared = 'read', tenant = 'known') {
      const { resolveConfig } = await import('../config.js');
      config = resolveConfig(flags, env);
      access = declared;
      tenantUse = tenant;
    },
    config() {
      if (!config) throw new DomainError('internal', 'configuration read before the command line was parsed');
      return config;
    },
    backend() {
      opened ??= (async () => {
        const backend = await open();
        const known = await import('./known-tenant.js');
        if (!known.mustBeKnown(ctx.config(), tenantUse)) return backend;
        try {
          await known.requireKnownTenant(backend, ctx.config());
        } catch (e) {
          await backend.close();
          throw e;
        }
        return backend;
      })();
      return opened;
    },
    async localBackend(command, opts = {}) {
      onMissing = opts.onMissing;
      if (ctx.config().remote)
        throw new DomainError(
          'bad_request',
          `\`compliance ${command}\` works on the embedded store only; drop --remote / COMPLIANCE_REMOTE`,
        );
      return (await ctx.backend()) as LocalBackend;
    },
    async close() {
      if (opened) {
        const b = await opened.catch(() => undefined);
        opened = undefined;
        await b?.close();
      }
    },
  };
  return ctx;
}

/**
 * The remote server, or the local store: a read creates nothing (a store named by --db or COMPLIANCE_DB must exist;
 * the default store of a first run, and a dry run, read as empty until a command that writes creates it).
 */
async function openBackend(
  c: Config,
  o: { io: IO; env: NodeJS.ProcessEnv; clock: Clock; access: StoreAccess; onMissing: OpenOptions['onMissing'] },
): Promise<Backend> {
  const { io, env } = o;
  if (c.remote) {
    const { createHttpBackend } = await import('../backend/http/http-backend.js');
    return createHttpBackend({ url: c.remote, apiKey: c.apiKey });
  }
  const { createLocalBackend } = await import('../backend/local/local-backend.js');
  const { redactUrl } = await import('../store/store.js');
  return createLocalBackend(c.db, {
    clock: o.clock,
    ifMissing: o.access === 'write' ? 'create' : o.access === 'dry-run' || c.dbIsDefault ? 'empty' : 'refuse',
    onMissing: (outcome, location) => {
      o.onMissing?.(outcome, location);
      if (outcome === 'empty')
        io.stderr.write(
          `no store at ${location} yet: it reads as empty and nothing is created (a command that writes creates it, as does \`compliance db init\`)\n`,
        );
    },
    llm: { host: env.OLLAMA_HOST, model: env.COMPLIANCE_LLM_MODEL },
    media: c.media,
    importBatchRows: env.COMPLIANCE_IMPORT_BATCH_ROWS,
    bundleMaxMb: env.COMPLIANCE_BUNDLE_MAX_MB,
    verifyThreadRows: env.COMPLIANCE_VERIFY_THREAD_ROWS,
    timeouts: {
      statement_timeout: env.COMPLIANCE_PG_STATEMENT_TIMEOUT,
      lock_timeout: env.COMPLIANCE_PG_LOCK_TIMEOUT,
      query_timeout: env.COMPLIANCE_PG_QUERY_TIMEOUT,
    },
    // a note on stderr, so a command that rebuilds tables of a large store does not look stuck
    onUpgrade: (from, to, names) =>
      io.stderr.write(
        `upgrading the store ${redactUrl(c.db)} from schema ${from} to ${to} (${names.join(', ')}); a large store takes a moment\n`,
      ),
  });
}
