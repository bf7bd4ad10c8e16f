import { sql, type Kysely } from 'kysely';
import { APP_ROLE, columnTypes, isolateTenant, isPostgres } from './dialect.js';

/**
 * The tenants a store knows: one row per tenant, written with the tenant's first journal entry (its first record),
 * so a command that names a tenant the store has never seen can say so instead of answering empty (issue 36). The
 * store's own chain (the empty tenant id, API keys) is no tenant.
 *
 * Existing stores register every tenant their journal holds (migration 0017 chained every record already stored),
 * with the time of its first entry. On PostgreSQL the table is isolated like every other: a request sees its own
 * tenant's row only, so no route reading through the application role can list another tenant's name; the
 * application adds rows and never changes or removes one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema
    .createTable('tenant')
    .addColumn('tenant_id', text, (c) => c.primaryKey())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await isolateTenant(db, 'tenant');
  if (isPostgres(db)) await sql`revoke update, delete, truncate on tenant from ${sql.raw(APP_ROLE)}`.execute(db);
  await sql`insert into tenant (tenant_id, created_at)
    select tenant_id, min(time) from journal where tenant_id <> '' group by tenant_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tenant').execute();
}
