import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { uuidv7Source } from '../ids.js';
import {
  ROW_FIELDS,
  ROW_WIDTH,
  type BatchResult,
  type BatchValue,
  type ImportWriterOptions,
} from '../consent-import-rows.js';

export { ROW_FIELDS, ROW_WIDTH, type BatchResult, type BatchValue };

export interface WriterOptions extends ImportWriterOptions {
  file: string;
}

/** Rows per statement when a batch is copied into the staging table. */
const STAGE_ROWS = 100;

/** Columns of the staging table, in ROW_FIELDS order, after the row's position `n`. */
const STAGE_COLUMNS = `n integer primary key, ${ROW_FIELDS.join(', ')}`;

/**
 * A staged row `s` equal to a stored consent of the tenant: the same user_id, data_point_id, granted and
 * consent_version, and the same granted_at when the row has one (a row without granted_at, which takes the import's
 * time, equals such a consent of any time).
 */
const NOT_STORED = `not exists (select 1 from consent c indexed by consent_tenant_user
    where c.tenant_id = @tenant and c.user_id = s.user_id and c.data_point_id = s.data_point_id and c.granted = s.granted
      and c.consent_version = s.consent_version and (s.granted_at is null or c.granted_at = s.granted_at))`;
/** ... or equal, in the same sense, to an earlier row of the same batch (which is written first). */
const NOT_EARLIER = `not exists (select 1 from temp.import_stage p
    where p.user_id = s.user_id and p.data_point_id = s.data_point_id and p.n < s.n and p.granted = s.granted
      and p.consent_version = s.consent_version and (s.granted_at is null or coalesce(p.granted_at, @now) = s.granted_at))`;

/**
 * Ids are UUIDv7 with a dedicated counter (RFC 9562, 6.2 method 1): each batch takes the first 24 characters of a
 * fresh time-ordered id (timestamp, sequence, variant) and counts in the last 48 bits, three ids per row (the consent,
 * its `granted` entry, its `revoked` entry), so a batch's ids are unique, ordered, and made inside SQLite.
 */
const id = (k: 0 | 1 | 2) => `printf('%s%012x', @prefix, 3 * s.n + ${k})`;

/**
 * Writes batches of validated consent rows with their history, one transaction per batch, on a connection of its own.
 * A batch is copied into a staging table and written with three set-based statements (consents, `granted` entries,
 * `revoked` entries) that keep to the rules of a consent created through the API (`newConsent`); the contract suite
 * compares the two. Each batch is written in one synchronous stretch (BEGIN IMMEDIATE … COMMIT), so a transaction
 * never stays open across an await: a killed run leaves whole batches, and a server sharing the file never waits on a
 * half-done one.
 */
export class ConsentBatchWriter {
  private readonly db: Database.Database;
  private readonly stage: Database.Statement;
  private readonly stageMany: Database.Statement;
  private readonly countNew: Database.Statement;
  private readonly insConsents: Database.Statement;
  private readonly insGranted: Database.Statement;
  private readonly insRevoked: Database.Statement;
  private readonly clearStage: Database.Statement;
  /** Prefixes come from time-ordered ids whatever source the caller uses: the id layout above depends on it. */
  private readonly ids = uuidv7Source();
  private created = 0;
  private pending: BatchValue[][] = [];

