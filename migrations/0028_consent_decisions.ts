import { sql, type Kysely } from 'kysely';

/**
 * One decision in force per user and data point (issue 36): a bulk import may renew the grant in force to the version
 * a row gives, and a refusal it reads revokes that grant, as a request does.
 * - consent_import_run.renewed: the rows of a run that renewed a grant in force (0 for runs before);
 * - a run's revocations and renewals of stored consents (entries with source `import`) are found by partial indexes
 *   that end in the entry's id, so a batch's journal entry reads its own range of them rather than every one of the
 *   run so far (0016's index on the run alone made a run of refusals slower with each batch).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('consent_import_run')
    .addColumn('renewed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('consent_history_import_revocations').execute();
  await sql`create index consent_history_import_revocations on consent_history (tenant_id, import_run_id, id)
    where import_run_id is not null and action = 'revoked' and source = 'import'`.execute(db);
  await sql`create index consent_history_import_renewals on consent_history (tenant_id, import_run_id, id)
    where import_run_id is not null and action = 'version_update' and source = 'import'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('consent_history_import_renewals').execute();
  await db.schema.dropIndex('consent_history_import_revocations').execute();
  await sql`create index consent_history_import_revocations on consent_history (tenant_id, import_run_id)
    where import_run_id is not null and action = 'revoked' and source = 'import'`.execute(db);
  await db.schema.alterTable('consent_import_run').dropColumn('renewed').execute();
}
