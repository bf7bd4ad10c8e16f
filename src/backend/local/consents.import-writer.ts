import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { IdSource } from '../../domain/clock.js';
import { newConsent } from '../../domain/consents/consent.service.js';
import { uuidv7Source } from './ids.js';

/**
 * The values of one validated import row, in this order, flattened into a batch array (a flat array of primitives is
 * the cheapest thing to hand to a worker thread). `granted` is 0 or 1; absent values are null.
 */
export const ROW_FIELDS = ['user_id', 'data_point_id', 'granted', 'granted_at', 'revoked_at', 'consent_version', 'source', 'ip_address', 'user_agent'] as const;
export const ROW_WIDTH = ROW_FIELDS.length;
export type BatchValue = string | number | null;

export interface WriterOptions {
  file: string;
  /** Pieces per transaction (a piece is at most 1,000 rows and 256K characters, so a transaction stays small). */
  batchPieces: number;
  tenant: string;
  /** The import's time: created_at, and granted_at of rows without one. */
  now: string;
  dryRun: boolean;
}

export interface BatchResult {
  created: number;
  unchanged: number;
}
/** What one transaction wrote: `pieces` handed over, of which `created` rows were new. */
export type WriteResult = BatchResult & { pieces: number };

/**
 * Writes batches of validated consent rows with their history, one transaction per batch, on a connection of its own.
 * Each batch is written in one synchronous stretch (BEGIN IMMEDIATE … COMMIT), so a transaction never stays open
 * across an await: a killed run leaves whole batches, and a server sharing the file never waits on a half-done one.
 */
export class ConsentBatchWriter {
  private readonly db: Database.Database;
  private readonly exists: Database.Statement;
  private readonly existsAnyTime: Database.Statement;
  private readonly insConsent: Database.Statement;
  private readonly insHistory: Database.Statement;
  private created = 0;
  private pending: BatchValue[][] = [];

  constructor(private readonly o: WriterOptions, private readonly ids: IdSource) {
    this.db = new Database(o.file, { timeout: 30_000 });
    try {
      this.db.pragma('synchronous = NORMAL');
      // 8 MiB of page cache: more buys little speed (measured) and counts against the import's memory
      this.db.pragma('cache_size = -8192');
      // INDEXED BY: without statistics SQLite may pick the statistics index and scan a whole data point per row
      this.exists = this.db.prepare(`select 1 from consent indexed by consent_tenant_user where tenant_id = ? and user_id = ? and data_point_id = ? and granted = ? and consent_version = ? and granted_at = ? limit 1`).pluck();
      this.existsAnyTime = this.db.prepare(`select 1 from consent indexed by consent_tenant_user where tenant_id = ? and user_id = ? and data_point_id = ? and granted = ? and consent_version = ? limit 1`).pluck();
      this.insConsent = this.db.prepare(`insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      this.insHistory = this.db.prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  /** Gathers rows (handed over in small pieces, which die young in the garbage collector); writes once a batch is full. */
  add(rows: BatchValue[]): WriteResult | undefined {
    this.pending.push(rows);
    return this.pending.length >= this.o.batchPieces ? this.flush() : undefined;
  }

  /** Writes the gathered rows in one transaction. */
  flush(): WriteResult | undefined {
    if (this.pending.length === 0) return undefined;
    const pieces = this.pending;
    this.pending = [];
    return { pieces: pieces.length, ...this.write(pieces) };
  }

  /** Rows equal to a stored one (or to an earlier row of this import) count as unchanged; the others are inserted. */
  private write(pieces: BatchValue[][]): BatchResult {
    const { tenant, now, dryRun } = this.o;
    let created = 0, unchanged = 0;
    if (!dryRun) this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const batch of pieces) for (let i = 0; i < batch.length; i += ROW_WIDTH) {
        const user = batch[i] as string, dp = batch[i + 1] as string, granted = batch[i + 2] as number;
        const grantedAt = batch[i + 3] as string | null, version = batch[i + 5] as string;
        const dup = grantedAt
          ? this.exists.get(tenant, user, dp, granted, version, grantedAt)
          : this.existsAnyTime.get(tenant, user, dp, granted, version);
        if (dup) {
          unchanged++;
          continue;
        }
        created++;
        if (dryRun) continue;
        const { consent: k, history } = newConsent(tenant, {
          user_id: user, data_point_id: dp, granted: granted === 1, consent_version: version,
          granted_at: grantedAt ?? undefined, revoked_at: (batch[i + 4] as string | null) ?? undefined,
          source: (batch[i + 6] as string | null) ?? undefined, ip_address: (batch[i + 7] as string | null) ?? undefined,
          user_agent: (batch[i + 8] as string | null) ?? undefined,
        }, now, this.ids);
        this.insConsent.run(k.id, tenant, k.user_id, k.data_point_id, granted, k.granted_at, k.revoked_at, k.consent_version, k.source, k.ip_address, k.user_agent, k.created_at);
        for (const h of history) this.insHistory.run(h.id, tenant, h.consent_id, h.action, h.consent_version, h.ip_address, h.user_agent, h.source, h.created_at);
      }
      if (!dryRun) this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
    this.created += created;
    return { created, unchanged };
  }

  /** Writes what is left and closes the connection. */
  finish(): WriteResult | undefined {
    const last = this.flush();
    this.close();
    return last;
  }

  /** Closes without writing what is gathered (after a failure: whole batches only). */
  close(): void {
    if (!this.db.open) return;
    try {
      // fresh statistics keep the query planner on the right indexes after a large import
      if (this.created > 10_000) this.db.exec('PRAGMA analysis_limit = 1000; ANALYZE consent;');
    } finally {
      this.db.close();
    }
  }
}

/** Messages between the import and its writer thread. */
export type ToWriter = { type: 'rows'; rows: BatchValue[] } | { type: 'end' } | { type: 'abort' };
export type FromWriter =
  | { type: 'ready' }
  | ({ type: 'done' } & WriteResult)
  | { type: 'closed' }
  | { type: 'error'; message: string; code?: string };

/** This module's own file, for starting it as a worker (only a built .js file can be; tests run the .ts sources). */
export const WRITER_URL = import.meta.url;
export const WRITER_ROLE = 'compliance-consents-import-writer';

// Started as a worker thread: gather the pieces the import thread sends and write them, one reply per transaction.
if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === WRITER_ROLE) {
  const port = parentPort;
  const fail = (e: unknown) => port.postMessage({ type: 'error', message: (e as Error).message ?? String(e), code: (e as { code?: string }).code } satisfies FromWriter);
  let writer: ConsentBatchWriter | undefined;
  try {
    writer = new ConsentBatchWriter((workerData as { options: WriterOptions }).options, uuidv7Source());
    port.postMessage({ type: 'ready' } satisfies FromWriter);
  } catch (e) {
    fail(e);
  }
  const done = (r: WriteResult | undefined) => r && port.postMessage({ type: 'done', ...r } satisfies FromWriter);
  port.on('message', (m: ToWriter) => {
    try {
      if (m.type === 'rows') return void (writer && done(writer.add(m.rows)));
      if (m.type === 'end' && writer) done(writer.finish());
      else writer?.close();
    } catch (e) {
      fail(e);
      writer?.close();
    }
    writer = undefined;
    port.postMessage({ type: 'closed' } satisfies FromWriter);
    port.close();
  });
}
