import { CompiledQuery, sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { CHAIN_FORMAT, ORIGIN_FORMAT, type ChainLookup, type StoredEntry } from '../../domain/journal/chain.js';
import type { JournalStore, TrailTable } from '../../domain/journal/journal-store.port.js';
import type { DB, JournalRow } from '../db-types.js';
import { engineFor } from '../engine.js';
import { tenantPages } from '../kysely/tenant-pages.js';
import type { Store } from '../store.js';

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

  constructor(private readonly db: Kysely<DB>) {
    const jsonArray = engineFor(db).jsonArrayText;
    if (jsonArray) this.verifyPage = (tenant, after, limit) => this.preimagePage(jsonArray, tenant, after, limit);
  }

  /**
   * A page for a verification: each entry with the text its hash covers built by the database (the verifier hashes
   * it as it is, and reads an entry whole only where the texts differ: control characters), without the five fields
   * that text holds. Reading those as strings of their own cost more than hashing (measured over 1M entries on
   * SQLite: 7.0 s whole entries, 4.4 s this way).
   */
  private async preimagePage(
    jsonArray: (items: readonly Expression<unknown>[]) => RawBuilder<string>,
    tenant: string,
    after: number,
    limit: number,
  ): Promise<StoredEntry[]> {
    const head = ['tenant_id', 'seq', 'txn', 'time', 'actor', 'principal'] as const;
    const tail = ['entity', 'entity_id', 'op', 'data_hash', 'prev_hash'] as const;
    const text = (format: number, ...columns: string[]) =>
      jsonArray([sql.lit(format), ...columns.map((c) => sql.ref(c))]);
    const rows = await this.db
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
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
    // each entry built field by field: spreading a row of a page of 1,000 cost as much as reading it (1M entries)
    return rows.map((r) => ({
      tenant_id: tenant,
      seq: Number(r.seq),
      txn: '',
      time: '',
      actor: '',
      principal: '',
      entity: r.entity,
      entity_id: r.entity_id,
      op: r.op,
      data: r.data,
      data_hash: r.data_hash,
      prev_hash: r.prev_hash,
      hash: r.hash,
      preimage: r.preimage!,
    }));
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
  async head(tenant: string): Promise<{ seq: number; hash: string } | undefined> {
    const p = engineFor(this.db).placeholder(1);
    const query = CompiledQuery.raw(
      `select "seq", "hash" from "journal" where "tenant_id" = ${p} order by "seq" desc limit 1`,
      [tenant],
    );
    const [row] = (await this.db.executeQuery<{ seq: number | string; hash: string }>(query)).rows;
    return row && { seq: Number(row.seq), hash: row.hash };
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

  async *trailRows(tenant: string, table: TrailTable): AsyncIterable<Record<string, unknown>> {
    for await (const rows of tenantPages(this.db, table, tenant, 5000)) yield* rows;
  }
}

/** The journal of every tenant, read as the store's owner (past row-level security): what `audit verify` checks. */
export const everyTenantJournal = (store: Store): JournalStore => new KyselyJournalStore(store.admin);
