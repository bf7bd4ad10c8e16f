import type { Migration } from 'kysely';
import * as m0001 from './0001_dsfa_and_keys.js';
import * as m0002 from './0002_consents_legal_cookies.js';
import * as m0003 from './0003_canonical_controls.js';
import * as m0004 from './0004_training.js';
import * as m0005 from './0005_training_media.js';
import * as m0006 from './0006_training_blocks.js';
import * as m0007 from './0007_consents_for_bulk_writes.js';
import * as m0008 from './0008_postgres_roles_and_tenant_isolation.js';
import * as m0009 from './0009_consents_and_legal_documents_for_replicas.js';
import * as m0010 from './0010_training_replicas.js';
import * as m0011 from './0011_dsfa_review_workflow.js';
import * as m0012 from './0012_media_objects_in_the_database.js';
import * as m0013 from './0013_consent_tallies_on_postgres.js';
import * as m0014 from './0014_dsfa_art35_fields.js';
import * as m0015 from './0015_short_id_indexes.js';
import * as m0016 from './0016_consent_import_runs.js';
import * as m0017 from './0017_journal.js';
import * as m0018 from './0018_consent_stats_by_month.js';
import * as m0019 from './0019_sync.js';
import * as m0020 from './0020_key_scopes.js';
import * as m0021 from './0021_consent_receipts.js';
import * as m0022 from './0022_events.js';
import * as m0023 from './0023_webhook_deliveries_per_endpoint.js';
import * as m0024 from './0024_mail_readers_and_delivery_ids.js';
import * as m0025 from './0025_tenants.js';
import * as m0026 from './0026_journal_origin.js';
import * as m0027 from './0027_consent_history_tenant_key.js';
import * as m0028 from './0028_consent_decisions.js';
import * as m0029 from './0029_journal_dsfa_principals.js';

/** Every migration in order. Append-only: a migration that has landed is never edited. */
export const migrations: Record<string, Migration> = {
  '0001_dsfa_and_keys': m0001,
  '0002_consents_legal_cookies': m0002,
  '0003_canonical_controls': m0003,
  '0004_training': m0004,
  '0005_training_media': m0005,
  '0006_training_blocks': m0006,
  '0007_consents_for_bulk_writes': m0007,
  '0008_postgres_roles_and_tenant_isolation': m0008,
  '0009_consents_and_legal_documents_for_replicas': m0009,
  '0010_training_replicas': m0010,
  '0011_dsfa_review_workflow': m0011,
  '0012_media_objects_in_the_database': m0012,
  '0013_consent_tallies_on_postgres': m0013,
  '0014_dsfa_art35_fields': m0014,
  '0015_short_id_indexes': m0015,
  '0016_consent_import_runs': m0016,
  '0017_journal': m0017,
  '0018_consent_stats_by_month': m0018,
  '0019_sync': m0019,
  '0020_key_scopes': m0020,
  '0021_consent_receipts': m0021,
  '0022_events': m0022,
  '0023_webhook_deliveries_per_endpoint': m0023,
  '0024_mail_readers_and_delivery_ids': m0024,
  '0025_tenants': m0025,
  '0026_journal_origin': m0026,
  '0027_consent_history_tenant_key': m0027,
  '0028_consent_decisions': m0028,
  '0029_journal_dsfa_principals': m0029,
};
