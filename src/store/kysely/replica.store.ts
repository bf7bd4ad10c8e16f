import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { DomainError } from '../../domain/errors.js';
import type { DerivedRecords } from '../../domain/journal/changes.js';
import { compactForm } from '../../domain/sync/derived-groups.js';
import type { OneEntry, ReplicaStore } from '../../domain/sync/replica-store.port.js';
import type { SyncRow } from '../../domain/sync/version.js';
import type { DB } from '../db-types.js';
import { BatchRecorder } from '../journal/batch-recorder.js';
import { insertRows } from './bulk-insert.js';
import { tenantPages } from './tenant-pages.js';
import type { Recorder } from '../journal/journal-writer.js';

/**
 * A table whose records travel: its key, and the key columns the journal names a record by (`id`: the entry's id is
 * the value itself for one column, a JSON array for several; the tenant is the chain's). `tenant` is false for a
 * table without a tenant column (block links: theirs is their block's).
 */
interface TableSpec {
  key: string[];
  id: string[];
  tenant?: false;
  /**
   * Columns of the row that narrow a lookup by id to the table's key (consent history is keyed by its consent and
   * time, not by its id): used when the caller has a version of the row at hand.
   */
  lookup?: string[];
  /** Rows of other tables that hang on this one (deleted with it by the database): [table, column]. */
  children?: Array<[string, string]>;
  /** false: no index begins with the tenant (a read of another tenant's rows would read the whole table). */
  tenantIndex?: false;
}

/** Ids per statement of a read of many records: far below both engines' limits on bound values. */
const READ_CHUNK = 500;
/** The tables with rules across records (see `broken`). */
const RULED = new Set(['training_assignment', 'legal_document_version']);

const byId: TableSpec = { key: ['id'], id: ['id'] };
const byTenant: TableSpec = { key: ['tenant_id'], id: [] };

/** Every table of tenant data, parents first (the journal's genesis order). */
export const SYNC_TABLES: Record<string, TableSpec> = {
  dsfa_setting: byTenant,
  dsfa: byId,
  dsfa_audit: byId,
  consent: byId,
  // PostgreSQL keys consent history by its id, with no index that begins with the tenant but partial ones
  consent_history: { ...byId, lookup: ['consent_id', 'created_at'], tenantIndex: false },
  consent_import_run: byId,
  legal_document: { ...byId, children: [['legal_document_version', 'document_id']] },
  legal_document_version: byId,
  cookie_banner: byTenant,
  training_canonical_control: { key: ['tenant_id', 'id'], id: ['id'] },
  training_module: {
    ...byId,
    children: [
      ['training_question', 'module_id'],
      ['training_content', 'module_id'],
      ['training_matrix', 'module_id'],
      ['training_media', 'module_id'],
      ['training_block_control', 'module_id'],
    ],
  },
  training_question: { ...byId, tenantIndex: false },
  training_content: byId,
  training_matrix: { key: ['tenant_id', 'role_code', 'module_id'], id: ['role_code', 'module_id'] },
  training_assignment: byId,
  training_quiz_attempt: { ...byId, tenantIndex: false },
  training_certificate: byId,
  training_audit: byId,
  training_media: byId,
  training_block: { ...byId, children: [['training_block_control', 'block_id']] },
  training_block_control: { key: ['block_id', 'control_id'], id: ['block_id', 'control_id'], tenant: false },
};

/** The tables of SYNC_TABLES as one dynamic schema: their names come from that list only. */
type Tables = Record<string, SyncRow>;

const spec = (entity: string): TableSpec => {
  const s = Object.hasOwn(SYNC_TABLES, entity) ? SYNC_TABLES[entity] : undefined;
  if (!s)
    throw new DomainError('validation', `entity "${entity}" does not travel`, [
      { path: 'entity', message: `one of ${Object.keys(SYNC_TABLES).join(', ')}` },
    ]);
  return s;
};

/**
 * Whether a table's records are keyed by their id alone, so that an id another tenant holds cannot be taken here (a key
 * that begins with the tenant, or with the block, which is the tenant's, is never another tenant's).
 */
export const keyedById = (entity: string): boolean => {
  const s = spec(entity);
  return s.tenant !== false && !s.key.includes('tenant_id') && s.id.includes('id');
};

