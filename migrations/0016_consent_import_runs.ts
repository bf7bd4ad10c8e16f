import { sql, type Kysely } from 'kysely';
import { columnTypes, isolateTenant } from './dialect.js';

/**
 * Bulk imports of consents are recorded, so they can be listed and reverted.
 * - consent_import_run: one row per import run (not per dry run): the file, the SHA-256 of its bytes, the options, the
 *   counts, who ran it and when, and its status;
 * - consent.import_run_id: the run that created a consent (NULL: created through the API, or before this migration);
 * - consent_history.import_run_id: the run that wrote an entry (a created consent's entries, and the revocation of a
 *   stored consent, whose source is `import`).
 * Two partial indexes find a run's consents and its revocations of stored consents without touching the rows the API
 * writes; an import that only creates consents writes no entry into the second.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema
    .createTable('consent_import_run')
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('file_name', text)
    .addColumn('sha256', text)
    .addColumn('format', text, (c) => c.notNull())
    .addColumn('options', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull())
    .addColumn('unchanged', 'integer', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull())
    .addColumn('rejected', 'integer', (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .addColumn('started_at', text, (c) => c.notNull())
    .addColumn('finished_at', text)
    .addColumn('reverted_at', text)
    .addColumn('reverted_by', text)
    .addPrimaryKeyConstraint('consent_import_run_pk', ['tenant_id', 'id'])
    .execute();
  await isolateTenant(db, 'consent_import_run');
  await db.schema.alterTable('consent').addColumn('import_run_id', text).execute();
  await db.schema.alterTable('consent_history').addColumn('import_run_id', text).execute();
  await sql`create index consent_import_run_consents on consent (tenant_id, import_run_id)
    where import_run_id is not null`.execute(db);
  await sql`create index consent_history_import_revocations on consent_history (tenant_id, import_run_id)
    where import_run_id is not null and action = 'revoked' and source = 'import'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('consent_history_import_revocations').execute();
  await db.schema.dropIndex('consent_import_run_consents').execute();
  await db.schema.alterTable('consent_history').dropColumn('import_run_id').execute();
  await db.schema.alterTable('consent').dropColumn('import_run_id').execute();
  await db.schema.dropTable('consent_import_run').execute();
}
