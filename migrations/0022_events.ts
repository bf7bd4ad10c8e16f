import type { Kysely } from 'kysely';
import { columnTypes, isolateTenant, isPostgres } from './dialect.js';

/**
 * Events (issue 26): webhook endpoints with their cursor in the tenant's journal, one delivery row per (endpoint,
 * journal entry, event type) with its attempts and its claim by one replica; the e-mail outbox of escalations, the
 * (assignment, level) pairs already notified, the tenant's notification settings and overridden templates; and the
 * team lead's address on assignments. Delivery state is operational data outside the journal: the journal is what
 * they deliver, and journalling a delivery would make events of events.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  const int = isPostgres(db) ? 'bigint' : 'integer';
  await db.schema
    .createTable('webhook_endpoint')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('url', text, (c) => c.notNull())
    .addColumn('secret', text, (c) => c.notNull())
    .addColumn('events', text, (c) => c.notNull())
    .addColumn('allow_private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('cursor_seq', int, (c) => c.notNull())
    .addColumn('failing_since', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoint_tenant').on('webhook_endpoint').columns(['tenant_id']).execute();
  await isolateTenant(db, 'webhook_endpoint');

  await db.schema
    .createTable('webhook_delivery')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('endpoint_id', text, (c) => c.notNull())
    .addColumn('seq', int, (c) => c.notNull())
    .addColumn('event_type', text, (c) => c.notNull())
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('next_attempt_at', text, (c) => c.notNull())
    .addColumn('last_attempt_at', text)
    .addColumn('last_status', 'integer')
    .addColumn('last_error', text)
    .addColumn('response_excerpt', text)
    .addColumn('delivered_at', text)
    .addColumn('claimed_by', text)
    .addColumn('claimed_until', text)
    .addUniqueConstraint('webhook_delivery_event', ['endpoint_id', 'seq', 'event_type'])
    .execute();
  await db.schema
    .createIndex('webhook_delivery_due')
    .on('webhook_delivery')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await isolateTenant(db, 'webhook_delivery');

  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('run_id', text, (c) => c.notNull())
    .addColumn('recipient', text, (c) => c.notNull())
    .addColumn('language', text, (c) => c.notNull())
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('body_text', text, (c) => c.notNull())
    .addColumn('body_html', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('next_attempt_at', text, (c) => c.notNull())
    .addColumn('sent_at', text)
    .addColumn('last_error', text)
    .addColumn('claimed_by', text)
    .addColumn('claimed_until', text)
    .execute();
  await db.schema
    .createIndex('notification_outbox_due')
    .on('notification_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await isolateTenant(db, 'notification_outbox');

  await db.schema
    .createTable('notification_escalation_sent')
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('assignment_id', text, (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('outbox_id', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_escalation_sent_pk', ['assignment_id', 'level'])
    .execute();
  await isolateTenant(db, 'notification_escalation_sent');

  await db.schema
    .createTable('notification_setting')
    .addColumn('tenant_id', text, (c) => c.primaryKey())
    .addColumn('language', text, (c) => c.notNull())
    .addColumn('management_email', text)
    .addColumn('compliance_officer_email', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await isolateTenant(db, 'notification_setting');

  await db.schema
    .createTable('notification_template')
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('language', text, (c) => c.notNull())
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('body_text', text, (c) => c.notNull())
    .addColumn('body_html', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_template_pk', ['tenant_id', 'name', 'language'])
    .execute();
  await isolateTenant(db, 'notification_template');

  await db.schema.alterTable('training_assignment').addColumn('manager_email', text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('training_assignment').dropColumn('manager_email').execute();
  for (const t of [
    'notification_template',
    'notification_setting',
    'notification_escalation_sent',
    'notification_outbox',
    'webhook_delivery',
    'webhook_endpoint',
  ])
    await db.schema.dropTable(t).execute();
}
