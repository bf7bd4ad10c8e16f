import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { postgresError } from '../../src/store/postgres/postgres-errors.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

/**
 * Errors are classified by SQLSTATE or driver code, never by words in a message (issue 35, item 10): a duplicate
 * certificate answered 503 "TLS failed … check sslmode" because its constraint is named training_certificate_….
 */

const certificate = (id: string) => ({
  id,
  tenant_id: 'acme',
  assignment_id: 'assignment-1',
  user_id: 'u1',
  user_name: 'Anna',
  module_id: 'm1',
  module_code: 'DS-1',
  module_title: 'Datenschutz',
  score: 90,
  issued_at: '2026-01-01T00:00:00.000Z',
  valid_until: '2027-01-01T00:00:00.000Z',
  signature: 'sig',
});

/** The error a statement fails with, as the store's mapping answers it. */
async function mapped(store: Store, run: () => Promise<unknown>): Promise<DomainError> {
  try {
    await run();
  } catch (e) {
    return store.mapError(e) as DomainError;
  }
  throw new Error('expected the statement to fail');
}

describe.each(ENGINE_NAMES)('store errors on %s', (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await freshStore(engine));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('answers a duplicate certificate as a conflict (409), not as a TLS failure', async () => {
    await store.admin.insertInto('training_certificate').values(certificate('c1')).execute();
    for (const id of ['c1', 'c2']) {
      const e = await mapped(store, () =>
        store.admin.insertInto('training_certificate').values(certificate(id)).execute(),
      );
      expect(e).toBeInstanceOf(DomainError);
      expect(e.code).toBe('conflict');
      expect(e.message).toMatch(/a record with the same key already exists/);
      expect(e.message).not.toMatch(/TLS|sslmode/);
    }
  });

  it('answers a value a column refuses as a validation error, never a lost connection', async () => {
    const e = await mapped(store, () =>
      store.admin
        .insertInto('training_certificate')
        .values({ ...certificate('c3'), assignment_id: 'assignment-3', user_name: null as unknown as string })
        .execute(),
    );
    expect(e.code).toBe('validation');
    if (engine !== 'postgres') return;
    // the server's message quotes the value: words in it decide nothing
    for (const value of [
      'Connection terminated unexpectedly',
      'SSL certificate is not queryable',
      'Query read timeout',
    ])
      expect(await mapped(store, () => sql`select ${value}::int`.execute(store.db))).toMatchObject({
        code: 'validation',
        message: expect.stringContaining(value),
      });
  });
});

describe('classifying PostgreSQL errors', () => {
  const server = (code: string, message: string, extra: Partial<pg.DatabaseError> = {}) =>
    Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code, ...extra });
  const withCode = (code: string, message: string) => Object.assign(new Error(message), { code });

  it.each([
    [
      server('23505', 'duplicate key value violates unique constraint "training_certificate_assignment_id_key"', {
        constraint: 'training_certificate_assignment_id_key',
      }),
      'conflict',
      /already exists \(training_certificate_assignment_id_key\)/,
    ],
    [
      server('23503', 'insert or update on table "x" violates foreign key constraint "ssl_fk"'),
      'conflict',
      /refers to/,
    ],
    [server('23502', 'null value in column "certificate" violates not-null constraint'), 'validation', /refuses/],
    [server('22P02', 'invalid input syntax for type uuid: "Connection terminated"'), 'validation', /refuses/],
    [server('42501', 'permission denied for table journal'), 'storage', /permission denied/],
    [server('42P01', 'relation "ssl_certificate" does not exist'), undefined, undefined],
    [server('57014', 'canceling statement due to statement timeout'), 'unavailable', /statement_timeout/],
    [server('55P03', 'canceling statement due to lock timeout'), 'unavailable', /lock_timeout/],
    [server('28P01', 'password authentication failed for user "x"'), 'unavailable', /password authentication/],
    [server('40001', 'could not serialize access'), 'unavailable', /try again/],
    [withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'unavailable', /connection refused/],
    [withCode('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'unavailable', /TLS failed.*sslmode/],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match'), 'unavailable', /TLS failed/],
    [new Error('The server does not support SSL connections'), 'unavailable', /TLS failed/],
    [new Error('Connection terminated unexpectedly'), 'unavailable', /connection was lost/],
    [new Error('timeout exceeded when trying to connect'), 'unavailable', /did not answer in time/],
    // words alone decide nothing: an error of anything else that happens to say SSL or timeout is left as it is
    [new Error('SSL certificate of the training_certificate table'), undefined, undefined],
    [new Error('Connection terminated, said the user'), undefined, undefined],
  ] as const)('%s → %s', (e, code, message) => {
    const out = postgresError('postgres://h/db', e);
    if (code === undefined) {
      expect(out).toBe(e);
      return;
    }
    expect(out).toBeInstanceOf(DomainError);
    expect(out).toMatchObject({ code, message: expect.stringMatching(message!) });
  });
});
