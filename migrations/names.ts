import type { Migration } from 'kysely';

/**
 * Every migration, in order, each with the import that loads it: the one list to append a migration to. Opening a
 * store reads the names to know whether it is up to date, without loading the migrations themselves (index.ts loads
 * them when a store needs one). A test holds this list equal to the migration files in this folder.
 */
export const MIGRATIONS = {
  '0001_dsfa_and_keys': () => import('./0001_dsfa_and_keys.js'),
  '0002_consents_legal_cookies': () => import('./0002_consents_legal_cookies.js'),
  '0003_canonical_controls': () => import('./0003_canonical_controls.js'),
  '0004_training': () => import('./0004_training.js'),
  '0005_training_media': () => import('./0005_training_media.js'),
  '0006_training_blocks': () => import('./0006_training_blocks.js'),
  '0007_consents_for_bulk_writes': () => import('./0007_consents_for_bulk_writes.js'),
  '0008_postgres_roles_and_tenant_isolation': () => import('./0008_postgres_roles_and_tenant_isolation.js'),
  '0009_consents_and_legal_documents_for_replicas': () => import('./0009_consents_and_legal_documents_for_replicas.js'),
  '0010_training_replicas': () => import('./0010_training_replicas.js'),
  '0011_dsfa_review_workflow': () => import('./0011_dsfa_review_workflow.js'),
  '0012_media_objects_in_the_database': () => import('./0012_media_objects_in_the_database.js'),
  '0013_consent_tallies_on_postgres': () => import('./0013_consent_tallies_on_postgres.js'),
  '0014_dsfa_art35_fields': () => import('./0014_dsfa_art35_fields.js'),
  '0015_short_id_indexes': () => import('./0015_short_id_indexes.js'),
  '0016_consent_import_runs': () => import('./0016_consent_import_runs.js'),
  '0017_journal': () => import('./0017_journal.js'),
  '0018_consent_stats_by_month': () => import('./0018_consent_stats_by_month.js'),
  '0019_sync': () => import('./0019_sync.js'),
  '0020_key_scopes': () => import('./0020_key_scopes.js'),
  '0021_consent_receipts': () => import('./0021_consent_receipts.js'),
  '0022_events': () => import('./0022_events.js'),
  '0023_webhook_deliveries_per_endpoint': () => import('./0023_webhook_deliveries_per_endpoint.js'),
  '0024_mail_readers_and_delivery_ids': () => import('./0024_mail_readers_and_delivery_ids.js'),
  '0025_tenants': () => import('./0025_tenants.js'),
  '0026_journal_origin': () => import('./0026_journal_origin.js'),
  '0027_consent_history_tenant_key': () => import('./0027_consent_history_tenant_key.js'),
  '0028_consent_decisions': () => import('./0028_consent_decisions.js'),
  '0029_journal_dsfa_principals': () => import('./0029_journal_dsfa_principals.js'),
} satisfies Record<string, () => Promise<Migration>>;

/** The names of every migration, in order. */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS) as readonly (keyof typeof MIGRATIONS)[];
