import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { APP_ROLE } from '../../../migrations/dialect.js';
import {
  ROW_FIELDS,
  ROW_WIDTH,
  type BatchResult,
  type BatchValue,
  type ConsentImportWriter,
  type ImportWriterOptions,
} from '../consent-import-rows.js';
import { uuidv7Source } from '../ids.js';

/** Columns of the staging table, in ROW_FIELDS order, after the row's position `n`; text compares as on SQLite. */
const STAGE_TABLE = `create temp table import_stage (
    n integer not null,
    user_id text collate "C" not null,
    data_point_id text collate "C" not null,
    granted integer not null,
    granted_at text collate "C",
    revoked_at text collate "C",
    consent_version text collate "C" not null,
    source text collate "C",
    ip_address text collate "C",
    user_agent text collate "C"
  ) on commit delete rows`;
const COPY = `copy import_stage (n, ${ROW_FIELDS.join(', ')}) from stdin`;

/**
 * A staged row `s` equal to a stored consent of the tenant ($1): the same user_id, data_point_id, granted and
 * consent_version, and the same granted_at when the row has one (a row without granted_at, which takes the import's
 * time, equals such a consent of any time). The same rule as the SQLite writer's.
 * Each staged row is looked up in the user index (a few microseconds): `offset 0` keeps PostgreSQL from turning this
 * into a hash join, which would read every consent of the tenant once per batch (measured: 37 ms against 190 ms for
 * 10,000 rows against 200,000 stored, growing with the store).
 */
const NOT_STORED = `not exists (select 1 from consent c
    where c.tenant_id = $1::text and c.user_id = s.user_id and c.data_point_id = s.data_point_id and c.granted = s.granted
      and c.consent_version = s.consent_version and (s.granted_at is null or c.granted_at = s.granted_at) offset 0)`;
/** ... or equal, in the same sense, to an earlier row of the same batch (which is written first); $2 is now. */
const NOT_EARLIER = `not exists (select 1 from import_stage p
    where p.user_id = s.user_id and p.data_point_id = s.data_point_id and p.n < s.n and p.granted = s.granted
      and p.consent_version = s.consent_version and (s.granted_at is null or coalesce(p.granted_at, $2::text) = s.granted_at))`;

/** Ids as on SQLite: the first 24 characters of a fresh UUIDv7 per batch ($3), then 3 × n + k in 12 hex digits. */
const id = (k: 0 | 1 | 2) => `$3::text || lpad(to_hex(3 * s.n + ${k}), 12, '0')`;

/**
 * One statement per batch: the new rows (neither stored nor repeated earlier in the batch), the consents, their
 * `granted` entries and their `revoked` entries, keeping to the rules of a consent created through the API
 * (`newConsent`). Every part sees the same snapshot, so `fresh` is computed once, before anything is inserted.
 */
const WRITE = `with fresh as materialized (
    select * from import_stage s where ${NOT_STORED} and ${NOT_EARLIER}
  ), consents as (
    insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at)
    select ${id(0)}, $1, s.user_id, s.data_point_id, s.granted, coalesce(s.granted_at, $2), s.revoked_at, s.consent_version, s.source, s.ip_address, s.user_agent, $2
    from fresh s order by s.n
  ), granted as (
    insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
    select ${id(1)}, $1, ${id(0)}, 'granted', s.consent_version, s.ip_address, s.user_agent, s.source, coalesce(s.granted_at, $2)
    from fresh s
  ), revoked as (
    insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
    select ${id(2)}, $1, ${id(0)}, 'revoked', s.consent_version, null, null, null, s.revoked_at
    from fresh s where s.revoked_at is not null
  )
  select count(*)::integer as created from fresh`;
/** A dry run writes nothing, so it compares with the store only (rows repeated inside the file count as created). */
const COUNT_NEW = `select count(*)::integer as created from import_stage s where ${NOT_STORED}`;

/** COPY's text format: backslash, tab, newline and carriage return escaped; null is \N. */
const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const cell = (v: BatchValue): string =>
  v === null
    ? '\\N'
    : typeof v === 'number'
      ? String(v)
      : SPECIAL.test(v)
        ? v.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!)
        : v;

/**
 * Writes validated consent rows into PostgreSQL, the counterpart of the SQLite writer with the same rules and
 * results. Each batch is one transaction on a connection of its own: `COPY … FROM STDIN` into a temporary staging
 * table, then one set-based statement. Writing runs in the database server while this thread parses the next batch
 * (at most two batches wait), so parsing and writing overlap without a worker thread, and memory stays flat.
 * A killed run leaves whole batches (the server rolls back the open one); running it again completes it.
 */
export class PostgresConsentWriter implements ConsentImportWriter {
  private readonly ids = uuidv7Source();
  private created = 0;
  private pending: BatchValue[][] = [];
  private writing: Promise<void> = Promise.resolve();
  private queued = 0;
  private error: unknown;
  private waiters: Array<() => void> = [];
  private analyzeAt = 10_000;

