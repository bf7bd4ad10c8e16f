import { sql, type Kysely } from 'kysely';
import { columnTypes, isolateTenant, isPostgres } from './dialect.js';

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
  if (isPostgres(db))
    // a revert deletes a run's consents in one statement, and its users with no consent left go (0013) by a join whose
    // plan followed the statistics of consent_user; in the middle of an import they are stale, and the join read the
    // whole table once per user (a revert of 10,000 consents ran for more than 5 s, 0.1 s with fresh statistics). One
    // lookup per user on the primary key needs no statistics.
    await sql`create or replace function consent_user_forget(gone jsonb) returns void language plpgsql as $$
      declare g record;
      begin
        for g in select distinct o.tenant_id, o.user_id from jsonb_to_recordset(gone) as o(tenant_id text, user_id text)
        loop
          delete from consent_user u where u.tenant_id = g.tenant_id and u.user_id = g.user_id
            and not exists (select 1 from consent c where c.tenant_id = g.tenant_id and c.user_id = g.user_id);
        end loop;
      end $$`.execute(db);
  // short ids, as migration 0015 made them for the other tables
  await sql`create index consent_import_run_tenant_id_tail on consent_import_run (tenant_id, substr(id, 29), id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db))
    await sql`create or replace function consent_user_forget(gone jsonb) returns void language sql as $$
      delete from consent_user u
        using (select distinct g.tenant_id, g.user_id from jsonb_to_recordset(gone) as g(tenant_id text, user_id text)) o
        where u.tenant_id = o.tenant_id and u.user_id = o.user_id
          and not exists (select 1 from consent c where c.tenant_id = o.tenant_id and c.user_id = o.user_id)
    $$`.execute(db);
  await db.schema.dropIndex('consent_import_run_tenant_id_tail').execute();
  await db.schema.dropIndex('consent_history_import_revocations').execute();
  await db.schema.dropIndex('consent_import_run_consents').execute();
  await db.schema.alterTable('consent_history').dropColumn('import_run_id').execute();
  await db.schema.alterTable('consent').dropColumn('import_run_id').execute();
  await db.schema.dropTable('consent_import_run').execute();
}
