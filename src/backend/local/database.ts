import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrations } from '../../../migrations/index.js';
import { DomainError } from '../../domain/errors.js';
import type { DB } from './db-types.js';

/** An open store: the kysely instance for queries, the raw handle for the few SQLite-only places (bulk, backup). */
export interface Store {
  file: string;
  db: Kysely<DB>;
  sqlite: Database.Database;
  close(): Promise<void>;
}

/** Translates SQLite's failures into messages a person can act on. */
export function storageError(file: string, e: unknown): DomainError {
  const code = (e as { code?: string }).code ?? '';
  const msg = (e as Error).message ?? String(e);
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(msg))
    return new DomainError(
      'storage',
      `${file} is not an SQLite database (choose another file with --db or COMPLIANCE_DB)`,
    );
  if (code.startsWith('SQLITE_READONLY') || /readonly/i.test(msg))
    return new DomainError('storage', `${file} is read-only: the store needs write access to the file and its folder`);
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'ENOTDIR' || code === 'EROFS')
    return new DomainError('storage', `cannot open database ${file}: ${msg}`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new DomainError('storage', `database ${file} is busy (another process holds a write lock); try again`);
  if (code.startsWith('SQLITE_CORRUPT')) return new DomainError('storage', `database ${file} is damaged: ${msg}`);
  if (code === 'SQLITE_FULL') return new DomainError('storage', `disk full while writing ${file}`);
  return new DomainError('storage', `database error on ${file}: ${msg}`);
}

export const isSqliteError = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
};

export const MIGRATION_COUNT = Object.keys(migrations).length;

/** Told before an existing store is upgraded (not when a new one is created): from, to, and the migrations' names. */
export type UpgradeListener = (from: number, to: number, names: string[]) => void;

/** Applies pending migrations; `PRAGMA user_version` mirrors their count so an up-to-date store costs one pragma. */
async function migrate(db: Kysely<DB>, sqlite: Database.Database, onUpgrade?: UpgradeListener): Promise<void> {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  if (version === MIGRATION_COUNT) return;
  if (version > MIGRATION_COUNT)
    throw new DomainError(
      'storage',
      `the database was written by a newer version of compliance (schema ${version}, this version knows ${MIGRATION_COUNT}); upgrade compliance`,
    );
  if (version > 0) onUpgrade?.(version, MIGRATION_COUNT, Object.keys(migrations).slice(version));
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  sqlite.pragma(`user_version = ${MIGRATION_COUNT}`);
}

/** Opens (and creates) the SQLite store: WAL, a busy timeout so a CLI and a server can share the file, migrations. */
export async function openStore(
  fileArg: string,
  opts: { migrate?: boolean; onUpgrade?: UpgradeListener } = {},
): Promise<Store> {
  const file = fileArg === ':memory:' ? fileArg : resolve(fileArg);
  let sqlite: Database.Database;
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    sqlite = new Database(file, { timeout: 5000 });
  } catch (e) {
    throw storageError(file, e);
  }
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // 32 MiB of page cache: large transactions (a staff list, an escalation run) stay in memory instead of spilling
    sqlite.pragma('cache_size = -32768');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    if (opts.migrate !== false) await migrate(db, sqlite, opts.onUpgrade);
    return {
      file,
      db,
      sqlite,
      close: async () => {
        // keeps the planner's statistics fresh; cheap when nothing changed (SQLite's advice for short-lived connections)
        try {
          // only after writes: a read-only command closes without touching the file
          if ((sqlite.prepare('select total_changes() as n').get() as { n: number }).n > 0) {
            sqlite.pragma('analysis_limit = 400');
            sqlite.pragma('optimize');
          }
        } catch {
          /* a read-only or busy store: statistics can wait */
        }
        await db.destroy();
      },
    };
  } catch (e) {
    sqlite.close();
    throw e instanceof DomainError ? e : storageError(file, e);
  }
}

const inTransaction = new WeakSet<object>();

/**
 * A write transaction that takes the write lock up front (BEGIN IMMEDIATE), so a read-then-write never fails
 * halfway when a server and a CLI share the file: the busy timeout makes the second writer wait instead.
 */
export async function writeTransaction<T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (inTransaction.has(db)) return fn(db);
  return db.connection().execute(async (conn) => {
    inTransaction.add(conn);
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (e) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw e;
    }
  });
}
