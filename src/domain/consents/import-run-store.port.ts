import type { ImportRun, ImportRunQuery } from './import-run.schema.js';

/** A later entry in the history of a consent a run created, written by someone else (a request, another run). */
export interface LaterEntry {
  consent_id: string;
  user_id: string;
  data_point_id: string;
  action: string;
  created_at: string;
  /** The run that wrote it; null: a request through the API. */
  import_run_id: string | null;
}

/** A consent a run revoked that is no longer as the run left it. */
export interface MovedRevocation {
  consent_id: string;
  /** Null when the consent no longer exists. */
  user_id: string | null;
  data_point_id: string | null;
  /** When the run revoked it, and when the consent says it was revoked now. */
  revoked_by_run_at: string;
  revoked_at: string | null;
}

/** A consent a run renewed (not one it created) that is gone or was changed since by someone else. */
export interface ChangedRenewal {
  consent_id: string;
  /** Null when the consent no longer exists. */
  user_id: string | null;
  data_point_id: string | null;
  /** When the run renewed it. */
  renewed_by_run_at: string;
  /** The later entry (null when the consent is gone): its action, time and run (null: a request). */
  action: string | null;
  created_at: string | null;
  import_run_id: string | null;
}

/**
 * Persistence of import runs, always scoped to one tenant. An import writes its batches under the tenant's journal
 * lock, so inside a unit of work no batch lands between what a revert reads and its commit.
 */
export interface ImportRunStore {
  insert(run: ImportRun): Promise<void>;
  /** Replaces the record of a run (its status, counts and times). */
  update(run: ImportRun): Promise<void>;
  /** Replaces the record of a run that is still `running` (not one reverted meanwhile); false when it was not. */
  finish(run: ImportRun): Promise<boolean>;
  get(tenant: string, id: string): Promise<ImportRun | undefined>;
  list(tenant: string, q: ImportRunQuery): Promise<{ total: number; rows: ImportRun[] }>;
  /** Entries written by others into the histories of the consents the run created (at most `limit`), by consent. */
  laterEntries(tenant: string, runId: string, limit: number): Promise<LaterEntry[]>;
  /** The consents the run revoked that are gone or carry another revocation now (at most `limit`). */
  movedRevocations(tenant: string, runId: string, limit: number): Promise<MovedRevocation[]>;
  /** Deletes the consents the run created with their histories; answers how many consents. */
  removeCreated(tenant: string, runId: string): Promise<number>;
  /** Makes the consents the run revoked active again and drops its revocation entries; answers how many. */
  undoRevocations(tenant: string, runId: string): Promise<number>;
  /** The consents the run renewed that are gone or were changed since by others (at most `limit`). */
  changedRenewals(tenant: string, runId: string, limit: number): Promise<ChangedRenewal[]>;
  /** Gives the consents the run renewed their version from before and drops its renewal entries; answers how many. */
  undoRenewals(tenant: string, runId: string): Promise<number>;
}
