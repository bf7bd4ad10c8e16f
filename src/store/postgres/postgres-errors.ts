import { DomainError } from '../../domain/errors.js';
import { ConnectionLostError } from '../connection-lost.js';

/** SQLSTATE classes and codes that mean "the database cannot be used right now", with what to tell the user. */
const CONNECTION_CODES: Record<string, string> = {
  '28P01': 'password authentication failed',
  '28000': 'the role is not allowed to connect',
  '3D000': 'the database does not exist',
  '57P01': 'the server is shutting down',
  '57P02': 'the server is shutting down',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections',
  '08000': 'connection failure',
  '08001': 'cannot establish a connection',
  '08003': 'the connection is gone',
  '08004': 'the server refused the connection',
  '08006': 'the connection failed',
};

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name cannot be resolved right now',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
};

const isPgError = (e: unknown): e is { code?: string; message: string; severity?: string } =>
  typeof e === 'object' && e !== null && 'message' in e && typeof (e as { code?: unknown }).code === 'string';

/**
 * Translates PostgreSQL's failures into one line a person can act on. Trouble reaching or using the server is
 * `unavailable` (exit 1, HTTP 503): the client did nothing wrong and may try again. Returns other errors unchanged.
 */
export function postgresError(location: string, e: unknown): unknown {
  if (e instanceof DomainError) return e;
  if (e instanceof ConnectionLostError) {
    const what =
      e.kind === 'timeout'
        ? `PostgreSQL at ${location} did not answer in time (${firstLine(e.message)})`
        : `PostgreSQL at ${location}: the connection was lost (${firstLine(e.message)})`;
    return new DomainError(
      'unavailable',
      e.outcomeUnknown ? `${what}; the change may or may not have been saved: read it back before repeating it` : what,
    );
  }
  const message = (e as Error)?.message ?? String(e);
  const code = isPgError(e) ? e.code! : '';
  const reason = CONNECTION_CODES[code] ?? NETWORK_CODES[code];
  if (reason) return new DomainError('unavailable', `PostgreSQL at ${location}: ${reason} (${firstLine(message)})`);
  if (/timeout exceeded when trying to connect|Connection terminated|connection timeout/i.test(message))
    return new DomainError('unavailable', `PostgreSQL at ${location} did not answer in time (${firstLine(message)})`);
  if (/self[- ]signed certificate|does not support SSL|SSL|certificate/i.test(message))
    return new DomainError(
      'unavailable',
      `PostgreSQL at ${location}: TLS failed (${firstLine(message)}); check sslmode`,
    );
  if (code === '53100')
    return new DomainError('storage', `PostgreSQL at ${location}: disk full (${firstLine(message)})`);
  if (code === '57014')
    return new DomainError(
      'unavailable',
      /statement timeout/i.test(message)
        ? `PostgreSQL at ${location}: the statement did not finish within the statement timeout (statement_timeout)`
        : `PostgreSQL at ${location}: the query was cancelled`,
    );
  if (code === '55P03')
    return new DomainError(
      'unavailable',
      `PostgreSQL at ${location}: a row or table stayed locked by another transaction past the lock timeout (lock_timeout); try again`,
    );
  if (code.startsWith('42') && /permission denied|must be owner/i.test(message))
    return new DomainError('storage', `PostgreSQL at ${location}: ${firstLine(message)}`);
  return e;
}

const firstLine = (s: string) => s.split('\n')[0]!.trim();
