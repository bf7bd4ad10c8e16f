import { sql, type Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

/**
 * Escalation e-mail written for its reader (issue 36):
 * - training_module.title_en: a module's English title (NULL: none; English e-mail then names it by `title`);
 * - notification_setting.base_url: the tenant's training portal, linked from every message (NULL: no link).
 * And webhook deliveries are found by their short id (`webhooks redeliver 4e5f6a7b`) on an index of the last 8
 * characters of their id, as migration 0015 gives the other records.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema.alterTable('training_module').addColumn('title_en', text).execute();
  await db.schema.alterTable('notification_setting').addColumn('base_url', text).execute();
  await db.schema
    .createIndex('webhook_delivery_tenant_id_tail')
    .on('webhook_delivery')
    .expression(sql`tenant_id, substr(id, 29), id`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_delivery_tenant_id_tail').execute();
  await db.schema.alterTable('notification_setting').dropColumn('base_url').execute();
  await db.schema.alterTable('training_module').dropColumn('title_en').execute();
}
