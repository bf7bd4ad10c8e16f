import type { Kysely } from 'kysely';

// Impact assessments with their audit trail, and the API keys of `compliance serve`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dsfa')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('processing_activity', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('data_categories', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('measures', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('ai_use_case_modules', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('dsfa_tenant_created').on('dsfa').columns(['tenant_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('dsfa_tenant_status').on('dsfa').columns(['tenant_id', 'status', 'risk_level']).execute();

  await db.schema
    .createTable('dsfa_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('dsfa_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('old_values', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('new_values', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dsfa_audit_tenant_created')
    .on('dsfa_audit')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('dsfa_audit_tenant_dsfa').on('dsfa_audit').columns(['tenant_id', 'dsfa_id']).execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_key').execute();
  await db.schema.dropTable('dsfa_audit').execute();
  await db.schema.dropTable('dsfa').execute();
}
