import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import { uuidv7Source } from '../ids.js';
import { sqliteEngine } from './sqlite-engine.js';
import { IMPORT_WRITER } from './thread-roles.js';
import {
  BATCH_QUERIES,
  BATCH_TABLES,
  batchEntry,
  createdGroups,
  batchParams,
  groupJson,
  APPEND_ENTRY,
  HEAD_QUERY,
  REGISTER_TENANT,
  JOURNAL_COLUMNS,
  RUN_QUERY,
  type BatchTable,
} from '../journal/import-batch.js';
import type { ChainHead } from '../journal/journal-writer.js';
import {
  changeId,
  COUNTER_SEEDS,
  countOf,
  decideChecks,
  passesOf,
  ROW_FIELDS,
  ROW_WIDTH,
  type BatchResult,
  type BatchValue,
  type Affirmation,
  type CheckRow,
  type ImportWriterOptions,
  type Refusal,
  RUN_COLUMNS,
  runCounts,
  runReverted,
} from '../consent-import-rows.js';

export { ROW_FIELDS, ROW_WIDTH, type BatchResult, type BatchValue };

export interface WriterOptions extends ImportWriterOptions {
  file: string;
}

/** Rows per statement when a batch is copied into the staging table. */
const STAGE_ROWS = 100;

/** Columns of the staging table: the row's position `n`, its pass (passesOf), then ROW_FIELDS. */
const STAGE_COLUMNS = `n integer primary key, pass integer, ${ROW_FIELDS.join(', ')}`;
/**
 * What the rows of the current pass do: a narrow table of its own, as writing an action into the wide staged rows
 * cost more than the rest of a re-import (measured: 5 µs a row).
 */
const ACTION_COLUMNS = 'n integer primary key, action text not null';
/** The changes the decided rows of a pass make to stored consents: revocations and renewals, each with its entry's id. */
const CHANGE_COLUMNS =
  'id text primary key, n integer not null, kind text not null, target text not null, at text not null, version text not null';

/** The stored consents of a staged row's user and data point, `c` for the row `s`. */
const SAME_USER = `c.tenant_id = @tenant and c.user_id = s.user_id and c.data_point_id = s.data_point_id`;
/**
 * ... that the row matches (import-match.ts): the same granted and consent_version, and the same granted_at when the
 * row has one, and is equal to: the same revocation, and every value the row gives.
 */
const EQUAL = `(c.granted = s.granted and c.consent_version = s.consent_version
  and (s.granted_at is null or c.granted_at = s.granted_at) and c.revoked_at is s.revoked_at
  and (s.source is null or c.source is s.source)
  and (s.ip_address is null or c.ip_address is s.ip_address) and (s.user_agent is null or c.user_agent is s.user_agent))`;
/**
 * A row's action against the store: `create` when its user has no consent on its data point, `unchanged` when one of
 * them equals it (an import run again), else `check`: decided in JS by the rule of one decision in force
 * (import-match.ts). One walk over the user index per row, which most often finds nothing or one consent.
 */
const CLASSIFY = `coalesce((select max(case when ${EQUAL} then 'unchanged' else 'check' end)
  from consent c indexed by consent_tenant_user where ${SAME_USER}), 'create')`;
/**
 * Ids are UUIDv7 with a dedicated counter (RFC 9562, 6.2 method 1): each batch takes the first 24 characters of a
 * fresh time-ordered id (timestamp, sequence, variant) and counts in the last 48 bits, three ids per row (the consent,
 * its `granted` entry, its `revoked` entry), then one per change to a stored consent (changeId), so a batch's ids are
 * unique, ordered, and made inside SQLite (the changes' in JS). The counter starts at a random value below 2^47 (the RFC's seeding, its top
 * bit kept clear against rollover), so the ends of ids differ between batches as those of other ids do: short ids are
 * the last 8 characters.
 */
const id = (k: 0 | 1 | 2) => `printf('%s%012x', @prefix, @start + 3 * s.n + ${k})`;

