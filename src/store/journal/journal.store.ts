import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import {
  CHAIN_FORMAT,
  GENESIS_HASH,
  ORIGIN_FORMAT,
  type ChainLookup,
  type StoredEntry,
} from '../../domain/journal/chain.js';
import type { ChainCheck, JournalStore, TrailSnapshot, TrailTable } from '../../domain/journal/journal-store.port.js';
import type { DB, JournalRow } from '../db-types.js';
import { engineFor } from '../engine.js';
import type { TrailColumns } from '../../domain/journal/trails.js';
import { readHead } from './journal-head.js';
import { readTrailSnapshot, type SnapshotOptions } from './trail-snapshot.js';
import { preimageEntry, type VerifyThreads } from './verify-jobs.js';
import type { Store } from '../store.js';

/**
 * The entries of a chain, or the rows of an audit trail, from which a verification reads them on threads of their
 * own (COMPLIANCE_VERIFY_THREAD_ROWS): below it, starting a thread costs more than it saves.
 */
export const VERIFY_THREAD_ROWS = 50_000;

/** How a verification may read beside the calling thread (the store's VerifyThreads), and from what size. */
export interface VerifyOptions {
  threads?: () => Promise<VerifyThreads | undefined>;
  threadRows?: number;
}

/** PostgreSQL returns bigint as a number through the store's type parser; SQLite has integers anyway. */
const entry = (r: JournalRow): StoredEntry => ({ ...r, seq: Number(r.seq) });

/**
 * The journal read with kysely's builders on either engine: by primary key (tenant_id, seq). On the application's
 * connection a tenant sees its own chain only; `audit verify` reads through the owner's, which sees every chain.
 * Every query on the journal outside its appenders (journal-writer.ts, import-batch.ts) is here: the page (audit
 * verify, the journal route, sync's pull and status, events), the head, and the few lookups sync and dsfa need.
 */
export class KyselyJournalStore implements JournalStore {
  /** Where the engine builds JSON as JSON.stringify does (Engine.jsonArrayText): pages with each entry's hashed text. */
  readonly verifyPage?: JournalStore['verifyPage'];
  /** Where the store also has threads to read with (VerifyThreads): the chain in ranges side by side. */
  readonly checkChain?: JournalStore['checkChain'];
  private readonly snapshotOptions: SnapshotOptions;
  private columns?: Promise<Map<string, string[]>>;

  constructor(
    private readonly db: Kysely<DB>,
    opts: VerifyOptions = {},
  ) {
    const jsonArray = engineFor(db).jsonArrayText;
    const { threads, threadRows = VERIFY_THREAD_ROWS } = opts;
    this.snapshotOptions = { jsonArray, threads, threadRows };
    if (!jsonArray) return;
    this.verifyPage = async (tenant, after, limit) =>
      (await this.preimageQuery(jsonArray, tenant, after).limit(limit).execute()).map((r) => preimageEntry(tenant, r));
    if (!threads) return;
    this.checkChain = (tenant, trails, anchor, tally) =>
      this.checkInRanges(jsonArray, threads, threadRows, tenant, trails, anchor, tally);
  }

  /**
   * A tenant's entries after `after` (up to `to`) for a verification, each with the text its hash covers built by
   * the database (the verifier hashes it as it is, and reads an entry whole only where the texts differ: control
   * characters), without the five fields that text holds. Reading those as strings of their own cost more than hashing
   * (measured over 1M entries on SQLite: 7.0 s whole entries, 4.4 s this way).
   */
  private preimageQuery(
    jsonArray: (items: readonly Expression<unknown>[]) => RawBuilder<string>,
    tenant: string,
    after: number,
    to?: number,
  ) {
    const head = ['tenant_id', 'seq', 'txn', 'time', 'actor', 'principal'] as const;
    const tail = ['entity', 'entity_id', 'op', 'data_hash', 'prev_hash'] as const;
    const text = (format: number, ...columns: string[]) =>
      jsonArray([sql.lit(format), ...columns.map((c) => sql.ref(c))]);
    let q = this.db
      .selectFrom('journal')
      .select(['seq', 'prev_hash', 'hash', 'data_hash', 'entity', 'entity_id', 'op', 'data'])
      .select((eb) =>
        eb
          .case()
          .when('origin', 'is', null)
          .then(text(CHAIN_FORMAT, ...head, ...tail))
          .else(text(ORIGIN_FORMAT, ...head, 'origin', ...tail))
          .end()
          .as('preimage'),
      )
      .where('tenant_id', '=', tenant)
      .where('seq', '>', after);
    if (to !== undefined) q = q.where('seq', '<=', to);
    return q.orderBy('seq');
  }

