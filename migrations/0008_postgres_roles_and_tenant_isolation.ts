import { sql, type Kysely } from 'kysely';
import { APP_ROLE, isolateTenant, isPostgres } from './dialect.js';

/**
 * PostgreSQL only (nothing on SQLite, which serves one laptop): the application role that requests run as, its
 * privileges, and row-level security on every table that has a tenant_id, keyed to the tenant set per request.
 * The connecting role owns the tables and stays outside the policies (migrations, `db status`, `db copy`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const role = sql.raw(APP_ROLE);
  // the role is shared by every database of the cluster; replicas and other databases may create it at the same time
  await sql`do $$
    begin
      begin
        create role ${role} nologin nobypassrls;
      exception
        when duplicate_object or unique_violation then null;
        when insufficient_privilege then
          raise exception 'cannot create the role ${role}: run once as an administrator: CREATE ROLE ${role} NOLOGIN; GRANT ${role} TO %;', current_user;
      end;
      if not pg_has_role(current_user, '${role}', case when current_setting('server_version_num')::int >= 160000 then 'SET' else 'MEMBER' end) then
        begin
          execute format('grant ${role} to %I', current_user);
        exception when others then
          -- another database granted it in the same moment; checked again below
          null;
        end;
      end if;
    end $$`.execute(db);
  const schema = sql.raw('current_schema()');
  await sql`do $$ begin execute format('grant usage on schema %I to ${role}', ${schema}); end $$`.execute(db);
  await sql`do $$ begin
      execute format('grant select, insert, update, delete on all tables in schema %I to ${role}', ${schema});
      execute format('alter default privileges in schema %I grant select, insert, update, delete on tables to ${role}', ${schema});
    end $$`.execute(db);
  const { rows } = await sql<{ table_name: string }>`select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'tenant_id' order by table_name`.execute(db);
  for (const r of rows) await isolateTenant(db, r.table_name);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ tablename: string }>`select tablename from pg_policies
    where schemaname = current_schema() and policyname = 'tenant_isolation'`.execute(db);
  for (const r of rows) {
    await sql`drop policy tenant_isolation on ${sql.table(r.tablename)}`.execute(db);
    await sql`alter table ${sql.table(r.tablename)} disable row level security`.execute(db);
  }
  await sql`do $$ begin
      execute format('revoke all on all tables in schema %I from ${sql.raw(APP_ROLE)}', current_schema());
    end $$`.execute(db);
}
