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
  /**
   * How it was settled: one side whole, `fields:NAME=ours|theirs|both,…` for the fields that differed, or `same`:
   * both sides came to the same version (the conflict closed itself).
   */
  resolution: 'ours' | 'theirs' | 'same' | `fields:${string}` | null;
}

/** The sync bookkeeping of a store (not tenant data: never journaled, never synced itself). */
export interface SyncStateStore {
  get(remote: string, tenant: string): Promise<SyncState | undefined>;
  list(tenant: string): Promise<SyncState[]>;
  save(state: SyncState): Promise<void>;
  /**
   * The version both sides last agreed on for a record, where one is stored (null: agreed on its absence). A record
   * with none stored is agreed in the state the journal shows before this store's first change to it since its last
   * push: as it is now when it was not changed here since (a pull stores none for the records it writes).
   */
  base(remote: string, tenant: string, entity: string, id: string): Promise<string | null>;
  setBase(remote: string, tenant: string, entity: string, id: string, version: string | null): Promise<void>;
  /** The stored agreed versions of many records of one table (absent: none stored). */
  basesOf(remote: string, tenant: string, entity: string, ids: string[]): Promise<Map<string, string | null>>;
  setBases(
    remote: string,
    tenant: string,
    bases: Array<{ entity: string; id: string; version: string | null }>,
  ): Promise<void>;
  /** Forgets the stored agreed versions of records: they are agreed as they are now. */
  dropBases(remote: string, tenant: string, records: Array<{ entity: string; id: string }>): Promise<void>;
  /** Whether any agreed version is stored for the tenant with that server. */
  hasBases(remote: string, tenant: string): Promise<boolean>;
  /**
   * Each record's state after the last journal entry that changed it before sequence number `before` (null: deleted,
   * or no such entry), keyed by `entity NUL id`. Reads the journal backwards, an entry's data only where it may hold
   * one of the records.
   */
  statesBefore(
    tenant: string,
    wanted: Array<{ entity: string; id: string; before: number }>,
  ): Promise<Map<string, SyncRow | null>>;
  /** The unsettled conflict (open, or decided for ours and not pushed yet) of a record, if any. */
  pending(remote: string, tenant: string, entity: string, id: string): Promise<SyncConflict | undefined>;
  putConflict(c: SyncConflict): Promise<void>;
  /** Unsettled conflicts of a tenant (of one server when given), oldest first. */
  conflicts(tenant: string, remote?: string): Promise<SyncConflict[]>;
  /**
   * The unsettled conflicts `ref` may name (conflictRef): by their id or their record's, whole, or by its start or
   * end; up to 11, oldest first.
   */
  findConflicts(tenant: string, ref: string): Promise<SyncConflict[]>;
  /** Who last changed a record of this store and when, from its journal. */
  lastChange(tenant: string, entity: string, id: string): Promise<{ actor: string; time: string } | undefined>;
  /**
   * The journal entries after sequence number `after` that no sync wrote (their principal is not `sync:…`): what
   * another command changed here while a sync runs. A sync's own entries are passed over without reading their data.
   */
  changesBesides(
    tenant: string,
    after: number,
  ): Promise<Array<{ seq: number; entity: string; entity_id: string; op: string; data: unknown }>>;
}
