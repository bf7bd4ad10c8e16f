import type { SyncRow } from './version.js';

/** The records of a tenant as a sync reads and writes them: whole rows of the tables that travel, by journal id. */
export interface ReplicaStore {
  /** The tables whose records travel, parents first. */
  readonly entities: readonly string[];
  read(tenant: string, entity: string, id: string): Promise<SyncRow | null>;
  /**
   * Writes the row exactly as given (null: deletes it, and first the rows that hang on it), journaled like any
   * change of the unit of work. Refuses a table that does not travel and a row of another tenant.
   */
  apply(tenant: string, entity: string, id: string, row: SyncRow | null): Promise<void>;
  /** A rule a merge must keep that `row` would break (two open assignments of a user and module), or null. */
  broken(tenant: string, entity: string, id: string, row: SyncRow | null): Promise<string | null>;
}
