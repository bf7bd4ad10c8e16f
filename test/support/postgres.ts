import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The admin URL of the PostgreSQL server of this test run (started by test/global-setup.ts). */
export const postgresAdminUrl = (): string => inject('postgresUrl');

/** The URL of the same server with another database name (or user and password). */
export function postgresUrl(database: string, auth?: { user: string; password: string }): string {
  const u = new URL(postgresAdminUrl());
  u.pathname = `/${database}`;
  if (auth) {
    u.username = auth.user;
    u.password = auth.password;
  }
  return u.toString();
}

/** Runs SQL as the server's superuser on a database (default: the admin database). */
export async function asAdmin<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
  database?: string,
): Promise<pg.QueryResult<T>> {
  const c = new pg.Client({ connectionString: database ? postgresUrl(database) : postgresAdminUrl() });
  await c.connect();
  try {
    return await c.query<T>(text, params);
  } finally {
    await c.end();
  }
}

/** A new, empty database on the test server; its URL. Each store of a test gets its own, so tests never share rows. */
export async function freshPostgresDatabase(): Promise<string> {
  const name = `t_${randomBytes(8).toString('hex')}`;
  await asAdmin(`create database ${name}`);
  return postgresUrl(name);
}

/** A new database copied from `template` (a database nobody is connected to); its URL. */
export async function copiedPostgresDatabase(template: string): Promise<string> {
  const name = `t_${randomBytes(8).toString('hex')}`;
  await asAdmin(`create database ${name} template ${template}`);
  return postgresUrl(name);
}