/**
 * The ids among `ids` that tenants other than `tenant` hold in `entity`. The other tenants are asked for as two
 * ranges, not with `!=`: where no index begins with the id (SQLite keys consent history by tenant first) the
 * statement reads the other tenants' rows only, and none in a store that holds one tenant. With `!=` it read the
 * whole table for every chunk of ids, so a first sync slowed with every page it had written.
 */
export function heldElsewhereQuery(db: Kysely<DB>, entity: string, tenant: string, ids: string[]) {
  spec(entity); // refuses a table that does not travel: the name comes from SYNC_TABLES only
  return (db as unknown as Kysely<Tables>)
    .selectFrom(entity)
    .select('id')
    .where('id', 'in', ids)
    .where((w) => w.or([w('tenant_id', '<', tenant), w('tenant_id', '>', tenant)]));
}

/**
 * Whether any tenant other than `tenant` may hold a record of `entity`: two reads of one row each, by the table's
 * index on its tenant (a table without one: true, and its ids are asked for). A store that holds one tenant (a
 * laptop's clone) then asks nothing per id: the reads by id cost a clone of 200,000 records 0.15 s.
 */
async function othersHoldAny(db: Kysely<DB>, entity: string, tenant: string): Promise<boolean> {
  if (spec(entity).tenantIndex === false) return true;
  for (const side of ['<', '>'] as const)
    if ((await otherTenantQuery(db, entity, tenant, side).executeTakeFirst()) !== undefined) return true;
  return false;
}

/** One row of a tenant before (`<`) or after (`>`) `tenant` in a table (othersHoldAny). */
export const otherTenantQuery = (db: Kysely<DB>, entity: string, tenant: string, side: '<' | '>') =>
  (db as unknown as Kysely<Tables>).selectFrom(entity).select('tenant_id').where('tenant_id', side, tenant).limit(1);

/** The columns a table's journal id is made of (the tenant for a table keyed by it). */
const journalKey = (entity: string): string[] => {
  const s = spec(entity);
  return s.id.length ? s.id : ['tenant_id'];
};

const idOfRow = (s: TableSpec, row: SyncRow, tenant: string): string =>
  s.id.length === 0 ? tenant : s.id.length === 1 ? String(row[s.id[0]!]) : JSON.stringify(s.id.map((k) => row[k]));

/**
 * The domain's rules of the records that travel, loaded with the first record a replica checks: they build every
 * area's schemas, which a command that opens a store (every unit of work holds a replica store) and syncs nothing
 * does not need.
 */
const loadRules = async () => {
  const [rowRule, rowRules, mergeRules] = await Promise.all([
    import('../../domain/sync/row-rule.js'),
    import('../../domain/sync/row-rules.js'),
    import('../../domain/sync/merge-rules.js'),
  ]);
  return { ...rowRule, ...rowRules, ...mergeRules };
};
let rules: ReturnType<typeof loadRules> | undefined;
const domainRules = () => (rules ??= loadRules());

/** The columns a record of `entity` may have: those of its row schema. */
const columnsOfEntity = async (entity: string) => {
  const { ROW_RULES, columnsOf } = await domainRules();
  return columnsOf(ROW_RULES[entity]!.schema);
};

/** Whether two column lists are the same, in the same order. */
const sameNames = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * Records written exactly as another store holds them (sync, bundles), through the unit of work's recorder: each
 * write is journaled and chained here like any other change. Tables are named only from SYNC_TABLES.
 */
export class KyselyReplicaStore implements ReplicaStore {
  readonly entities = Object.keys(SYNC_TABLES);

  /**
   * `everyTenant` reads rows of every tenant while `db` (a transaction) is open: the same connection where the engine
   * has no row-level security, the owner's where it has (Store.everyTenant).
   */
  constructor(
    private readonly db: Kysely<DB>,
    private journal: Recorder,
    private readonly everyTenant: Kysely<DB> = db,
  ) {}

  async asOneEntry<T>(entity: string, id: string, fn: (entry: OneEntry) => Promise<T>): Promise<T> {
    const outer = this.journal;
    const batch = new BatchRecorder(journalKey);
    this.journal = batch;
    try {
      const result = await fn({
        adopt: (groups) => batch.adopt(groups),
        insertDerived: (tenant, records) => this.insertDerived(batch, tenant, records),
      });
      outer.batch(entity, id, batch.data);
      return result;
    } finally {
      this.journal = outer;
    }
  }

