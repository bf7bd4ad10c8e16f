/**
 * The names of every migration, in order: what opening a store needs to know whether it is up to date, without
 * loading the migrations themselves (they load only when a store needs one). A test holds it equal to index.ts.
 */
export const MIGRATION_NAMES = [
  '0001_dsfa_and_keys',
  '0002_consents_legal_cookies',
  '0003_canonical_controls',
  '0004_training',
  '0005_training_media',
  '0006_training_blocks',
  '0007_consents_for_bulk_writes',
  '0008_postgres_roles_and_tenant_isolation',
  '0009_consents_and_legal_documents_for_replicas',
  '0010_training_replicas',
  '0011_dsfa_review_workflow',
  '0012_media_objects_in_the_database',
  '0013_consent_tallies_on_postgres',
  '0014_dsfa_art35_fields',
  '0015_short_id_indexes',
  '0016_consent_import_runs',
  '0017_journal',
  '0018_consent_stats_by_month',
  '0019_sync',
  '0020_key_scopes',
  '0021_consent_receipts',
  '0022_events',
  '0023_webhook_deliveries_per_endpoint',
  '0024_mail_readers_and_delivery_ids',
  '0025_tenants',
  '0026_journal_origin',
  '0027_consent_history_tenant_key',
] as const;
