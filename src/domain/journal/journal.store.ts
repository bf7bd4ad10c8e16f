import type { ChainLookup, StoredEntry } from './chain.js';

/** Reading the journal: one tenant's entries in order, its head, and the look-ups that explain a broken chain. */
export interface JournalStore {
  /** Up to `limit` entries of the tenant after sequence number `after`, oldest first. */
  page(tenant: string, after: number, limit: number): Promise<StoredEntry[]>;
  /** The last entry's sequence number and hash; undefined while the tenant has none. */
  head(tenant: string): Promise<{ seq: number; hash: string } | undefined>;
  /** Every tenant with entries ('' is the store's own chain: API keys), in name order. */
  tenants(): Promise<string[]>;
  lookup(tenant: string): ChainLookup;
}