  /** OneEntry.insertDerived: the rows as the groups derive them, the entry holding them in the compact form. */
  private async insertDerived(batch: BatchRecorder, tenant: string, records: DerivedRecords): Promise<void> {
    const kept = compactForm(
      records.data,
      records.groups.map((g) => g.group),
    );
    if (!kept) throw new DomainError('internal', 'derived groups whose staged rows hold more than their rules read');
    const parentsFirst = [...records.groups].sort(
      (a, b) => this.entities.indexOf(a.group.entity) - this.entities.indexOf(b.group.entity),
    );
    for (const { group, rows } of parentsFirst) {
      const s = spec(group.entity);
      if (s.tenant === false) throw new DomainError('internal', `${group.entity} records are not inserted set-wise`);
      if (!sameNames(group.key, journalKey(group.entity)))
        throw new DomainError(
          'internal',
          `${group.entity} records are keyed by ${journalKey(group.entity).join(', ')}`,
        );
      const known = await columnsOfEntity(group.entity);
      const unknown = group.columns.find((c) => !known.includes(c));
      if (unknown)
        throw new DomainError('validation', `${group.entity} has no column ${unknown}`, [
          { path: unknown, message: `one of ${known.join(', ')}` },
        ]);
      const at = group.columns.indexOf('tenant_id');
      if (at < 0 || rows.some((r) => r[at] !== tenant))
        throw new DomainError('validation', `${group.entity} rows of another tenant`, [
          { path: 'tenant_id', message: `must be ${tenant}` },
        ]);
      await insertRows(this.db, group.entity, group.columns, rows);
    }
    batch.adopt({ ...kept, covers: new Map() });
  }

  private of(tenant: string) {
    return new TenantReplica(this.db, this.journal, tenant);
  }

  rowsWhere(tenant: string, entity: string, column: string, values: unknown[]) {
    return this.of(tenant).rowsWhere(entity, column, values);
  }

  async heldElsewhere(tenant: string, entity: string, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    if (!keyedById(entity) || !ids.length || !(await othersHoldAny(this.everyTenant, entity, tenant))) return out;
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const rows = await heldElsewhereQuery(this.everyTenant, entity, tenant, ids.slice(i, i + READ_CHUNK)).execute();
      for (const r of rows) out.add(String(r.id));
    }
    return out;
  }

  read(tenant: string, entity: string, id: string, hint?: SyncRow | null) {
    return this.of(tenant).read(entity, id, hint);
  }
  apply(tenant: string, entity: string, id: string, row: SyncRow | null) {
    return this.of(tenant).apply(entity, id, row);
  }
  readMany(tenant: string, entity: string, wanted: Array<{ id: string; hint?: SyncRow | null }>) {
    return this.of(tenant).readMany(entity, wanted);
  }
  insertMany(tenant: string, entity: string, rows: Array<{ id: string; row: SyncRow }>) {
    return this.of(tenant).insertMany(entity, rows);
  }
  holdsAny(tenant: string, entity: string) {
    return this.of(tenant).holdsAny(entity);
  }
  broken(tenant: string, entity: string, id: string, row: SyncRow | null) {
    return this.of(tenant).broken(entity, id, row);
  }
  ruled(entity: string): boolean {
    return RULED.has(entity);
  }
  claimants(tenant: string, entity: string, rows: SyncRow[]) {
    return this.of(tenant).claimants(entity, rows);
  }
  rows(tenant: string, entity: string) {
    return this.of(tenant).rows(entity);
  }
  idOf(tenant: string, entity: string, row: SyncRow): string {
    return idOfRow(spec(entity), row, tenant);
  }
}

/** The records of one tenant. */
class TenantReplica {
  private readonly db: Kysely<Tables>;

  constructor(
    db: Kysely<DB>,
    private readonly journal: Recorder,
    private readonly tenant: string,
  ) {
    this.db = db as unknown as Kysely<Tables>;
  }

  /** The key columns and values of the record `id` names in this tenant. */
  private keyOf(entity: string, id: string): Record<string, unknown> {
    const s = spec(entity);
    const out: Record<string, unknown> = {};
    if (s.tenant !== false && s.key.includes('tenant_id')) out.tenant_id = this.tenant;
    if (s.id.length === 1) out[s.id[0]!] = id;
    else if (s.id.length > 1) {
      let parts: unknown;
      try {
        parts = JSON.parse(id);
      } catch {
        parts = undefined;
      }
      if (!Array.isArray(parts) || parts.length !== s.id.length)
        throw new DomainError('validation', `entity_id of ${entity} must be a JSON array of ${s.id.join(', ')}`);
      s.id.forEach((k, i) => (out[k] = parts[i]));
    } else if (id !== this.tenant) throw new DomainError('not_found', `${entity} ${id} not found`);
    return out;
  }

