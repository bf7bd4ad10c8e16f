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
  /** The columns of an audit trail's table: what a row's text holds (trails.ts `rowText`), in this order. */
  trailColumns?(table: TrailTable): Promise<string[]>;
  /**
   * The same rows, a page at a time, each as its id and its text (the JSON array of its `columns` values) built by
   * the engine: two strings a row instead of an object. The text is JSON.stringify's but for control characters in
   * strings, so a text that differs is read again whole (`trailRow`). Absent where the engine writes JSON otherwise.
   */
  trailTexts?(tenant: string, table: TrailTable, columns: readonly string[]): AsyncIterable<Array<[string, string]>>;
  /** One row of an audit trail, as stored (undefined when there is none). */
  trailRow?(tenant: string, table: TrailTable, id: string): Promise<Record<string, unknown> | undefined>;
  /**
   * The same rows' ids and the digests of their texts (trails.ts `textDigest`), read and digested on another thread
   * while this one reads the journal, where the store can and the trail is large; undefined where not (trailTexts).
   * Answers once that thread has started, with its result to come (`done`: undefined where it could not read them).
   */
  trailDigests?(
    tenant: string,
    table: TrailTable,
    columns: readonly string[],
  ): Promise<{ done: Promise<TrailDigestPage | undefined> } | undefined>;
  /**
   * The chain checked in ranges side by side, each on a thread and connection of its own, where the store can and the
   * chain is long: undefined where not, or where a range holds an entry that breaks the chain (a verification then
   * walks the chain on one thread, which says what is wrong).
   */
  checkChain?(tenant: string, trails: TrailColumns, anchorHash?: string): Promise<ChainCheck | undefined>;
}

/** A chain found intact from its first entry to `head` (JournalStore.checkChain). */
export interface ChainCheck {
  count: number;
  head: { seq: number; hash: string };
  /** The entry carrying the anchor's hash, where one was named and found. */
  anchored?: number;
  /** The trail rows the entries write or delete (trails.ts `trailOps` of each, in order). */
  trailOps: TrailOp[];
}

/** Rows of an audit trail: their ids, and the digest of each one's text at the same place. */
export interface TrailDigestPage {
  ids: string[];
  digests: string[];
}

/**
 * The audit trails the seed's views read (DSFA audit log, training audit, consent history): tables of their own,
 * every row of which is also in the journal, so `audit verify` can tell a row edited, removed or added in the table.
 */
export const TRAIL_TABLES = ['dsfa_audit', 'training_audit', 'consent_history'] as const;
export type TrailTable = (typeof TRAIL_TABLES)[number];

/** Per audit-trail table, its columns in the order a row's text holds them. */
export type TrailColumns = Record<string, readonly string[]>;

/** Rows of one trail an entry writes (their ids and the digests of their texts) or deletes (`digests` absent). */
export interface TrailOp {
  table: string;
  ids: string[];
  digests?: string[];
}
