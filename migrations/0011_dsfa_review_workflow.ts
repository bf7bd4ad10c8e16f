import type { Kysely } from 'kysely';
import { columnTypes, isolateTenant } from './dialect.js';

/**
 * The review workflow a tenant chose for its assessments: `open` (any status to any other, as the API specification
 * allows) unless a row here says `strict`. One row per tenant that changed it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema
    .createTable('dsfa_setting')
    .addColumn('tenant_id', text, (c) => c.primaryKey())
    .addColumn('workflow', text, (c) => c.notNull())
    .addColumn('updated_by', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await isolateTenant(db, 'dsfa_setting');
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dsfa_setting').execute();
}