  /** A record's key with its tenant, so a statement never reaches another tenant's row of the same id. */
  private scoped(s: TableSpec, key: Record<string, unknown>): Record<string, unknown> {
    return s.tenant === false ? key : { ...key, tenant_id: this.tenant };
  }

  /** The tenant's records of a table whose `column` holds one of `values`, a few statements for many values. */
  async rowsWhere(entity: string, column: string, values: unknown[]): Promise<SyncRow[]> {
    if (!(await columnsOfEntity(entity)).includes(column))
      throw new DomainError('internal', `${entity} has no column ${column}`);
    const out: SyncRow[] = [];
    for (let i = 0; i < values.length; i += READ_CHUNK) {
      const q = this.db
        .selectFrom(entity)
        .selectAll()
        .where(column, 'in', values.slice(i, i + READ_CHUNK))
        .where(this.mine(entity));
      out.push(...((await q.execute()) as SyncRow[]));
    }
    return out;
  }

  async holdsAny(entity: string): Promise<boolean> {
    const q = this.db
      .selectFrom(entity)
      .select(sql<number>`1`.as('one'))
      .where(this.mine(entity))
      .limit(1);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** The condition that keeps a statement on a table to this tenant's rows (a block link's, by its block). */
  private mine(entity: string) {
    return (eb: ExpressionBuilder<Tables, string>) =>
      spec(entity).tenant === false
        ? eb('block_id', 'in', eb.selectFrom('training_block').select('id').where('tenant_id', '=', this.tenant))
        : eb('tenant_id', '=', this.tenant);
  }

  private select(entity: string, where: Record<string, unknown>) {
    let q = this.db.selectFrom(entity).selectAll();
    for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
    return q;
  }

  /** Whether the block a link hangs on is this tenant's (links carry no tenant of their own). */
  private async ownBlock(blockId: unknown): Promise<boolean> {
    const r = await this.db
      .selectFrom('training_block')
      .select('id')
      .where('id', '=', blockId)
      .where('tenant_id', '=', this.tenant)
      .executeTakeFirst();
    return r !== undefined;
  }

  async read(entity: string, id: string, hint?: SyncRow | null): Promise<SyncRow | null> {
    const s = spec(entity);
    const key = this.keyOf(entity, id);
    for (const k of s.lookup ?? []) if (hint?.[k] !== undefined) key[k] = hint[k];
    if (s.tenant === false && !(await this.ownBlock(key.block_id))) return null;
    const where = s.tenant === false || 'tenant_id' in key ? key : { ...key, tenant_id: this.tenant };
    return ((await this.select(entity, where).executeTakeFirst()) as SyncRow | undefined) ?? null;
  }

  async apply(entity: string, id: string, row: SyncRow | null): Promise<void> {
    const s = spec(entity);
    const key = this.keyOf(entity, id);
    if (row === null) return this.remove(entity, s, id, key);
    const values = await this.checked(entity, s, id, row, await columnsOfEntity(entity));
    // the record of this tenant by its key (with the tenant: the indexes begin with it); an id another tenant holds
    // fails the insert on its primary key instead, and nothing is written
    const stored = await this.read(entity, id, values);
    if (stored) {
      let q = this.db.updateTable(entity).set(values);
      for (const [k, v] of Object.entries(this.scoped(s, key))) q = q.where(k, '=', v);
      await q.execute();
      this.journal.put(entity, id, values, 'update');
    } else {
      await this.db.insertInto(entity).values(values).execute();
      this.journal.put(entity, id, values, 'insert');
    }
  }