/** The staged rows of a pass that the store does not decide alone, each with every consent of its user and data point. */
const CHECKED = `temp.import_action a join temp.import_stage s on s.n = a.n
  join consent c indexed by consent_tenant_user on ${SAME_USER} where a.action = 'check'`;
const CHECKS = `select s.n, s.granted, s.granted_at, s.revoked_at, s.consent_version, s.source, s.ip_address, s.user_agent,
    c.id as c_id, c.granted as c_granted, c.granted_at as c_granted_at, c.revoked_at as c_revoked_at,
    c.consent_version as c_consent_version, c.source as c_source, c.ip_address as c_ip_address,
    c.user_agent as c_user_agent
  from ${CHECKED} order by s.n, c.id`;
/** ... and the entries where the user said yes on those that are grants (the history's key begins with the consent). */
const AFFIRMATIONS = `select h.consent_id, h.created_at, h.consent_version from consent_history h
  where h.consent_id in (select c.id from ${CHECKED} and c.granted = 1) and h.tenant_id = @tenant
    and h.action in ('granted', 'renewed', 'version_update')`;

/**
 * Writes batches of validated consent rows with their history, one transaction per batch, on a connection of its own.
 * A batch is copied into a staging table; one statement gives each row its action against the store (import-match.ts):
 * new (its user has no consent on its data point), unchanged (one equals it), or to be checked (decided in JS by the
 * rule of one decision in force: created, revoking or renewing the grant in force, or refused). Set-based statements
 * then write the consents with their `granted` and `revoked` entries, keeping to the rules of a consent created
 * through the API (`newConsent`; the contract suite compares the two), and revoke or renew the stored consents the
 * rows change. A row of a user and data point an earlier row of the batch has comes in a later pass. Each batch is
 * written in one synchronous stretch (BEGIN IMMEDIATE … COMMIT), so a transaction never stays open across an await: a
 * killed run leaves whole batches, and a server sharing the file never waits on a half-done one.
 */
