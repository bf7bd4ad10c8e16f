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
  /** The columns of an audit trail's table: what a row's text holds (trails.ts `rowText`), in this order. */
  trailColumns?(table: TrailTable): Promise<string[]>;
  /**
   * The tenant's audit trails as one state of the store: the journal's last entry in it, and each trail's rows as
   * their ids and the digests of their texts (trails.ts `textDigest`; the text the engine writes of the values where
   * it writes JSON as JSON.stringify does, else `rowText`). Read in one snapshot, so a write committed meanwhile is in
   * both the rows and the head, or in neither. Read on a thread of its own where the store has threads and the trails
   * are large, while the journal is walked; else on the store's connection. Answers once the reading has begun (its
   * thread started, or the connection asked for ahead of the walk's reads), with the snapshot to come. Absent where
   * the tables cannot be read (a chain read through the API): the chain alone is verified then. With a `tally` key,
   * each trail's rows come as their tally under it instead (TrailTally; the ids and digests empty).
   */
  trailSnapshot?(tenant: string, trails: TrailColumns, tally?: string): Promise<{ read: Promise<TrailSnapshot> }>;
  /** One row of an audit trail, as stored now (undefined when there is none). */
  trailRow?(tenant: string, table: TrailTable, id: string): Promise<Record<string, unknown> | undefined>;
  /**
   * The chain checked in ranges side by side, each on a thread and connection of its own, where the store can and the
   * chain is long: undefined where not, or where a range holds an entry that breaks the chain (a verification then
   * walks the chain on one thread, which says what is wrong). With a `tally` key, the trail rows the entries write
   * come as tallies under it (trails.ts `trailOps`).
   */
  checkChain?(
    tenant: string,
    trails: TrailColumns,
    anchorHash?: string,
    tally?: string,
  ): Promise<ChainCheck | undefined>;
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

/** Rows of an audit trail: their ids, and the digest of each one's text at the same place; or their tally. */
export interface TrailDigestPage {
  ids: string[];
  digests: string[];
  tally?: TrailTally;
}

/**
 * Rows of an audit trail summed instead of listed, under a key drawn for one verification: how many, and three sums
 * of 24-bit words of each row's keyed digest (trails.ts `tallyText`). Two tallies of the same rows are equal in any
 * order; of different rows, they differ but by a chance of about 2^-72, and no one who edits a table can aim at that
 * chance without the key. Equal tallies leave nothing to compare row by row.
 */
export interface TrailTally {
  rows: number;
  a: number;
  b: number;
  c: number;
}

/** The audit trails in one snapshot: the journal's last entry then (0: none), and each trail's rows. */
export interface TrailSnapshot {
  head: number;
  tables: Record<string, TrailDigestPage>;
}

/**
 * The audit trails the seed's views read (DSFA audit log, training audit, consent history): tables of their own,
 * every row of which is also in the journal, so `audit verify` can tell a row edited, removed or added in the table.
 */
export const TRAIL_TABLES = ['dsfa_audit', 'training_audit', 'consent_history'] as const;
export type TrailTable = (typeof TRAIL_TABLES)[number];

/** Per audit-trail table, its columns in the order a row's text holds them. */
export type TrailColumns = Record<string, readonly string[]>;

/**
 * Rows of one trail an entry writes (their ids and the digests of their texts, or their tally with both empty) or
 * deletes (`digests` and `tally` absent).
 */
export interface TrailOp {
  /** The entry's number: a snapshot of the trails is compared with the entries up to its head. */
  seq: number;
  table: string;
  ids: string[];
  digests?: string[];
  tally?: TrailTally;
}