  /**
   * Many records of one table by id, in a few statements: those of them this tenant holds. Tables keyed by the tenant
   * or by composite keys are read one by one (they are few).
   */
  async readMany(entity: string, wanted: Array<{ id: string; hint?: SyncRow | null }>): Promise<Map<string, SyncRow>> {
    const s = spec(entity);
    const out = new Map<string, SyncRow>();
    if (s.id.length !== 1 || s.id[0] !== 'id' || s.tenant === false) {
      for (const w of wanted) {
        const r = await this.read(entity, w.id, w.hint);
        if (r) out.set(w.id, r);
      }
      return out;
    }
    for (let i = 0; i < wanted.length; i += READ_CHUNK) {
      const part = wanted.slice(i, i + READ_CHUNK);
      let q = this.db
        .selectFrom(entity)
        .selectAll()
        .where('tenant_id', '=', this.tenant)
        .where(
          'id',
          'in',
          part.map((w) => w.id),
        );
      // the table's key, where the rows at hand name it (consent history: by its consents)
      for (const k of s.lookup?.slice(0, 1) ?? []) {
        const values = [...new Set(part.map((w) => w.hint?.[k]))];
        if (values.every((v) => v !== undefined && v !== null)) q = q.where(k, 'in', values);
      }
      for (const r of await q.execute()) out.set(String(r.id), r);
    }
    return out;
  }

  /** Records this tenant does not hold yet, inserted in statements of many rows, each journaled. */
  async insertMany(entity: string, rows: Array<{ id: string; row: SyncRow }>): Promise<void> {
    const s = spec(entity);
    // consecutive rows with the same columns (as one store writes them) go into one statement and one journal group,
    // each row as one array of values for both
    const groups: Array<{ columns: string[]; rows: Array<{ id: string; values: unknown[] }> }> = [];
    let group: (typeof groups)[number] | undefined;
    const known = await columnsOfEntity(entity);
    for (const r of rows) {
      const row =
        s.tenant === false
          ? await this.checked(entity, s, r.id, r.row, known)
          : this.ownRow(entity, s, r.id, r.row, known);
      const columns = Object.keys(row);
      if (!group || !sameNames(group.columns, columns)) groups.push((group = { columns, rows: [] }));
      group.rows.push({ id: r.id, values: group.columns.map((c) => row[c]) });
    }
    for (const g of groups) {
      this.journal.putRows(entity, g.columns, g.rows, 'insert');
      await insertRows(
        this.db,
        entity,
        g.columns,
        g.rows.map((r) => r.values),
      );
    }
  }

  /** Every record of a table of this tenant, in key order, a page at a time. */
  async *rows(entity: string): AsyncIterable<SyncRow[]> {
    const s = spec(entity);
    if (s.tenant === false) {
      yield (await this.db
        .selectFrom(`${entity} as l`)
        .innerJoin('training_block as b', 'b.id', 'l.block_id')
        .selectAll('l')
        .where('b.tenant_id', '=', this.tenant)
        .orderBy('l.block_id')
        .orderBy('l.control_id')
        .execute()) as SyncRow[];
      return;
    }
    if (s.id.length !== 1 || s.id[0] !== 'id') {
      let q = this.db.selectFrom(entity).selectAll().where('tenant_id', '=', this.tenant);
      for (const k of s.key) q = q.orderBy(k);
      yield (await q.execute()) as SyncRow[];
      return;
    }
    yield* tenantPages(this.db, entity, this.tenant, 5000) as AsyncIterable<SyncRow[]>;
  }

  /**
   * The row to write for record `id`: refused when it is another tenant's, names another record or has a column
   * other than `known` (its table's).
   */
  private async checked(
    entity: string,
    s: TableSpec,
    id: string,
    row: SyncRow,
    known: readonly string[],
  ): Promise<SyncRow> {
    if (s.tenant !== false) return this.ownRow(entity, s, id, row, known);
    if (!(await this.ownBlock(row.block_id)))
      throw new DomainError('not_found', `training block ${String(row.block_id)} not found`);
    return this.namesItself(entity, s, id, { ...row }, known);
  }

  /** The row of a table with a tenant column to write for record `id`, as this tenant's (see `checked`). */
  private ownRow(entity: string, s: TableSpec, id: string, row: SyncRow, known: readonly string[]): SyncRow {
    if (row.tenant_id !== undefined && row.tenant_id !== this.tenant)
      throw new DomainError('validation', `${entity} ${id} belongs to another tenant`, [
        { path: 'tenant_id', message: `must be ${this.tenant}` },
      ]);
    const own = row.tenant_id === this.tenant ? row : { ...row, tenant_id: this.tenant };
    return this.namesItself(entity, s, id, own, known);
  }

