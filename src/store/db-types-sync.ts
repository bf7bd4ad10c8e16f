/** Rows of the sync bookkeeping (migration 0019): rows and lists as JSON text. */
export interface SyncTables {
  sync_state: {
    remote: string;
    tenant_id: string;
    replica_id: string;
    pulled_seq: number;
    pushed_seq: number;
    synced_at: string | null;
  };
  sync_base: { remote: string; tenant_id: string; entity: string; entity_id: string; version: string | null };
  sync_conflict: {
    id: string;
    remote: string;
    tenant_id: string;
    entity: string;
    entity_id: string;
    reason: string;
    base: string | null;
    ours: string | null;
    theirs: string | null;
    theirs_version: string | null;
    fields: string;
    our_actor: string | null;
    our_time: string | null;
    their_actor: string | null;
    their_time: string | null;
    status: string;
    resolution: string | null;
    created_at: string;
    resolved_at: string | null;
  };
}
