import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// Consents with their history, legal documents with versions, and one cookie-banner configuration per tenant.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
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
  // list newest first, lookups by user (also the import's duplicate check), and a covering index for statistics
  await db.schema.createIndex('consent_tenant_id').on('consent').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('consent_tenant_user').on('consent').columns(['tenant_id', 'user_id', 'id']).execute();
  await db.schema
    .createIndex('consent_tenant_stats')
    .on('consent')
    .columns(['tenant_id', 'data_point_id', 'granted', 'revoked_at'])
    .execute();

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
  await db.schema
    .createIndex('consent_history_consent')
    .on('consent_history')
    .columns(['consent_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('legal_document')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('document_type', t.text, (c) => c.notNull())
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('legal_document_tenant').on('legal_document').columns(['tenant_id', 'id']).execute();

  await db.schema
    .createTable('legal_document_version')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('document_id', t.text, (c) => c.notNull().references('legal_document.id').onDelete('cascade'))
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('content', t.text, (c) => c.notNull())
    .addColumn('change_summary', t.text)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('created_by', t.text)
    .addColumn('approved_by', t.text)
    .addColumn('approved_at', t.text)
    .addColumn('comment', t.text)
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .addColumn('published_at', t.text)
    .addUniqueConstraint('legal_document_version_number', ['document_id', 'version_number'])
    .execute();

  await db.schema
    .createTable('cookie_banner')
    .addColumn('tenant_id', t.text, (c) => c.primaryKey())
    .addColumn('categories', t.text, (c) => c.notNull())
    .addColumn('config', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['cookie_banner', 'legal_document_version', 'legal_document', 'consent_history', 'consent'])
    await db.schema.dropTable(t).execute();
}
