import type { SyncRow } from './version.js';

/** Where a store stands with one server for one tenant. */
export interface SyncState {
  remote: string;
  tenant_id: string;
  /** This store's id towards that server: its pushes are journaled there with principal sync:REPLICA. */
  replica_id: string;
  /** The server's journal is applied up to here. */
  pulled_seq: number;
  /** This store's own entries up to here have been pushed. */
  pushed_seq: number;
  synced_at: string | null;
}

/** open: both sides changed the record; ours: settled for this side, to push; theirs/resolved: done. */
export type ConflictStatus = 'open' | 'ours' | 'resolved';

/** A record changed on both sides since their common version: both versions kept until someone decides. */
export interface SyncConflict {
  id: string;
  remote: string;
  tenant_id: string;
  entity: string;
  entity_id: string;
  reason: string;
  base: string | null;
  ours: SyncRow | null;
  theirs: SyncRow | null;
  theirs_version: string | null;
  fields: string[];
  our_actor: string | null;
  our_time: string | null;
  their_actor: string | null;
  their_time: string | null;
  status: ConflictStatus;
  created_at: string;
  resolved_at: string | null;
  /** How it was settled: one side whole, or `fields:NAME=ours|theirs,…` for the fields that differed. */
  resolution: 'ours' | 'theirs' | `fields:${string}` | null;
}

/** The sync bookkeeping of a store (not tenant data: never journaled, never synced itself). */
export interface SyncStateStore {
  get(remote: string, tenant: string): Promise<SyncState | undefined>;
  list(tenant: string): Promise<SyncState[]>;
  save(state: SyncState): Promise<void>;
  /** The version both sides last agreed on for a record (null: it did not exist, or never travelled). */
  base(remote: string, tenant: string, entity: string, id: string): Promise<string | null>;
  setBase(remote: string, tenant: string, entity: string, id: string, version: string | null): Promise<void>;
  /** The agreed versions of many records of one table (absent: none). */
  basesOf(remote: string, tenant: string, entity: string, ids: string[]): Promise<Map<string, string | null>>;
  setBases(
    remote: string,
    tenant: string,
    bases: Array<{ entity: string; id: string; version: string | null }>,
  ): Promise<void>;
  /** The unsettled conflict (open, or decided for ours and not pushed yet) of a record, if any. */
  pending(remote: string, tenant: string, entity: string, id: string): Promise<SyncConflict | undefined>;
  putConflict(c: SyncConflict): Promise<void>;
  /** Unsettled conflicts of a tenant (of one server when given), oldest first. */
  conflicts(tenant: string, remote?: string): Promise<SyncConflict[]>;
  conflict(tenant: string, id: string): Promise<SyncConflict | undefined>;
  /** Who last changed a record of this store and when, from its journal. */
  lastChange(tenant: string, entity: string, id: string): Promise<{ actor: string; time: string } | undefined>;
  /**
   * The journal entries after sequence number `after` that no sync wrote (their principal is not `sync:…`): what
   * another command changed here while a sync runs. A sync's own entries are passed over without reading their data.
   */
  changesBesides(
    tenant: string,
    after: number,
  ): Promise<Array<{ entity: string; entity_id: string; op: string; data: unknown }>>;
}
