import { Kysely, Migrator, sql } from 'kysely';
import { PostgresEngineDialect } from './postgres-engine.js';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { loadMigrations } from '../../../migrations/load.js';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { APP_ROLE } from '../../../migrations/dialect.js';
import { DomainError } from '../../domain/errors.js';
import type { DB } from '../db-types.js';
import { redactUrl, type OpenOptions, type Store, type StoreStatus, type UpgradeListener } from '../store.js';
import { announcedMigrations } from '../announced-migrations.js';
import { mediaPlaces } from '../media-location.js';
import { driverUrl, poolAs, timed, timeoutsFor, type Timeouts } from './connections.js';
import { postgresError } from './postgres-errors.js';
import { checkAppRole } from './app-role.js';

const MIGRATION_COUNT = MIGRATION_NAMES.length;
/** The migration that creates the application role and grants it to the owner. */
const APP_ROLE_MIGRATION = '0008_postgres_roles_and_tenant_isolation';
const MIN_SERVER_VERSION = 140000;
const CONNECT_TIMEOUT_MS = 5000;

/** The PostgreSQL store: the pool, and a kysely instance that runs as the owner for migrations and administration. */
export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  readonly pool: pg.Pool;
  /**
   * The URL, password included, without the settings this store applies itself (timeouts, pool size): for a second
   * connection of the same kind, such as a bulk writer.
   */
  readonly url: string;
  /** The timeouts requests run with. */
  readonly timeouts: Timeouts;
}

/** A URL with a typo is refused before any connection is tried, with what is wrong. */
function checkUrl(url: string): void {
  let u: URL;
  const bad = (why: string) =>
    new DomainError('bad_request', `invalid PostgreSQL URL ${redactUrl(url)}: ${why}`, [
      { path: 'db', message: 'expected postgres://user:password@host:port/database[?sslmode=require]' },
    ]);
  try {
    u = new URL(url);
  } catch {
    throw bad('it cannot be parsed (special characters in the password must be percent-encoded)');
  }
  if (!u.hostname && !u.searchParams.get('host')) throw bad('no host');
  if (u.port && !/^\d+$/.test(u.port)) throw bad(`port "${u.port}" is not a number`);
  const mode = u.searchParams.get('sslmode');
  const modes = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];
  if (mode !== null && !modes.includes(mode)) throw bad(`sslmode "${mode}" is not one of ${modes.join(', ')}`);
}

/** pg returns bigint and numeric as text; counts and averages here always fit a JavaScript number. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Refuses a server older than PostgreSQL 14 (`server_version_num` 140000). */
export function requireServerVersion(versionNum: number, versionText: string, location: string): void {
  if (versionNum < MIN_SERVER_VERSION)
    throw new DomainError(
      'unavailable',
      `PostgreSQL at ${location} is version ${versionText}; compliance needs PostgreSQL 14 or newer`,
    );
}

async function checkServer(admin: Kysely<DB>, location: string): Promise<void> {
  const { rows } = await sql<{ v: string; text: string }>`select
      current_setting('server_version_num') as v, current_setting('server_version') as text`.execute(admin);
  requireServerVersion(Number(rows[0]!.v), rows[0]!.text, location);
}

async function appliedMigrations(admin: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(admin);
  if (!rows[0]?.t) return [];
  const done = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(admin);
  return done.rows.map((r) => r.name);
}

/**
 * Applies pending migrations as the owner; replicas that start together take turns on kysely's advisory lock, and only
 * the one that applies them tells `onUpgrade`.
 */
async function migrate(admin: Kysely<DB>, onUpgrade?: UpgradeListener): Promise<void> {
  const done = await appliedMigrations(admin);
  const known: readonly string[] = MIGRATION_NAMES;
  const unknown = done.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new DomainError(
      'storage',
      `the database was written by a newer version of compliance (migrations ${unknown.join(', ')} are unknown here); upgrade compliance`,
    );
  if (done.length === MIGRATION_COUNT) return;
  if (!done.includes(APP_ROLE_MIGRATION)) await checkAppRole(admin);
  const migrations = await loadMigrations();
  const { error } = await new Migrator({
    db: admin,
    provider: { getMigrations: async () => announcedMigrations(migrations, onUpgrade) },
  }).migrateToLatest();
  if (error) throw error;
}

