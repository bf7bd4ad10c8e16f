import type { CanonicalTables } from './db-types-canonical.js';
import type { ConsentTables } from './db-types-consents.js';
import type { EventTables } from './db-types-events.js';
import type { TrainingBlockTables, TrainingMediaTables, TrainingTables } from './db-types-training.js';
import type { StoredEntry } from '../domain/journal/chain.js';
import type { SyncTables } from './db-types-sync.js';

/** Row types of the SQLite store as kysely sees them: JSON is text, booleans are integers. */
export interface DsfaRow {
  id: string;
  tenant_id: string;
  title: string;
  description: string;
  status: string;
  risk_level: string;
  processing_activity: string;
  data_categories: string;
  recipients: string;
  measures: string;
  approved_by: string | null;
  approved_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  ai_use_case_modules: string;
  // optional fields (migration 0014): NULL while unset; lists and items as JSON text
  controller: string | null;
  purposes: string | null;
  data_subjects: string | null;
  necessity_assessment: string | null;
  risks: string | null;
  measure_details: string | null;
  dpo_opinion: string | null;
  dpo_name: string | null;
  dpo_opinion_date: string | null;
  review_date: string | null;
}

export interface DsfaAuditRow {
  id: string;
  tenant_id: string;
  dsfa_id: string;
  action: string;
  changed_by: string;
  old_values: string;
  new_values: string;
  created_at: string;
}

export interface DsfaSettingRow {
  tenant_id: string;
  workflow: string;
  updated_by: string;
  updated_at: string;
}

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Migration 0020: `admin` for keys stored before it. */
  scope: string;
  /** JSON array of tenant ids; NULL: every tenant (keys stored before 0020). */
  tenants: string | null;
  /** JSON array of origins (publishable keys). */
  origins: string;
  expires_at: string | null;
}

/** One entry of a tenant's hash-chained journal (migration 0017), as src/domain/journal/chain.ts describes it. */
export type JournalRow = Omit<StoredEntry, 'preimage'>;

export interface DB
  extends
    ConsentTables,
    CanonicalTables,
    TrainingTables,
    TrainingMediaTables,
    TrainingBlockTables,
    EventTables,
    SyncTables {
  dsfa: DsfaRow;
  dsfa_audit: DsfaAuditRow;
  dsfa_setting: DsfaSettingRow;
  media_object_chunk: { tenant_id: string; bucket: string; object_key: string; chunk: number; data: Uint8Array };
  api_key: ApiKeyRow;
  journal: JournalRow;
  /** The tenants the store knows (migration 0023), each registered by its first journal entry. */
  tenant: { tenant_id: string; created_at: string };
}