export class ConsentBatchWriter {
  private readonly db: Database.Database;
  private readonly stage: Database.Statement;
  private readonly stageMany: Database.Statement;
  private readonly classify: Database.Statement;
  private readonly actions: Database.Statement;
  private readonly checks: Database.Statement;
  private readonly affirmations: Database.Statement;
  private readonly decide: Database.Statement;
  private readonly setRevokedAt: Database.Statement;
  private readonly addChange: Database.Statement;
  private readonly clearChanges: Database.Statement;
  private readonly renewStored: Database.Statement;
  private readonly insRenewals: Database.Statement;
  private readonly insConsents: Database.Statement;
  private readonly insGranted: Database.Statement;
  private readonly insRevoked: Database.Statement;
  private readonly revokeStored: Database.Statement;
  private readonly insRevocations: Database.Statement;
  private readonly insRun: Database.Statement;
  private readonly countRun: Database.Statement;
  private readonly clearActions: Database.Statement;
  private readonly clearStage: Database.Statement;
  /** The statements that read a batch's rows for its journal entry, and the journal's. */
  private readonly batchRows: Array<{ q: (typeof BATCH_QUERIES)[number]; stmt: Database.Statement }>;
  private readonly runRow: Database.Statement;
  private readonly createdNumbers: Database.Statement;
  private readonly columns: Record<BatchTable, string[]>;
  private readonly head: Database.Statement;
  private readonly append: Database.Statement;
  private readonly register: Database.Statement;
  /** Prefixes come from time-ordered ids whatever source the caller uses: the id layout above depends on it. */
  private readonly ids = uuidv7Source();
  private created = 0;
  private runRecorded = false;
  /** Whether a batch entry holds the run's record yet (later ones update it). */
  private journaled = false;
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
        create temp table import_action (${ACTION_COLUMNS});
        create temp table import_change (${CHANGE_COLUMNS});`);
      const tuple = `(${Array(ROW_WIDTH + 2)
        .fill('?')
        .join(', ')})`;
      const columns = `n, pass, ${ROW_FIELDS.join(', ')}`;
      this.stage = this.db.prepare(`insert into temp.import_stage (${columns}) values ${tuple}`);
      this.stageMany = this.db.prepare(
        `insert into temp.import_stage (${columns}) values ${Array(STAGE_ROWS).fill(tuple).join(', ')}`,
      );
      this.classify = this.db.prepare(
        `insert into temp.import_action (n, action) select s.n, ${CLASSIFY} from temp.import_stage s where s.pass = @pass`,
      );
      this.actions = this.db.prepare('select action, count(*) as n from temp.import_action group by action');
      this.checks = this.db.prepare(CHECKS);
      this.affirmations = this.db.prepare(AFFIRMATIONS);
      // the decisions of a pass arrive as one JSON array each: one statement instead of one per row
      const each = (fields: string[]) =>
        `select ${fields.map((f, i) => `j.value ->> ${i} as ${f}`).join(', ')} from json_each(@rows) j`;
      this.decide = this.db.prepare(`update temp.import_action set action = d.action
        from (${each(['n', 'action'])}) d where import_action.n = d.n`);
      this.setRevokedAt = this.db.prepare(`update temp.import_stage set revoked_at = d.revoked_at
        from (${each(['n', 'revoked_at'])}) d where import_stage.n = d.n`);
      this.addChange = this.db.prepare(`insert into temp.import_change (id, n, kind, target, at, version)
        ${each(['id', 'n', 'kind', 'target', 'at', 'version'])}`);
      this.clearChanges = this.db.prepare('delete from temp.import_change');
      const mine = `from temp.import_action a join temp.import_stage s on s.n = a.n where a.action = 'create'`;
      this.insConsents = this.db
        .prepare(`insert into consent (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at, import_run_id)
        select ${id(0)}, @tenant, s.user_id, s.data_point_id, s.granted, coalesce(s.granted_at, @now), s.revoked_at, s.consent_version, s.source, s.ip_address, s.user_agent, @now, @run
        ${mine} order by s.n`);
      this.insGranted = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id)
        select ${id(1)}, @tenant, ${id(0)}, 'granted', s.consent_version, s.ip_address, s.user_agent, s.source, coalesce(s.granted_at, @now), @run ${mine}`);
      this.insRevoked = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id)
        select ${id(2)}, @tenant, ${id(0)}, 'revoked', s.consent_version, null, null, null, s.revoked_at, @run ${mine} and s.revoked_at is not null`);
      // a change to a stored consent is an entry of its own, its source `import` (a revert finds the run's by it)
      this.revokeStored = this.db.prepare(`update consent set revoked_at = ch.at from temp.import_change ch
        where ch.kind = 'revoke' and consent.tenant_id = @tenant and consent.id = ch.target and consent.revoked_at is null`);
      this.insRevocations = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id)
        select ch.id, @tenant, ch.target, 'revoked', c.consent_version, null, null, 'import', ch.at, @run
        from temp.import_change ch join consent c on c.tenant_id = @tenant and c.id = ch.target where ch.kind = 'revoke'`);
      this.renewStored = this.db.prepare(`update consent set consent_version = ch.version from temp.import_change ch
        where ch.kind = 'renew' and consent.tenant_id = @tenant and consent.id = ch.target`);
      this.insRenewals = this.db
        .prepare(`insert into consent_history (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id)
        select ch.id, @tenant, ch.target, 'version_update', ch.version, s.ip_address, s.user_agent, 'import', ch.at, @run
        from temp.import_change ch join temp.import_stage s on s.n = ch.n where ch.kind = 'renew'`);
      this.insRun = this.db.prepare(`insert into consent_import_run (${RUN_COLUMNS.join(', ')})
        values (${RUN_COLUMNS.map((c) => `@${c}`).join(', ')})`);
      this.countRun = this.db.prepare(`update consent_import_run set read = read + @read, created = created + @created,
          unchanged = unchanged + @unchanged, revoked = revoked + @revoked, renewed = renewed + @renewed,
          rejected = rejected + @rejected
        where tenant_id = @tenant_id and id = @id and status = 'running'`);
      const columnsOf = (table: string) =>
        this.db
          .prepare(`select * from ${table} limit 0`)
          .columns()
          .map((c) => c.name);
      this.columns = Object.fromEntries(BATCH_TABLES.map((t) => [t, columnsOf(t)])) as Record<BatchTable, string[]>;
      const json = (sql: string, table: BatchTable) =>
        this.db.prepare(sqliteEngine.jsonRows(sql, this.columns[table])).pluck();
      this.batchRows = BATCH_QUERIES.map((q) => ({ q, stmt: json(q.sql, q.entity) }));
      this.runRow = json(RUN_QUERY, 'consent_import_run');
      // the rows a pass creates consents of: insConsents inserts one for each, its id made of its number
      this.createdNumbers = this.db.prepare(`select n from temp.import_action where action = 'create'`).pluck();
      this.head = this.db.prepare(HEAD_QUERY);
      this.append = this.db.prepare(APPEND_ENTRY);
      this.register = this.db.prepare(REGISTER_TENANT);
      this.clearActions = this.db.prepare('delete from temp.import_action');
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

  /**
   * Gives every row of the batch its action against the store and writes what it says, pass after pass (passesOf; a
   * dry run makes one pass and writes nothing).
   */
  private write(pieces: BatchValue[][]): Omit<BatchResult, 'pieces'> {
    const { tenant, now, dryRun } = this.o;
    const run = this.o.run?.id ?? null;
    let rows = 0;
    this.db.exec(dryRun ? 'BEGIN' : 'BEGIN IMMEDIATE');
    try {
      // STAGE_ROWS rows per statement: one call into SQLite per hundred rows instead of per row
      const many = STAGE_ROWS * ROW_WIDTH;
      const args: BatchValue[] = new Array(STAGE_ROWS * (ROW_WIDTH + 2));
      const { passes, last } = passesOf(pieces, dryRun);
      for (const batch of pieces) {
        let i = 0;
        for (; i + many <= batch.length; i += many) {
          for (let r = 0, a = 0; r < STAGE_ROWS; r++) {
            args[a++] = rows;
            args[a++] = passes[rows++]!;
            for (let f = 0, b = i + r * ROW_WIDTH; f < ROW_WIDTH; f++) args[a++] = batch[b + f]!;
          }
          this.stageMany.run(args);
        }
        for (; i < batch.length; i += ROW_WIDTH) {
          this.stage.run(rows, passes[rows]!, ...batch.slice(i, i + ROW_WIDTH));
          rows++;
        }
      }
      const prefix = this.ids.next().slice(0, 24);
      const seed = randomInt(COUNTER_SEEDS);
      const start = BigInt(seed);
      const result = { created: 0, unchanged: 0, revoked: 0, renewed: 0, refused: [] as Refusal[] };
      let changes = 0;
      // the numbers of the staged rows whose consents the batch created, for its journal entry
      const creations: number[] = [];
      for (let pass = 1; pass <= last; pass++) {
        if (pass > 1) this.clearActions.run();
        this.classify.run({ tenant, pass });
        const counts = new Map(
          (this.actions.all() as Array<{ action: string; n: number }>).map((r) => [r.action, r.n]),
        );
        result.created += counts.get('create') ?? 0;
        result.unchanged += counts.get('unchanged') ?? 0;
        let creating = (counts.get('create') ?? 0) > 0;
        let changing = false;
        if (counts.get('check')) {
          const checked = this.checks.all({ tenant }) as CheckRow[];
          const decisions = decideChecks(checked, this.affirmations.all({ tenant }) as Affirmation[], now);
          this.clearChanges.run();
          const created: unknown[][] = [];
          const changed: unknown[][] = [];
          for (const d of decisions) {
            const count = countOf(d);
            if (count === 'refused') result.refused.push({ n: d.n, reason: d.reason! });
            else result[count]++;
            if (d.action === 'create') created.push([d.n, d.revoked_at ?? null]);
            for (const c of d.changes)
              changed.push([changeId(prefix, seed, rows, changes++), c.n, c.kind, c.target, c.at, c.version]);
          }
          this.decide.run({ rows: JSON.stringify(decisions.map((d) => [d.n, d.action])) });
          if (created.length) this.setRevokedAt.run({ rows: JSON.stringify(created) });
          if (changed.length) this.addChange.run({ rows: JSON.stringify(changed) });
          creating ||= created.length > 0;
          changing = changed.length > 0;
        }
        if (!dryRun) {
          if (creating) {
            this.insConsents.run({ tenant, now, prefix, start, run });
            this.insGranted.run({ tenant, now, prefix, start, run });
            this.insRevoked.run({ tenant, prefix, start, run });
            if (this.o.journal) for (const n of this.createdNumbers.all() as number[]) creations.push(n);
          }
          if (changing) {
            this.revokeStored.run({ tenant });
            this.insRevocations.run({ tenant, run });
            this.renewStored.run({ tenant });
            this.insRenewals.run({ tenant, run });
          }
        }
      }
      if (!dryRun) {
        this.count(rows, result);
        // passes create in turn, so their rows' numbers interleave: the entry holds them in order
        creations.sort((a, b) => a - b);
        this.journalBatch(prefix, Number(start), pieces, creations);
      }
      this.clearActions.run();
      this.clearChanges.run();
      this.clearStage.run();
      this.db.exec(dryRun ? 'ROLLBACK' : 'COMMIT');
      this.created += result.created;
      return result;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Records the run with this batch's counts (its first batch inserts it); refuses a run reverted meanwhile. */
  private count(rows: number, r: Omit<BatchResult, 'pieces'>): void {
    const run = this.o.run;
    if (!run) return;
    const counts = runCounts(rows, r);
    if (!this.runRecorded) {
      this.insRun.run({ ...run, ...counts });
      this.runRecorded = true;
    } else if (this.countRun.run({ tenant_id: run.tenant_id, id: run.id, ...counts }).changes !== 1)
      throw runReverted(run.id);
  }

  /**
   * The batch's journal entry: the consents it created with their history as its staged rows (createdGroups), the
   * revocations and the run's record read back by the range of their ids, appended to the tenant's chain in the
   * batch's transaction (SQLite's write lock orders it with every other writer's entries).
   */
  private journalBatch(prefix: string, start: number, pieces: BatchValue[][], created: number[]): void {
    const { journal, run, tenant, now } = this.o;
    if (!journal || !run) return;
    const made = createdGroups(tenant, now, run.id, this.columns, { pieces, prefix, start, created });
    const groups = [
      ...made.groups,
      ...this.batchRows.map(({ q, stmt }) =>
        groupJson(q.entity, q.op, this.columns[q.entity], stmt.get(batchParams(tenant, run.id, prefix, q)) as string),
      ),
    ];
    const runRow = this.runRow.get(tenant, run.id) as string;
    groups.push(
      groupJson('consent_import_run', this.journaled ? 'update' : 'insert', this.columns.consent_import_run, runRow),
    );
    this.journaled = true;
    const head = this.head.get(tenant) as ChainHead | undefined;
    const entry = batchEntry(tenant, run.id, head, journal, this.ids.next(), groups, made.staged);
    if (!head) this.register.run(tenant, entry.time);
    this.append.run(JOURNAL_COLUMNS.map((c) => entry[c]));
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

/** The file a worker thread starts: built, the program's loader, which hands the thread its role (store/worker-threads.ts). */
export const WRITER_URL = import.meta.url;
export const WRITER_ROLE = IMPORT_WRITER;

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
