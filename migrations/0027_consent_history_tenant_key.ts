import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * On SQLite a consent's history was keyed (consent_id, created_at, id): consent ids are unique per tenant only, so a
 * statement by key could reach another tenant's entry of the same consent id and time. The key now begins with the
 * tenant, as every read names it anyway: another tenant's entries are out of reach of any key. PostgreSQL keys the
 * table by id and keeps each tenant to its rows by row-level security; its table stays as it is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await rebuild(db, 'tenant_id, consent_id, created_at, id');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await rebuild(db, 'consent_id, created_at, id');
}

async function rebuild(db: Kysely<any>, key: string): Promise<void> {
  await sql`create table consent_history_next (
    id text not null,
    tenant_id text not null,
    consent_id text not null,
    action text not null,
    consent_version text not null,
    ip_address text,
    user_agent text,
    source text,
    created_at text not null,
    import_run_id text,
    primary key (${sql.raw(key)})
  ) without rowid`.execute(db);
  await sql`insert into consent_history_next (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id)
    select id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at, import_run_id from consent_history`.execute(
    db,
  );
  await db.schema.dropTable('consent_history').execute();
  await sql`alter table consent_history_next rename to consent_history`.execute(db);
  await sql`create index consent_history_import_revocations on consent_history (tenant_id, import_run_id)
    where import_run_id is not null and action = 'revoked' and source = 'import'`.execute(db);
}
