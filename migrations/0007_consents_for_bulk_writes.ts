import { sql, type Kysely } from 'kysely';
import { columnTypes, isPostgres } from './dialect.js';

/**
 * Consents and their history laid out for bulk writes, keyed the way they are read.
 * - consent: a rowid table whose only unique key is (tenant_id, id), instead of a global primary key on id plus a
 *   tenant index; the user and statistics indexes end in the 8-byte rowid instead of the 36-character id, so the
 *   user index (filled in random order by an import) is half the size.
 * - consent_history: a clustered table (WITHOUT ROWID) keyed (consent_id, created_at, id), the order it is read in.
 * A bulk import writes five b-trees per consent instead of eight, and only one of them out of order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL keeps its heap tables; only the indexes take the shape they have on SQLite
  if (isPostgres(db))
    return reindexForPostgres(db, ['tenant_id', 'user_id', 'data_point_id'], ['consent_id', 'created_at', 'id']);
  await sql`create table consent_next (
    id text not null,
    tenant_id text not null,
    user_id text not null,
    data_point_id text not null,
    granted integer not null,
    granted_at text not null,
    revoked_at text,
    consent_version text not null,
    source text,
    ip_address text,
    user_agent text,
    created_at text not null
  )`.execute(db);
  await sql`insert into consent_next (id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at)
    select id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at from consent order by id`.execute(
    db,
  );
  await db.schema.dropTable('consent').execute();
  await sql`alter table consent_next rename to consent`.execute(db);
  // lookups and newest-first lists of a tenant; lookups by user (lists and the import's duplicate check); a covering
  // index for the statistics
  await db.schema.createIndex('consent_tenant_id').on('consent').columns(['tenant_id', 'id']).unique().execute();
  await db.schema
    .createIndex('consent_tenant_user')
    .on('consent')
    .columns(['tenant_id', 'user_id', 'data_point_id'])
    .execute();
  await db.schema
    .createIndex('consent_tenant_stats')
    .on('consent')
    .columns(['tenant_id', 'data_point_id', 'granted', 'revoked_at'])
    .execute();

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
    primary key (consent_id, created_at, id)
  ) without rowid`.execute(db);
  await sql`insert into consent_history_next (id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at)
    select id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at from consent_history`.execute(
    db,
  );
  await db.schema.dropTable('consent_history').execute();
  await sql`alter table consent_history_next rename to consent_history`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return reindexForPostgres(db, ['tenant_id', 'user_id', 'id'], ['consent_id', 'created_at']);
  const t = columnTypes(db);
  // back to the rowid tables of 0002, with their indexes
  await sql`create table consent_prev as select * from consent`.execute(db);
  await db.schema.dropTable('consent').execute();
  await db.schema
    .createTable('consent')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('user_id', t.text, (c) => c.notNull())
    .addColumn('data_point_id', t.text, (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('granted_at', t.text, (c) => c.notNull())
    .addColumn('revoked_at', t.text)
    .addColumn('consent_version', t.text, (c) => c.notNull())
    .addColumn('source', t.text)
    .addColumn('ip_address', t.text)
    .addColumn('user_agent', t.text)
    .addColumn('created_at', t.text, (c) => c.notNull())
    .execute();
  await sql`insert into consent select id, tenant_id, user_id, data_point_id, granted, granted_at, revoked_at, consent_version, source, ip_address, user_agent, created_at from consent_prev`.execute(
    db,
  );
  await db.schema.dropTable('consent_prev').execute();
  await db.schema.createIndex('consent_tenant_id').on('consent').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('consent_tenant_user').on('consent').columns(['tenant_id', 'user_id', 'id']).execute();
  await db.schema
    .createIndex('consent_tenant_stats')
    .on('consent')
    .columns(['tenant_id', 'data_point_id', 'granted', 'revoked_at'])
    .execute();

  await sql`create table consent_history_prev as select * from consent_history`.execute(db);
  await db.schema.dropTable('consent_history').execute();
  await db.schema
    .createTable('consent_history')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('consent_id', t.text, (c) => c.notNull())
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('consent_version', t.text, (c) => c.notNull())
    .addColumn('ip_address', t.text)
    .addColumn('user_agent', t.text)
    .addColumn('source', t.text)
    .addColumn('created_at', t.text, (c) => c.notNull())
    .execute();
  await sql`insert into consent_history select id, tenant_id, consent_id, action, consent_version, ip_address, user_agent, source, created_at from consent_history_prev`.execute(
    db,
  );
  await db.schema.dropTable('consent_history_prev').execute();
  await db.schema
    .createIndex('consent_history_consent')
    .on('consent_history')
    .columns(['consent_id', 'created_at'])
    .execute();
}

async function reindexForPostgres(db: Kysely<any>, userColumns: string[], historyColumns: string[]): Promise<void> {
  await db.schema.dropIndex('consent_tenant_user').execute();
  await db.schema.createIndex('consent_tenant_user').on('consent').columns(userColumns).execute();
  await db.schema.dropIndex('consent_history_consent').execute();
  await db.schema.createIndex('consent_history_consent').on('consent_history').columns(historyColumns).execute();
}