  private constructor(
    private readonly client: pg.Client,
    private readonly o: ImportWriterOptions,
    private readonly onBatch: (r: BatchResult) => void,
  ) {}

  /**
   * Connects as the store's owner role, then acts as the application role inside the tenant's row-level-security
   * scope, like every request; the temporary staging table lives as long as the connection.
   */
  static async start(
    url: string,
    o: ImportWriterOptions,
    onBatch: (r: BatchResult) => void,
  ): Promise<PostgresConsentWriter> {
    const client = new pg.Client({
      connectionString: url,
      application_name: 'compliance import',
      connectionTimeoutMillis: 5000,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // jit off: compiling a batch's statement costs more than running it (measured: 0.5 s against 0.15 s)
      await client.query(`set role ${APP_ROLE}; set jit = off`);
      await client.query(`select set_config('app.tenant', $1, false)`, [o.tenant]);
      await client.query(STAGE_TABLE);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    return new PostgresConsentWriter(client, o, onBatch);
  }

  /** Hands over a piece of rows without waiting; throws the writer's error if it has failed. */
  post(rows: BatchValue[]): void {
    if (this.error) throw this.error;
    this.pending.push(rows);
    if (this.pending.length >= this.o.batchPieces) this.flush();
  }

  /** Resolves once the writer has room again (at most two batches waiting). */
  async ready(): Promise<void> {
    while (!this.error && this.queued >= 2) await new Promise<void>((r) => this.waiters.push(r));
    if (this.error) throw this.error;
  }

  /** Writes what is left and closes the connection. */
  async finish(): Promise<void> {
    this.flush();
    await this.writing;
    await this.close();
    if (this.error) throw this.error;
  }

  /** Stops after a failure on the reading side: the batch being written completes, what is gathered is dropped. */
  async abort(): Promise<void> {
    this.pending = [];
    await this.writing;
    await this.close();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const pieces = this.pending;
    this.pending = [];
    this.queued++;
    // batches are written one after another on the one connection
    this.writing = this.writing.then(async () => {
      try {
        if (!this.error) {
          const r = await this.write(pieces);
          this.created += r.created;
          this.onBatch(r);
        }
      } catch (e) {
        this.error ??= e;
      } finally {
        this.queued--;
        for (const w of this.waiters.splice(0)) w();
      }
    });
  }

  private async write(pieces: BatchValue[][]): Promise<BatchResult> {
    const { tenant, now, dryRun } = this.o;
    const c = this.client;
    if (this.created >= this.analyzeAt) {
      // the table outgrows its statistics during an import; a planner that believes it small looks rows up in the
      // statistics index instead of the user index, a scan per staged row (measured: batches slowing from 0.2 s to
      // 16 s until autovacuum came round). Fresh statistics each time the import has doubled what it wrote keep the
      // plan right at a cost of a few sampled pages; ANALYZE needs the owner.
      await c.query(`reset role; analyze consent; set role ${APP_ROLE}`);
      this.analyzeAt *= 2;
    }
    await c.query('begin');
    try {
      // imports of one tenant take turns, as SQLite's write lock makes them, so two runs of one file at the same time
      // cannot both find a row new; other writers are not held up
      await c.query(`select pg_advisory_xact_lock(hashtext('compliance consent import'), hashtext($1))`, [tenant]);
      const rows = await this.copy(pieces);
      const prefix = this.ids.next().slice(0, 24);
      const { rows: result } = dryRun
        ? await c.query<{ created: number }>(COUNT_NEW, [tenant])
        : await c.query<{ created: number }>(WRITE, [tenant, now, prefix]);
      await c.query(dryRun ? 'rollback' : 'commit');
      const created = result[0]!.created;
      return { pieces: pieces.length, created, unchanged: rows - created };
    } catch (e) {
      await c.query('rollback').catch(() => undefined);
      throw e;
    }
  }

  /** Streams the batch into the staging table; answers the number of rows. */
  private async copy(pieces: BatchValue[][]): Promise<number> {
    const stream = this.client.query(copyFrom(COPY));
    const done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
    });
    let n = 0;
    for (const piece of pieces) {
      let text = '';
      for (let i = 0; i < piece.length; i += ROW_WIDTH) {
        text += n++;
        for (let f = 0; f < ROW_WIDTH; f++) text += '\t' + cell(piece[i + f]!);
        text += '\n';
      }
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
    }
    stream.end();
    await done;
    return n;
  }

  private async close(): Promise<void> {
    try {
      // after a large import: fresh statistics for the planner, and the visibility map set on the new pages, so the
      // statistics route reads its covering indexes without visiting the table (autovacuum would do both, later);
      // as the owner, which VACUUM needs, and outside a transaction block, which it needs too
      if (this.created > 10_000 && !this.error) {
        await this.client.query('reset role');
        await this.client.query('vacuum (analyze) consent');
      }
    } catch {
      // an optimisation only; autovacuum comes round too
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}