/** Opens a PostgreSQL store (14 or newer): a connection pool, migrations applied, queries as the application role. */
export async function openPostgresStore(url: string, opts: OpenOptions = {}): Promise<PostgresStore> {
  checkUrl(url);
  const location = redactUrl(url);
  const params = new URL(url).searchParams;
  const timeouts = timeoutsFor(url, opts.timeouts);
  const pool = new pg.Pool({
    connectionString: driverUrl(url),
    max: Number(params.get('pool_max') ?? 10) || 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'compliance',
    types,
  });
  // an idle connection that dies (a restarted or stopped server) is dropped from the pool; the next request reconnects
  pool.on('error', () => undefined);
  // A connection that dies while checked out fails the statement in flight, and is discarded on release; its 'error'
  // event must not also end the process as an unhandled one. The listener is added when the connection is made, as
  // the pool hands a new connection out: a session ended right after its start can report it in the same read.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const admin = new Kysely<DB>({
    dialect: new PostgresEngineDialect({ pool: poolAs(pool, 'owner', timeouts), cursor: Cursor }),
  });
  const db = new Kysely<DB>({ dialect: new PostgresEngineDialect({ pool: poolAs(pool, 'app', timeouts) }) });
  try {
    await checkServer(admin, location);
    if (opts.migrate !== false) await migrate(admin, opts.onUpgrade);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw postgresError(location, e);
  }
  const media = mediaPlaces(admin, opts.media, async () => {
    const { DatabaseMediaObjects } = await import('../media-objects.js');
    return new DatabaseMediaObjects(db);
  });
  const store: PostgresStore = {
    kind: 'postgres',
    location,
    url: driverUrl(url),
    timeouts,
    db,
    admin,
    // row-level security hides other tenants' rows from the application role: the owner's connection sees them
    everyTenant: () => admin,
    pool,
    mapError: (e) => postgresError(location, e),
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new DomainError('unavailable', `PostgreSQL at ${location} did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      // the query gives up by itself too, so a server that stopped answering does not keep the connection checked out
      const answer = (async () => {
        const client = await pool.connect();
        try {
          await client.query(timed('select 1', undefined, timeoutMs));
          client.release();
        } catch (e) {
          client.release(e as Error);
          throw e;
        }
      })();
      answer.catch(() => undefined);
      try {
        await Promise.race([answer, late]);
      } catch (e) {
        throw postgresError(location, e);
      } finally {
        clearTimeout(timer);
      }
    },
    status: () => status(admin, location),
    async backup() {
      throw new DomainError(
        'bad_request',
        'db backup copies an SQLite file; for PostgreSQL use pg_dump, or `compliance db copy URL file.db`',
      );
    },
    mediaObjects: () => media.objects(),
    media,
    async openConsentImportWriter(options, onBatch) {
      const { PostgresConsentWriter } = await import('./consent-import-writer.js');
      try {
        return await PostgresConsentWriter.start(url, options, onBatch);
      } catch (e) {
        throw postgresError(location, e);
      }
    },
    async exportConsents(tenant, q) {
      const { exportConsentsPostgres } = await import('./consent-export.js');
      return exportConsentsPostgres(url, tenant, q, (e) => postgresError(location, e));
    },
    async close() {
      // a server that stopped answering never confirms the goodbye: do not wait for it for ever
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        pool.end().catch(() => undefined),
        new Promise((r) => (timer = setTimeout(r, 5000).unref())),
      ]);
      clearTimeout(timer);
    },
  };
  return store;
}

async function status(admin: Kysely<DB>, location: string): Promise<StoreStatus> {
  const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely\\_%'
      order by table_name`.execute(admin);
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(t.name)}`.execute(admin);
    counts[t.name] = Number(rows[0]!.n);
  }
  const { rows } = await sql<{ version: string; size: number; role: string; database: string }>`select
      current_setting('server_version') as version, pg_database_size(current_database()) as size,
      current_user as role, current_database() as database`.execute(admin);
  const info = rows[0]!;
  return {
    engine: 'postgres',
    location,
    server_version: info.version,
    schema_version: (await appliedMigrations(admin)).length,
    migrations_known: MIGRATION_COUNT,
    tables: counts,
    details: { database: info.database, size_bytes: Number(info.size), owner_role: info.role, app_role: APP_ROLE },
  };
}
