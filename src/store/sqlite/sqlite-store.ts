import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { makeFolder } from '../make-folder.js';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { withStatementCache } from './statement-cache.js';
import { Kysely, Migrator } from 'kysely';
import { SqliteEngineDialect } from './sqlite-engine.js';
import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { DomainError } from '../../domain/errors.js';
import type { DB } from '../db-types.js';
import type { OpenOptions, Store, StoreStatus, UpgradeListener } from '../store.js';
import { announcedMigrations } from '../announced-migrations.js';
import { mediaPlaces } from '../media-location.js';
import { nativeBinding } from './native-binding.js';
import { isSqliteError, storageError } from './sqlite-errors.js';

/** The SQLite store: the file, and the raw handle for the few SQLite-only places (bulk writes, backup, status). */
export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  /** The file open: `location`, or a scratch file while a store that does not exist reads as empty. */
  readonly file: string;
  readonly sqlite: Database.Database;
}

export const MIGRATION_COUNT = MIGRATION_NAMES.length;

/** Applies pending migrations; `PRAGMA user_version` mirrors their count so an up-to-date store costs one pragma. */
async function migrate(db: Kysely<DB>, sqlite: Database.Database, onUpgrade?: UpgradeListener): Promise<void> {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  if (version === MIGRATION_COUNT) return;
  if (version > MIGRATION_COUNT)
    throw new DomainError(
      'storage',
      `the database was written by a newer version of compliance (schema ${version}, this version knows ${MIGRATION_COUNT}); upgrade compliance`,
    );
  // loaded only when there is something to migrate: an up-to-date store starts without them
  const migrations = await (await import('../../../migrations/load.js')).loadMigrations();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => announcedMigrations(migrations, onUpgrade) },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  sqlite.pragma(`user_version = ${MIGRATION_COUNT}`);
}

/** Opens (and creates) the SQLite store: WAL, a busy timeout so a CLI and a server can share the file, migrations. */
export async function openSqliteStore(fileArg: string, opts: OpenOptions = {}): Promise<SqliteStore> {
  const file = fileArg === ':memory:' ? fileArg : resolve(fileArg);
  const missing = file !== ':memory:' && !existsSync(file);
  const ifMissing = opts.ifMissing ?? 'create';
  if (missing && ifMissing === 'refuse')
    throw new DomainError(
      'storage',
      `no store at ${file}: a command that only reads creates none (\`compliance db init\` or a command that writes creates it)`,
      [{ path: 'db', message: 'no such file' }],
    );
  // an empty store that is not the file: a scratch file rather than memory, since a bulk import opens the store's
  // file again from its worker thread; removed on close
  const scratch =
    missing && ifMissing === 'empty' ? join(mkdtempSync(join(tmpdir(), 'compliance-empty-')), 'store.db') : undefined;
  const dropScratch = () => scratch && rmSync(dirname(scratch), { recursive: true, force: true });
  const path = scratch ?? file;
  let sqlite: Database.Database;
  try {
    if (path !== ':memory:') makeFolder(dirname(path));
    // a read that raced a deletion must not create the file after all
    sqlite = new Database(path, {
      timeout: 5000,
      fileMustExist: !missing && path !== ':memory:',
      ...nativeBinding(),
    });
  } catch (e) {
    dropScratch();
    throw storageError(file, e);
  }
  if (missing) opts.onMissing?.(scratch ? 'empty' : 'created', file);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // 32 MiB of page cache: large transactions (a staff list, an escalation run) stay in memory instead of spilling
    sqlite.pragma('cache_size = -32768');
    const db = new Kysely<DB>({ dialect: new SqliteEngineDialect({ database: withStatementCache(sqlite) }) });
    if (opts.migrate !== false) await migrate(db, sqlite, opts.onUpgrade);
    const media = mediaPlaces(db, opts.media, async () => {
      const { FolderMediaObjects } = await import('../media-objects.js');
      return new FolderMediaObjects(join(dirname(file), 'media'));
    });
    return {
      kind: 'sqlite',
      location: file,
      file: path,
      db,
      admin: db,
      // one connection, and no row-level security: the transaction sees every tenant's rows
      everyTenant: (trx) => trx,
      async verifyThreads() {
        const { sqliteVerifyThreads } = await import('./verify-threads.js');
        return sqliteVerifyThreads(path);
      },
      sqlite,
      mapError: (e) => (isSqliteError(e) ? storageError(file, e) : e),
      ping: async () => {
        try {
          sqlite.prepare('select 1').get();
        } catch (e) {
          throw storageError(file, e);
        }
      },
      status: async () => status(file, path, sqlite),
      async backup(target) {
        // the default store before its first write reads as empty, but there is nothing to back up
        if (path !== file) throw new DomainError('storage', `no store at ${file} yet: nothing to back up`);
        if (resolve(target) === file)
          throw new DomainError('bad_request', 'the backup file must differ from the store');
        try {
          makeFolder(dirname(resolve(target)));
          await sqlite.backup(resolve(target));
        } catch (e) {
          throw new DomainError('storage', `backup to ${target} failed: ${(e as Error).message}`);
        }
      },
      mediaObjects: () => media.objects(),
      media,
      // the file open (a scratch file while a store that does not exist reads as empty), not the location
      async openConsentImportWriter(options, onBatch) {
        const { openSqliteImportWriter } = await import('./consent-import-sink.js');
        return openSqliteImportWriter(path, options, onBatch);
      },
      async exportConsents(tenant, q) {
        const { exportConsents } = await import('./consent-export.js');
        return exportConsents(path, tenant, q);
      },
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
        dropScratch();
      },
    };
  } catch (e) {
    sqlite.close();
    dropScratch();
    throw e instanceof DomainError ? e : storageError(file, e);
  }
}

function status(file: string, path: string, s: Database.Database): StoreStatus {
  const tables = s
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name",
    )
    .all() as Array<{ name: string }>;
  const count = (t: string) => (s.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n;
  return {
    engine: 'sqlite',
    location: file,
    server_version: (s.prepare('select sqlite_version() as v').get() as { v: string }).v,
    schema_version: s.pragma('user_version', { simple: true }) as number,
    migrations_known: MIGRATION_COUNT,
    tables: Object.fromEntries(tables.map((t) => [t.name, count(t.name)])),
    details: {
      size_bytes: existsSync(file) ? statSync(path).size : 0,
      journal_mode: s.pragma('journal_mode', { simple: true }) as string,
    },
  };
}
