import type { AdoptedGroups, DerivedRecords } from '../journal/changes.js';
import type { SyncRow } from './version.js';

/** The batch entry being written by ReplicaStore.asOneEntry. */
export interface OneEntry {
  /** Holds the records `groups` cover in their compact form (once per entry). */
  adopt(groups: AdoptedGroups): void;
  /**
   * Inserts the records of another entry's derived groups, all new to the tenant and checked by the door, in
   * statements of many rows, and holds them in the entry's compact form (compactForm; once per entry, instead of
   * `adopt`). Refuses a table that does not travel or is not keyed by tenant, a key other than the table's, a column
   * its table does not have, a row of another tenant, and groups whose compact form would keep more than their rules
   * read.
   */
  insertDerived(tenant: string, records: DerivedRecords): Promise<void>;
}

/** The records of a tenant as a sync reads and writes them: whole rows of the tables that travel, by journal id. */
export interface ReplicaStore {
  /** The tables whose records travel, parents first. */
  readonly entities: readonly string[];
  /** The record as stored; `hint` (a version of the row) lets the store find it by its table's key. */
  read(tenant: string, entity: string, id: string, hint?: SyncRow | null): Promise<SyncRow | null>;
  /** Many records of one table at once (those this tenant holds), by id. */
  readMany(
    tenant: string,
    entity: string,
    wanted: Array<{ id: string; hint?: SyncRow | null }>,
  ): Promise<Map<string, SyncRow>>;
  /**
   * Runs `fn` with every write of this store journaled as one batch entry (entity `entity`, id `id`) instead of an
   * entry per row: a page a sync pulled, a bundle's part. The rows replay in the order they were written, after the
   * groups `fn` adopts from an entry it wrote exactly (see AdoptedGroups), if any.
   */
  asOneEntry<T>(entity: string, id: string, fn: (entry: OneEntry) => Promise<T>): Promise<T>;
  /** Whether the tenant holds any record of a table (a clone's tables hold none when its first pull starts). */
  holdsAny(tenant: string, entity: string): Promise<boolean>;
  /** Records this tenant does not hold yet, inserted together, each journaled. */
  insertMany(tenant: string, entity: string, rows: Array<{ id: string; row: SyncRow }>): Promise<void>;
  /**
   * Writes the row exactly as given (null: deletes it, and first the rows that hang on it), journaled like any
   * change of the unit of work. Refuses a table that does not travel and a row of another tenant.
   */
  apply(tenant: string, entity: string, id: string, row: SyncRow | null): Promise<void>;
  /** The tenant's records of a table whose `column` (one of its columns) holds one of `values`. */
  rowsWhere(tenant: string, entity: string, column: string, values: unknown[]): Promise<SyncRow[]>;
  /**
   * The ids among `ids` that another tenant holds in a table keyed by id alone: a record by such an id cannot be
   * written here (it would fail on the key, or hang this tenant's records on another's).
   */
  heldElsewhere(tenant: string, entity: string, ids: string[]): Promise<Set<string>>;
  /** Every record of a table of the tenant, in key order, a page at a time (bundles). */
  rows(tenant: string, entity: string): AsyncIterable<SyncRow[]>;
  /** The id the journal names a row by. */
  idOf(tenant: string, entity: string, row: SyncRow): string;
  /**
   * A rule across records that writing `row` would break against the tenant's other records here (a second open
   * assignment of a user and module, a second published version of a document), or null. The rules of a single
   * record, which only a merge of two versions can break, are `mergeBreaks` (domain/sync/merge-rules.ts).
   */
  broken(tenant: string, entity: string, id: string, row: SyncRow | null): Promise<string | null>;
  /** Whether a table has rules across records (see `broken`). */
  ruled(entity: string): boolean;
  /**
   * The records of a table with rules across records that hold something one of `rows` claims (an open assignment of
   * the same user and module, the published version of the same document), in a few statements.
   */
  claimants(tenant: string, entity: string, rows: SyncRow[]): Promise<Array<{ id: string; row: SyncRow }>>;
}
