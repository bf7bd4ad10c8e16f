import pg from 'pg';
import { DomainError } from '../../domain/errors.js';
import { ConnectionLostError } from '../connection-lost.js';

/**
 * Errors are told apart by their codes, never by words in their messages: a server's message quotes names and values
 * (a constraint `training_certificate_…`, a value a client sent), so a pattern looking for "certificate" or
 * "Connection terminated" in it answers a duplicate key with "TLS failed". Three sources, each with its own codes:
 *
 * - the server: a `pg.DatabaseError` with its SQLSTATE (`serverState`), and nothing else decides;
 * - Node's sockets and TLS: `code` (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_…);
 * - the pg driver itself, which raises a few fixed sentences without a code (`driverFailure`): those are compared
 *   whole, and only on errors the server did not send.
 */

/** The SQLSTATE of an error the server sent, or undefined for any other error. */
export const serverState = (e: unknown): string | undefined =>
  e instanceof pg.DatabaseError && typeof e.code === 'string' ? e.code : undefined;

/** What the pg driver's own errors (which carry no code) mean, by their whole message. */
const DRIVER_ERRORS: Record<string, 'unsent' | 'lost' | 'timeout' | 'connect-timeout' | 'tls'> = {
  'Client has encountered a connection error and is not queryable': 'unsent',
  'Client was closed and is not queryable': 'unsent',
  'Connection terminated unexpectedly': 'lost',
  'Connection terminated': 'lost',
  'Query read timeout': 'timeout',
  'timeout exceeded when trying to connect': 'connect-timeout',
  'Connection terminated due to connection timeout': 'connect-timeout',
  'The server does not support SSL connections': 'tls',
  'There was an error establishing an SSL connection': 'tls',
};

/** The meaning of one of the driver's code-less errors; undefined for an error from anywhere else. */
export function driverFailure(e: unknown): (typeof DRIVER_ERRORS)[string] | undefined {
  if (!(e instanceof Error) || e instanceof pg.DatabaseError || (e as { code?: unknown }).code !== undefined)
    return undefined;
  return Object.hasOwn(DRIVER_ERRORS, e.message) ? DRIVER_ERRORS[e.message] : undefined;
}

/** SQLSTATEs that mean "the database cannot be used right now", with what to tell the user. */
const CONNECTION_STATES: Record<string, string> = {
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

/** Node's socket errors on the way to the server. */
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

/** Node's codes for a TLS handshake or certificate that failed (OpenSSL's verify results and Node's own). */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);
const isTlsCode = (code: string) => TLS_CODES.has(code) || /^ERR_(TLS|SSL)_/.test(code);

/** An integrity constraint or a value the database refused: what the client sent conflicts with what is stored. */
function refusedByServer(location: string, state: string, e: pg.DatabaseError): DomainError | undefined {
  const where = e.constraint ?? (e.table && e.column ? `${e.table}.${e.column}` : e.table);
  const named = where ? ` (${where})` : '';
  if (state === '23505') return new DomainError('conflict', `a record with the same key already exists${named}`);
  if (state === '23503')
    return new DomainError(
      'conflict',
      `the change refers to a record that does not exist, or one still referred to${named}`,
    );
  if (state === '23P01') return new DomainError('conflict', `the record overlaps one already stored${named}`);
  if (state === '23502' || state === '23514' || state.startsWith('22'))
    return new DomainError('validation', `a value the database refuses: ${firstLine(e.message)}`, [
      { path: e.column ?? 'body', message: firstLine(e.message) },
    ]);
  if (state === '40001' || state === '40P01')
    return new DomainError(
      'unavailable',
      `PostgreSQL at ${location}: the change kept colliding with concurrent ones (serialization failure); try again`,
    );
  return undefined;
}

/**
 * Translates PostgreSQL's failures into one line a person can act on. Trouble reaching or using the server is
 * `unavailable` (exit 1, HTTP 503): the client did nothing wrong and may try again; a unique or foreign-key violation
 * is a `conflict` (409); a value the database refuses is `validation` (422). Returns other errors unchanged.
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
  const state = serverState(e);
  if (state !== undefined) {
    const reason = CONNECTION_STATES[state];
    if (reason) return new DomainError('unavailable', `PostgreSQL at ${location}: ${reason} (${firstLine(message)})`);
    if (state === '53100')
      return new DomainError('storage', `PostgreSQL at ${location}: disk full (${firstLine(message)})`);
    if (state === '57014')
      return new DomainError(
        'unavailable',
        `PostgreSQL at ${location}: the statement was cancelled: it did not finish within the statement timeout (statement_timeout), or an administrator cancelled it`,
      );
    if (state === '55P03')
      return new DomainError(
        'unavailable',
        `PostgreSQL at ${location}: a row or table stayed locked by another transaction past the lock timeout (lock_timeout); try again`,
      );
    if (state === '42501') return new DomainError('storage', `PostgreSQL at ${location}: ${firstLine(message)}`);
    return refusedByServer(location, state, e as pg.DatabaseError) ?? e;
  }
  const code = String((e as { code?: unknown })?.code ?? '');
  const network = NETWORK_CODES[code];
  if (network) return new DomainError('unavailable', `PostgreSQL at ${location}: ${network} (${firstLine(message)})`);
  const driver = driverFailure(e);
  if (isTlsCode(code) || driver === 'tls')
    return new DomainError(
      'unavailable',
      `PostgreSQL at ${location}: TLS failed (${firstLine(message)}); check sslmode`,
    );
  if (driver === 'connect-timeout' || driver === 'timeout')
    return new DomainError('unavailable', `PostgreSQL at ${location} did not answer in time (${firstLine(message)})`);
  if (driver === 'lost' || driver === 'unsent')
    return new DomainError('unavailable', `PostgreSQL at ${location}: the connection was lost (${firstLine(message)})`);
  return e;
}

const firstLine = (s: string) => s.split('\n')[0]!.trim();
