import { sql, type Kysely } from 'kysely';
import { columnTypes, isPostgres } from './dialect.js';

/**
 * Webhook deliveries (issue 35):
 * - A delivery is unique per (endpoint, journal entry, event type) only when it comes from the journal (seq > 0): the
 *   key keeps replicas that collect the same entries from storing a delivery twice. A `webhook.test` belongs to no
 *   entry (seq 0), and each test is a delivery of its own; the unconditional key made a second test a 500.
 * - An index on (endpoint_id, status, next_attempt_at): each endpoint's deliveries are claimed on their own, so a
 *   backlog of one endpoint is not read through to find another's.
 * SQLite cannot drop a table's constraint, so it rebuilds the table with the same columns; PostgreSQL alters it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table webhook_delivery drop constraint webhook_delivery_event`.execute(db);
  else await rebuildDeliveries(db, false);
  await db.schema
    .createIndex('webhook_delivery_event')
    .on('webhook_delivery')
    .columns(['endpoint_id', 'seq', 'event_type'])
    .unique()
    .where(sql.ref('seq'), '>', sql`0`)
    .execute();
  await db.schema
    .createIndex('webhook_delivery_endpoint_due')
    .on('webhook_delivery')
    .columns(['endpoint_id', 'status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_delivery_endpoint_due').execute();
  await db.schema.dropIndex('webhook_delivery_event').execute();
  // the old key allows one test delivery per endpoint: the newest of each stays
  await sql`delete from webhook_delivery where seq = 0 and id not in
    (select max(id) from webhook_delivery where seq = 0 group by endpoint_id, event_type)`.execute(db);
  if (isPostgres(db))
    await sql`alter table webhook_delivery add constraint webhook_delivery_event unique (endpoint_id, seq, event_type)`.execute(
      db,
    );
  else await rebuildDeliveries(db, true);
}

/** SQLite: webhook_delivery made again with the same rows and its due index, with or without 0022's unique key. */
async function rebuildDeliveries(db: Kysely<any>, withKey: boolean): Promise<void> {
  await createDeliveryTable(db, 'webhook_delivery_next', withKey);
  await sql`insert into webhook_delivery_next select * from webhook_delivery`.execute(db);
  await db.schema.dropTable('webhook_delivery').execute();
  await sql`alter table webhook_delivery_next rename to webhook_delivery`.execute(db);
  await db.schema
    .createIndex('webhook_delivery_due')
    .on('webhook_delivery')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

/** The columns of 0022's webhook_delivery, in its order (the copies above select `*`), with or without its key. */
async function createDeliveryTable(db: Kysely<any>, name: string, withKey: boolean): Promise<void> {
  const { text } = columnTypes(db);
  let t = db.schema
    .createTable(name)
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('endpoint_id', text, (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
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
    .addColumn('claimed_until', text);
  if (withKey) t = t.addUniqueConstraint('webhook_delivery_event', ['endpoint_id', 'seq', 'event_type']);
  await t.execute();
}
