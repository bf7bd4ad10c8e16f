import type { Kysely } from 'kysely';
import { columnTypes, isolateTenant } from './dialect.js';

/**
 * Sync bookkeeping (compliance sync): per server and tenant where this store stands (the server's journal applied
 * up to `pulled_seq`, its own entries pushed up to `pushed_seq`), per record the version both sides last agreed on,
 * and the conflicts, each with both versions. None of it is tenant data: it is never journaled nor synced.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema
    .createTable('sync_state')
    .addColumn('remote', text, (c) => c.notNull())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('replica_id', text, (c) => c.notNull())
    .addColumn('pulled_seq', 'bigint', (c) => c.notNull())
    .addColumn('pushed_seq', 'bigint', (c) => c.notNull())
    .addColumn('synced_at', text)
    .addPrimaryKeyConstraint('sync_state_pk', ['remote', 'tenant_id'])
    .execute();
  await isolateTenant(db, 'sync_state');
  await db.schema
    .createTable('sync_base')
    .addColumn('remote', text, (c) => c.notNull())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('entity', text, (c) => c.notNull())
    .addColumn('entity_id', text, (c) => c.notNull())
    .addColumn('version', text)
    .addPrimaryKeyConstraint('sync_base_pk', ['remote', 'tenant_id', 'entity', 'entity_id'])
    .execute();
  await isolateTenant(db, 'sync_base');
  await db.schema
    .createTable('sync_conflict')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('remote', text, (c) => c.notNull())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('entity', text, (c) => c.notNull())
    .addColumn('entity_id', text, (c) => c.notNull())
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('base', text)
    .addColumn('ours', text)
    .addColumn('theirs', text)
    .addColumn('theirs_version', text)
    .addColumn('fields', text, (c) => c.notNull())
    .addColumn('our_actor', text)
    .addColumn('our_time', text)
    .addColumn('their_actor', text)
    .addColumn('their_time', text)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('resolution', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('resolved_at', text)
    .execute();
  await isolateTenant(db, 'sync_conflict');
  await db.schema
    .createIndex('sync_conflict_record')
    .on('sync_conflict')
    .columns(['tenant_id', 'remote', 'entity', 'entity_id', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_conflict').execute();
  await db.schema.dropTable('sync_base').execute();
  await db.schema.dropTable('sync_state').execute();
}