  /**
   * The chain in as many ranges as the machine has cores, each checked on a thread of its own (which also digests the
   * trail rows its entries write), and the ranges' ends matched: the first links to the start of the chain, each next
   * one to the last entry of the one before. Undefined where the chain is shorter than `threadRows` entries (one thread
   * is quicker than starting others; a short chain of large batches is walked here while its trails are read on a
   * thread of their own: measured on two cores, ranges were slower for it), where threads cannot run here, and where
   * any range or end does not hold.
   */
  private async checkInRanges(
    jsonArray: (items: readonly Expression<unknown>[]) => RawBuilder<string>,
    threads: () => Promise<VerifyThreads | undefined>,
    threadRows: number,
    tenant: string,
    trails: TrailColumns,
    anchor: string | undefined,
    tally: string | undefined,
  ): Promise<ChainCheck | undefined> {
    const end = (await this.head(tenant))?.seq ?? 0;
    const runner = end >= threadRows ? await threads() : undefined;
    if (!runner) return undefined;
    // node:os loaded here: every command opens this store, few verify
    const parts = Math.max(2, Math.min(process.getBuiltinModule('node:os').availableParallelism(), 8));
    const ranges = Array.from({ length: parts }, (_, i) => [
      Math.floor((end * i) / parts),
      Math.floor((end * (i + 1)) / parts),
    ]);
    // a thread that fails (the file gone, memory short) leaves the chain to the walk on one thread, as a break does
    const results = await Promise.all(
      ranges.map(([after, to]) => {
        const q = this.preimageQuery(jsonArray, tenant, after!, to).compile();
        return runner.run({ kind: 'chain', sql: q.sql, parameters: q.parameters, tenant, anchor, trails, tally });
      }),
    ).catch(() => []);
    if (results.length !== parts) return undefined;
    let head = { seq: 0, hash: GENESIS_HASH };
    const check: ChainCheck = { count: 0, head, trailOps: [] };
    for (const [i, r] of results.entries()) {
      const [after, to] = ranges[i]!;
      if (!r?.ok || r.first?.seq !== after! + 1 || r.first.prev !== head.hash || r.last?.seq !== to) return undefined;
      check.count += r.count;
      check.head = head = r.last;
      for (const op of r.ops) check.trailOps.push(op);
      if (r.anchored !== undefined) check.anchored ??= r.anchored;
    }
    return check;
  }

  async page(tenant: string, after: number, limit: number): Promise<StoredEntry[]> {
    const rows = await this.db
      .selectFrom('journal')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(entry);
  }

  /**
   * The last entry of a tenant's chain. Read before every append, so written as SQL of one text per engine (prepared
   * once on SQLite) rather than built and compiled by kysely for each write.
   */
  head(tenant: string): Promise<{ seq: number; hash: string } | undefined> {
    return readHead(this.db, tenant);
  }

  /** The entries before `below`, newest first, without their data (which may run to megabytes). */
  async headersBefore(tenant: string, below: number, limit: number) {
    const rows = await this.db
      .selectFrom('journal')
      .select(['seq', 'entity', 'entity_id', 'op'])
      .where('tenant_id', '=', tenant)
      .where('seq', '<', below)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** The data of one entry. */
  async dataAt(tenant: string, seq: number): Promise<string | null> {
    const r = await this.db
      .selectFrom('journal')
      .select('data')
      .where('tenant_id', '=', tenant)
      .where('seq', '=', seq)
      .executeTakeFirstOrThrow();
    return r.data;
  }

  /** The entries after `after` that no sync wrote (principal `sync:…`): the changes made here. */
  async changesBesides(tenant: string, after: number) {
    const rows = await this.db
      .selectFrom('journal')
      .select(['seq', 'entity', 'entity_id', 'op', 'data'])
      .where('tenant_id', '=', tenant)
      .where('seq', '>', after)
      .where('principal', 'not like', 'sync:%')
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** Who changed a record last, and when. */
  lastChange(tenant: string, entity: string, id: string): Promise<{ actor: string; time: string } | undefined> {
    return this.db
      .selectFrom('journal')
      .select(['actor', 'time'])
      .where('tenant_id', '=', tenant)
      .where('entity', '=', entity)
      .where('entity_id', '=', id)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every entry of one record, oldest first: who wrote it and what (by the partial index of migration 0023). */
  recordEntries(
    tenant: string,
    entity: 'dsfa',
    id: string,
  ): Promise<Array<{ principal: string; data: string | null }>> {
    return (
      this.db
        .selectFrom('journal')
        .select(['principal', 'data'])
        .where('tenant_id', '=', tenant)
        // a literal, so both engines take the partial index of migration 0023
        .where('entity', '=', sql.lit(entity))
        .where('entity_id', '=', id)
        .orderBy('seq')
        .execute()
    );
  }

  async tenants(): Promise<string[]> {
    const rows = await this.db.selectFrom('journal').select('tenant_id').distinct().orderBy('tenant_id').execute();
    return rows.map((r) => r.tenant_id);
  }

  lookup(tenant: string): ChainLookup {
    const first = async (column: 'hash' | 'prev_hash', value: string) => {
      const row = await this.db
        .selectFrom('journal')
        .select('seq')
        .where('tenant_id', '=', tenant)
        .where(column, '=', value)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      return row && Number(row.seq);
    };
    return { seqOfHash: (h) => first('hash', h), seqLinkingTo: (h) => first('prev_hash', h) };
  }

  trailSnapshot(tenant: string, trails: TrailColumns, tally?: string): Promise<{ read: Promise<TrailSnapshot> }> {
    return readTrailSnapshot(this.db, tenant, trails, this.snapshotOptions, tally);
  }

  async trailColumns(table: TrailTable): Promise<string[]> {
    this.columns ??= this.db.introspection
      .getTables()
      .then((tables) => new Map(tables.map((t) => [t.name, t.columns.map((c) => c.name)])));
    const columns = (await this.columns).get(table);
    if (!columns) throw new Error(`no table ${table} in the store`);
    return columns;
  }

  trailRow(tenant: string, table: TrailTable, id: string): Promise<Record<string, unknown> | undefined> {
    const anyDb = this.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    return anyDb.selectFrom(table).selectAll().where('tenant_id', '=', tenant).where('id', '=', id).executeTakeFirst();
  }
}

/** The journal of every tenant, read as the store's owner (past row-level security): what `audit verify` checks. */
export const everyTenantJournal = (store: Store, threadRows?: number): JournalStore =>
  new KyselyJournalStore(store.admin, { threads: store.verifyThreads?.bind(store), threadRows });
