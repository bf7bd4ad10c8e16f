import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// Impact assessments with their audit trail, and the API keys of `compliance serve`.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('dsfa')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('description', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('risk_level', t.text, (c) => c.notNull())
    .addColumn('processing_activity', t.text, (c) => c.notNull().defaultTo(''))
    .addColumn('data_categories', t.text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('recipients', t.text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('measures', t.text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('approved_by', t.text)
    .addColumn('approved_at', t.text)
    .addColumn('created_by', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .addColumn('ai_use_case_modules', t.text, (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('dsfa_tenant_created').on('dsfa').columns(['tenant_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('dsfa_tenant_status').on('dsfa').columns(['tenant_id', 'status', 'risk_level']).execute();

  await db.schema
    .createTable('dsfa_audit')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('dsfa_id', t.text, (c) => c.notNull())
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('changed_by', t.text, (c) => c.notNull())
    .addColumn('old_values', t.text, (c) => c.notNull().defaultTo('{}'))
    .addColumn('new_values', t.text, (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', t.text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dsfa_audit_tenant_created')
    .on('dsfa_audit')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('dsfa_audit_tenant_dsfa').on('dsfa_audit').columns(['tenant_id', 'dsfa_id']).execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('prefix', t.text, (c) => c.notNull().unique())
    .addColumn('hash', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('last_used_at', t.text)
    .addColumn('revoked_at', t.text)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_key').execute();
  await db.schema.dropTable('dsfa_audit').execute();
  await db.schema.dropTable('dsfa').execute();
}