  /** `values`, refused when it names another record than `id` or a column its table does not have. */
  private namesItself(entity: string, s: TableSpec, id: string, values: SyncRow, known: readonly string[]): SyncRow {
    const unknown = Object.keys(values).find((c) => !known.includes(c));
    if (unknown)
      throw new DomainError('validation', `${entity} has no column ${unknown}`, [
        { path: unknown, message: `one of ${known.join(', ')}` },
      ]);
    if (idOfRow(s, values, this.tenant) !== id)
      throw new DomainError('validation', `the row of ${entity} ${id} names another record`, [
        { path: 'entity_id', message: `must be the row's ${s.id.join(', ') || 'tenant'}` },
      ]);
    return values;
  }

  /** Deletes a record and, first, each row that hangs on it, every one with its tombstone. */
  private async remove(entity: string, s: TableSpec, id: string, key: Record<string, unknown>): Promise<void> {
    const row = await this.read(entity, id);
    if (!row) return;
    for (const [table, column] of s.children ?? []) {
      const child = spec(table);
      const rows = (await this.select(table, { [column]: row[s.id[0]!] }).execute()) as SyncRow[];
      for (const r of rows)
        if (child.tenant === false || r.tenant_id === this.tenant)
          await this.apply(table, idOfRow(child, r, this.tenant), null);
    }
    let q = this.db.deleteFrom(entity);
    for (const [k, v] of Object.entries(key)) q = q.where(k, '=', v);
    if (s.tenant !== false && !('tenant_id' in key)) q = q.where('tenant_id', '=', this.tenant);
    await q.execute();
    this.journal.remove(entity, id);
  }

  /**
   * The rules across records, which need queries: another record of the tenant holding what `row` claims
   * (`exclusiveClaim`, which also words the refusal). Those of one record are the domain's (`mergeBreaks`).
   */
  async broken(entity: string, id: string, row: SyncRow | null): Promise<string | null> {
    const { exclusiveClaim } = await domainRules();
    const exclusive = exclusiveClaim(entity, row);
    if (!exclusive || !row) return null;
    const other = await this.holder(entity, id, row);
    return other ? exclusive.taken(other) : null;
  }

  /** The records of the tenant holding what one of `rows` claims (see ReplicaStore.claimants). */
  async claimants(entity: string, rows: SyncRow[]): Promise<Array<{ id: string; row: SyncRow }>> {
    const { exclusiveClaim, OPEN_STATUSES } = await domainRules();
    const claiming = rows.filter((r) => exclusiveClaim(entity, r));
    const values = (column: string) => [...new Set(claiming.map((r) => r[column]))];
    const found: SyncRow[] = [];
    if (entity === 'training_assignment') {
      const modules = values('module_id');
      const users = values('user_id');
      for (let i = 0; i < users.length; i += READ_CHUNK)
        found.push(
          ...(await this.db
            .selectFrom('training_assignment')
            .select(['id', 'user_id', 'module_id', 'status'])
            .where('tenant_id', '=', this.tenant)
            .where('status', 'in', OPEN_STATUSES)
            .where('module_id', 'in', modules)
            .where('user_id', 'in', users.slice(i, i + READ_CHUNK))
            .execute()),
        );
    } else if (entity === 'legal_document_version') {
      const documents = values('document_id');
      for (let i = 0; i < documents.length; i += READ_CHUNK)
        found.push(
          ...(await this.db
            .selectFrom('legal_document_version')
            .select(['id', 'document_id', 'status'])
            .where('tenant_id', '=', this.tenant)
            .where('status', '=', 'published')
            .where('document_id', 'in', documents.slice(i, i + READ_CHUNK))
            .execute()),
        );
    }
    return found.map((row) => ({ id: String(row.id), row }));
  }

  /** The id of another record of the tenant that holds what `row` claims, if any. */
  private async holder(entity: string, id: string, row: SyncRow): Promise<string | undefined> {
    if (entity === 'training_assignment') {
      const { OPEN_STATUSES } = await domainRules();
      const other = await this.db
        .selectFrom('training_assignment')
        .select('id')
        .where('tenant_id', '=', this.tenant)
        .where('user_id', '=', row.user_id)
        .where('module_id', '=', row.module_id)
        .where('status', 'in', OPEN_STATUSES)
        .where('id', '!=', id)
        .executeTakeFirst();
      return other && String(other.id);
    }
    if (entity === 'legal_document_version') {
      const other = await this.db
        .selectFrom('legal_document_version')
        .select('id')
        .where('tenant_id', '=', this.tenant)
        .where('document_id', '=', row.document_id)
        .where('status', '=', 'published')
        .where('id', '!=', id)
        .executeTakeFirst();
      return other && String(other.id);
    }
    return undefined;
  }
}