  constructor(private readonly o: WriterOptions) {
    this.db = new Database(o.file, { timeout: 30_000 });
    try {
      this.db.pragma('synchronous = NORMAL');
      // 8 MiB of page cache: more buys little speed (measured) and counts against the import's memory
      this.db.pragma('cache_size = -8192');
      // checkpoint every 10,000 pages (40 MiB of WAL) instead of 1,000: pages that every batch touches (the user index)
      // reach the database file once per checkpoint, not once per transaction (measured: 11.4 s -> 9.6 s for 1M rows)
      this.db.pragma('wal_autocheckpoint = 10000');
      this.db.pragma('temp_store = memory');
      this.db.exec(`create temp table import_stage (${STAGE_COLUMNS});
        create index temp.import_stage_key on import_stage (user_id, data_point_id, n);`);
      const tuple = `(${Array(ROW_WIDTH + 1)
        .fill('?')
        .join(', ')})`;
      this.stage = this.db.prepare(`insert into temp.import_stage (n, ${ROW_FIELDS.join(', ')}) values ${tuple}`);
      this.stageMany = this.db.prepare(
        `insert into temp.import_stage (n, ${ROW_FIELDS.join(', ')}) values ${Array(STAGE_ROWS).fill(tuple).join(', ')}`,
      );
      // a dry run writes nothing, so it compares with the store only (rows repeated inside the file count as created)
      this.countNew = this.db.prepare(`select count(*) from temp.import_stage s where ${NOT_STORED}`).pluck();
      this.insConsents = this.db
        .prepare(`insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at)
        select ${id(0)}, @tenant, s.user_id, s.data_point_id, s.granted, coalesce(s.granted_at, @now), s.revoked_at, s.consent_version, s.source, s.ip_address, s.user_agent, @now
        from temp.import_stage s where ${NOT_STORED} and ${NOT_EARLIER} order by s.n`);
      // a staged row was written when a consent with its id exists now (the ids are new in this batch); CROSS JOIN
      // keeps SQLite on the staged rows first, each looked up in the (tenant_id, id) index, which covers the join
      const written = `from temp.import_stage s cross join consent c on c.tenant_id = @tenant and c.id = ${id(0)}`;
      this.insGranted = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
        select ${id(1)}, @tenant, c.id, 'granted', s.consent_version, s.ip_address, s.user_agent, s.source, coalesce(s.granted_at, @now) ${written}`);
      this.insRevoked = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
        select ${id(2)}, @tenant, c.id, 'revoked', s.consent_version, null, null, null, s.revoked_at ${written} where s.revoked_at is not null`);
      this.clearStage = this.db.prepare('delete from temp.import_stage');
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  /** Gathers rows (handed over in small pieces, which die young in the garbage collector); writes once a batch is full. */
  add(rows: BatchValue[]): BatchResult | undefined {
    this.pending.push(rows);
    return this.pending.length >= this.o.batchPieces ? this.flush() : undefined;
  }

  /** Writes the gathered rows in one transaction. */
  flush(): BatchResult | undefined {
    if (this.pending.length === 0) return undefined;
    const pieces = this.pending;
    this.pending = [];
    return { pieces: pieces.length, ...this.write(pieces) };
  }

  /** Rows equal to a stored one (or to an earlier row of this batch) count as unchanged; the others are inserted. */
  private write(pieces: BatchValue[][]): Omit<BatchResult, 'pieces'> {
    const { tenant, now, dryRun } = this.o;
    let rows = 0;
    this.db.exec(dryRun ? 'BEGIN' : 'BEGIN IMMEDIATE');
    try {
      // STAGE_ROWS rows per statement: one call into SQLite per hundred rows instead of per row
      const many = STAGE_ROWS * ROW_WIDTH;
      const args: BatchValue[] = new Array(STAGE_ROWS * (ROW_WIDTH + 1));
      for (const batch of pieces) {
        let i = 0;
        for (; i + many <= batch.length; i += many) {
          for (let r = 0, a = 0; r < STAGE_ROWS; r++) {
            args[a++] = rows++;
            for (let f = 0, b = i + r * ROW_WIDTH; f < ROW_WIDTH; f++) args[a++] = batch[b + f]!;
          }
          this.stageMany.run(args);
        }
        for (; i < batch.length; i += ROW_WIDTH) this.stage.run(rows++, ...batch.slice(i, i + ROW_WIDTH));
      }
      let created: number;
      if (dryRun) created = this.countNew.get({ tenant, now }) as number;
      else {
        const prefix = this.ids.next().slice(0, 24);
        created = this.insConsents.run({ tenant, now, prefix }).changes;
        this.insGranted.run({ tenant, now, prefix });
        this.insRevoked.run({ tenant, prefix });
      }
      this.clearStage.run();
      this.db.exec(dryRun ? 'ROLLBACK' : 'COMMIT');
      this.created += created;
      return { created, unchanged: rows - created };
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Writes what is left and closes the connection. */
  finish(): BatchResult | undefined {
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
  | ({ type: 'done' } & BatchResult)
  | { type: 'closed' }
  | { type: 'error'; message: string; code?: string };

/** This module's own file, for starting it as a worker (only a built .js file can be; tests run the .ts sources). */
export const WRITER_URL = import.meta.url;
export const WRITER_ROLE = 'compliance-consents-import-writer';

// Started as a worker thread: gather the pieces the import thread sends and write them, one reply per transaction.
if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === WRITER_ROLE) {
  const port = parentPort;
  const fail = (e: unknown) =>
    port.postMessage({
      type: 'error',
      message: (e as Error).message ?? String(e),
      code: (e as { code?: string }).code,
    } satisfies FromWriter);
  let writer: ConsentBatchWriter | undefined;
  try {
    writer = new ConsentBatchWriter((workerData as { options: WriterOptions }).options);
    port.postMessage({ type: 'ready' } satisfies FromWriter);
  } catch (e) {
    fail(e);
  }
  const done = (r: BatchResult | undefined) => r && port.postMessage({ type: 'done', ...r } satisfies FromWriter);
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
