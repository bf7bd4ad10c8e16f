import type { Server } from 'node:http';
import { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import { VERSION } from '../../version.js';
import type { CliContext } from '../context.js';
import { note } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** A per-minute limit from a flag or the environment: a whole number, 0 switching it off. */
function perMinute(flag: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value.trim()))
    throw new DomainError('validation', `${flag} ${value}: expected requests per minute, a whole number (0: off)`, [
      { path: flag, message: 'a whole number, 0 for no limit' },
    ]);
  return Number(value);
}

/** A yes-or-no setting from the environment: 1 or true, 0 or false (or unset). */
function envSwitch(name: string, value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new DomainError('validation', `${name}=${value}: expected 1 or true, 0 or false`, [
    { path: name, message: '1 or true, 0 or false' },
  ]);
}

export interface ServeFlags {
  host: string;
  port: string;
  logFormat?: string;
  rateLimit?: string;
  rateLimitIp?: string;
  trustProxy?: boolean;
  allowPrivateWebhooks?: boolean;
  events: boolean;
  smtp?: string;
  smtpFrom?: string;
}

export function createServeCommand(ctx: CliContext): Command {
  return usesTenant(writes(new Command('serve')), 'none')
    .description('serve the store as the /sdk/v1 HTTP API')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8765')
    .option('--log-format <format>', 'text or json: one line per request (env COMPLIANCE_LOG_FORMAT; default text)')
    .option(
      '--rate-limit <n>',
      'requests per minute per key on the public routes, 0 for none (env COMPLIANCE_RATE_LIMIT; default 3000)',
    )
    .option(
      '--rate-limit-ip <n>',
      'requests per minute per client address on the public routes, 0 for none (env COMPLIANCE_RATE_LIMIT_IP; default 300)',
    )
    .option('--trust-proxy', 'behind a reverse proxy: the client address is the last entry of X-Forwarded-For')
    .option(
      '--allow-private-webhooks',
      'let admin keys add webhooks to loopback, link-local or private addresses (allow_private; env COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS=1)',
    )
    .option('--no-events', 'do not deliver webhooks and queued e-mail in the background')
    .option('--smtp <url>', 'SMTP server for queued e-mail (env COMPLIANCE_SMTP_URL)')
    .option('--smtp-from <address>', 'sender of the e-mail (env COMPLIANCE_SMTP_FROM)')
    .action((o: ServeFlags) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ServeFlags): Promise<void> {
  const { logFormat, rateLimits, allowPrivateWebhooks, smtp, keepDays, port } = await settings(ctx, o);
  const backend = await ctx.localBackend('serve');
  // media that cannot be reached are named before the server listens: it does not start without them
  const { mediaHealth } = await import('../../store/store.js');
  const media = await mediaHealth(backend.store);
  if (media.status !== 'ok')
    throw new DomainError('unavailable', `not serving: ${media.message}`, [{ path: 'media', message: media.location }]);
  const { createApiServer } = await import('../../server/server.js');
  const keys = await backend.keys();
  const host = listenHost(ctx, o.host, await keys.activeCount());
  const server = createApiServer({
    backend,
    keys,
    store: backend.store,
    version: VERSION,
    log: (l) => ctx.io.stderr.write(l + '\n'),
    logFormat,
    rateLimits: Object.fromEntries(Object.entries(rateLimits).filter(([, v]) => v !== undefined)),
    trustProxy: Boolean(o.trustProxy),
    operatorFields: allowPrivateWebhooks ? ['allow_private'] : [],
  });
  // the handlers exist before the address is announced, so a signal right after start-up still shuts down cleanly
  const signals = onSignals(ctx, server);
  let stopEvents = (): Promise<void> => Promise.resolve();
  try {
    await listen(server, port, host);
    const addr = server.address();
    const actual = typeof addr === 'object' && addr ? addr.port : port;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    // webhooks and queued e-mail go out in the background; replicas claim each delivery in the database
    const events = o.events
      ? (await import('../../backend/local/events/events-runner.js')).startEventLoop(backend.store, {
          clock: ctx.clock,
          env: ctx.env,
          smtp,
          keepDays,
          log: (l) => ctx.io.stderr.write(l + '\n'),
        })
      : undefined;
    stopEvents = () => events?.stop() ?? Promise.resolve();
    note(
      ctx,
      `compliance ${VERSION} serving ${backend.location} at http://${shownHost}:${actual}/sdk/v1 (Ctrl-C stops)`,
    );
    await signals.closed();
  } finally {
    await stopEvents();
    signals.off();
  }
}

/**
 * SIGINT and SIGTERM close the server: idle connections at once, the others after their request (at most 5 s). A
 * signal before `closed` is asked for is kept, and closes the server then.
 */
function onSignals(ctx: CliContext, server: Server) {
  let stopping: ((signal: string) => void) | undefined;
  let pending: string | undefined;
  const onInt = () => (stopping ? stopping('SIGINT') : (pending = 'SIGINT'));
  const onTerm = () => (stopping ? stopping('SIGTERM') : (pending = 'SIGTERM'));
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    /** Resolves once a signal has closed the server. */
    closed: () =>
      new Promise<void>((done) => {
        stopping = (signal: string) => {
          stopping = () => undefined;
          note(ctx, `${signal}: shutting down`);
          server.close(() => done());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 5000).unref();
        };
        if (pending) stopping(pending);
      }),
    off: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

/** The flags and the environment, each checked before the store is opened: a wrong one is a usage error. */
async function settings(ctx: CliContext, o: ServeFlags) {
  const logFormat = o.logFormat ?? (ctx.env.COMPLIANCE_LOG_FORMAT || 'text');
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new DomainError('validation', `--log-format ${logFormat}: expected text or json`, [
      { path: '--log-format', message: 'text or json' },
    ]);
  const rateLimits = {
    perKey: perMinute('--rate-limit', o.rateLimit ?? ctx.env.COMPLIANCE_RATE_LIMIT),
    perIp: perMinute('--rate-limit-ip', o.rateLimitIp ?? ctx.env.COMPLIANCE_RATE_LIMIT_IP),
  };
  const allowPrivateWebhooks =
    o.allowPrivateWebhooks || envSwitch('COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS', ctx.env.COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS);
  const smtp = (await import('./smtp-flags.js')).checkSmtpFlags(ctx, o);
  // the background loop's retention, checked before the server listens
  const keepDays = o.events
    ? (await import('../../backend/local/events/events-runner.js')).keepDaysFromEnv(ctx.env)
    : undefined;
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new DomainError('validation', `--port ${o.port}: expected a whole number from 0 to 65535`, [
      { path: 'port', message: 'expected 0 to 65535' },
    ]);
  return { logFormat: logFormat as 'text' | 'json', rateLimits, allowPrivateWebhooks, smtp, keepDays, port };
}

/** Without an API key the server accepts every request, so it listens on the loopback address only. */
function listenHost(ctx: CliContext, host: string, activeKeys: number): string {
  if (activeKeys > 0) return host;
  if (!LOOPBACK.has(host))
    note(
      ctx,
      `no API keys configured: ignoring --host ${host} and listening on 127.0.0.1 only (create one with \`compliance keys create\`)`,
    );
  else note(ctx, 'no API keys configured: listening on 127.0.0.1 only, every request is accepted');
  return '127.0.0.1';
}

/** Listens on the address, or fails naming it (a port in use, an address this machine does not have). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolveListen, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new DomainError(
          'unavailable',
          e.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use`
            : `cannot listen on ${host}:${port}: ${e.message}`,
        ),
      ),
    );
    server.listen(port, host, () => resolveListen());
  });
}
