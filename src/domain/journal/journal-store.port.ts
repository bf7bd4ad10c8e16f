import type { ChainLookup, StoredEntry } from './chain.js';

/** Reading the journal: one tenant's entries in order, its head, and the look-ups that explain a broken chain. */
export interface JournalStore {
  /** Up to `limit` entries of the tenant after sequence number `after`, oldest first. */
  page(tenant: string, after: number, limit: number): Promise<StoredEntry[]>;
  /**
   * The same for a verification, where an engine reads faster (entries with a `preimage`, without the fields it
   * covers: txn, time, actor, principal); absent: `page`.
   */
  verifyPage?(tenant: string, after: number, limit: number): Promise<StoredEntry[]>;
  /** The last entry's sequence number and hash; undefined while the tenant has none. */
  head(tenant: string): Promise<{ seq: number; hash: string } | undefined>;
  /** Every tenant with entries ('' is the store's own chain: API keys), in name order. */
  tenants(): Promise<string[]>;
  lookup(tenant: string): ChainLookup;
  /**
   * Every row the tenant has in one of the audit trails (TRAIL_TABLES), as stored. Absent where the tables cannot be
   * read (a chain read through the API): the chain alone is verified then.
   */
  trailRows?(tenant: string, table: TrailTable): AsyncIterable<Record<string, unknown>>;
}

/**
 * The audit trails the seed's views read (DSFA audit log, training audit, consent history): tables of their own,
 * every row of which is also in the journal, so `audit verify` can tell a row edited, removed or added in the table.
 */
export const TRAIL_TABLES = ['dsfa_audit', 'training_audit', 'consent_history'] as const;
export type TrailTable = (typeof TRAIL_TABLES)[number];
