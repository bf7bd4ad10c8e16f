import type { Kysely } from 'kysely';
import { DomainError } from '../domain/errors.js';
import type { DB } from './db-types.js';
import type { MediaObjectStore } from './media-objects.js';
import type { MediaPlaces } from './media-location.js';
import type { MediaLocation } from '../domain/training/media-url.js';
import type { ExportQuery } from '../domain/consents/consent.schema.js';
import type { BatchResult, ConsentImportWriter, ImportWriterOptions } from './consent-import-rows.js';

import type { EngineKind } from './engine.js';
import type { VerifyThreads } from './journal/verify-jobs.js';

export type { EngineKind } from './engine.js';

/** Told before an existing store is upgraded (not when a new one is created): from, to, and the migrations' names. */
export type UpgradeListener = (from: number, to: number, names: string[]) => void;

/**
 * What opening does when an SQLite file does not exist: create it (the default), refuse with one line naming the
 * path, or answer from an empty store in memory and create nothing (no file, no folder). A PostgreSQL database is
 * never created by us, so the choice does not apply to it.
 */
export type IfMissing = 'create' | 'refuse' | 'empty';

export interface OpenOptions {
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  onUpgrade?: UpgradeListener;
  ifMissing?: IfMissing;
  /** Told when the SQLite file (`location`, resolved) did not exist: it was `created`, or an `empty` store answers. */
  onMissing?: (outcome: 'created' | 'empty', location: string) => void;
  /**
   * PostgreSQL's timeouts for requests, in milliseconds, as the environment gives them
   * (`COMPLIANCE_PG_STATEMENT_TIMEOUT`, `…_LOCK_TIMEOUT`, `…_QUERY_TIMEOUT`); the URL's own parameters win.
   */
  timeouts?: { statement_timeout?: string; lock_timeout?: string; query_timeout?: string };
  /** An S3-compatible object store for media (`--media`, COMPLIANCE_MEDIA_URL); absent: where the store keeps them. */
  media?: MediaLocation;
}

/** What `compliance db status` shows, on either engine. */
export interface StoreStatus {
  engine: EngineKind;
  location: string;
  server_version: string;
  schema_version: number;
  migrations_known: number;
  /** Rows per table, every tenant. */
  tables: Record<string, number>;
  /** Engine-specific facts (file size and journal mode, or the database's size and role). */
  details: Record<string, string | number>;
}

/**
 * An open store on one engine. The areas query `db` with kysely's builders, which run unchanged on both engines;
 * what truly differs per engine (opening and settings, errors, status, backup, bulk writes, media objects) sits
 * behind this interface, implemented in `sqlite/` and `postgres/`.
 */
export interface Store {
  readonly kind: EngineKind;
  /** For messages: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  /** Queries of the areas; on PostgreSQL they run as the application role, inside the current tenant's scope. */
  readonly db: Kysely<DB>;
  /** Queries across every tenant, outside row-level security: migrations, status, `db copy`. */
  readonly admin: Kysely<DB>;
  /**
   * A reader of every tenant's rows that can be used while `trx`, a transaction of `db`, is open (to tell that an id
   * is taken by another tenant): the transaction itself where the engine has no row-level security, the owner's
   * connection where it has.
   */
  everyTenant(trx: Kysely<DB>): Kysely<DB>;
  /**
   * Threads that read the store beside the calling one, each on a connection of its own (`audit verify` on a large
   * store); absent where the engine has none.
   */
  verifyThreads?(): Promise<VerifyThreads | undefined>;
  /** Turns an engine failure (busy, read-only, unreachable, …) into a DomainError; anything else is returned as is. */
  mapError(e: unknown): unknown;
  /** Resolves when the database answers within `timeoutMs`; throws a DomainError otherwise (health checks). */
  ping(timeoutMs?: number): Promise<void>;
  status(): Promise<StoreStatus>;
  /**
   * Copies the store into a new SQLite file while it is in use (SQLite's online backup). PostgreSQL refuses, naming
   * pg_dump and `db copy`, which do that job there.
   */
  backup(target: string): Promise<void>;
  /**
   * Where media objects (audio, video) live: on SQLite a folder (`root`, by default `media/` beside the database
   * file), as a laptop expects; on PostgreSQL the database itself, so every replica reaches every object.
   */
  mediaObjects(): Promise<MediaObjectStore>;
  /** Where media live and may move to: the configured object store, the store's record of it, its own place. */
  readonly media: MediaPlaces;
  /**
   * A writer for the rows of one bulk consent import, on a connection of its own: each engine writes batches in its
   * own way (SQLite in a worker thread, PostgreSQL with COPY). `onBatch` hears of every transaction, in order.
   */
  openConsentImportWriter(
    options: ImportWriterOptions,
    onBatch: (result: BatchResult) => void,
  ): Promise<ConsentImportWriter>;
  /** A tenant's consents as CSV or NDJSON text, streamed from a read connection of its own (the same bytes on both). */
  exportConsents(tenant: string, q: ExportQuery): Promise<AsyncGenerator<string>>;
  close(): Promise<void>;
}

/** `postgres://user:***@host:5432/db`: the URL without its password, for messages and `db status`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** `postgres://…` and `postgresql://…` open PostgreSQL; anything else that looks like a URL is refused; the rest is a file. */
export function engineOf(target: string): EngineKind {
  const scheme = URL_SCHEME.exec(target)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'sqlite';
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  throw new DomainError(
    'bad_request',
    `unsupported database URL scheme "${scheme}://": use postgres://user:password@host:port/database or a file path`,
    [{ path: 'db', message: 'expected postgres://, postgresql:// or a file path' }],
  );
}

export { mediaHealth, type MediaHealth } from './media-location.js';
