import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// Training blocks: configurations that generate modules from canonical controls, and the links they create.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('training_block')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('name', t.text, (c) => c.notNull())
    .addColumn('description', t.text, (c) => c.notNull())
    .addColumn('domain_filter', t.text)
    .addColumn('category_filter', t.text)
    .addColumn('severity_filter', t.text)
    .addColumn('target_audience_filter', t.text)
    .addColumn('regulation_area', t.text, (c) => c.notNull())
    .addColumn('module_code_prefix', t.text, (c) => c.notNull())
    .addColumn('frequency_type', t.text, (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('pass_threshold', 'integer', (c) => c.notNull())
    .addColumn('max_controls_per_module', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .addColumn('last_generated_at', t.text)
    .execute();
  await db.schema.createIndex('training_block_tenant').on('training_block').columns(['tenant_id', 'id']).execute();
  await db.schema
    .createTable('training_block_control')
    .addColumn('block_id', t.text, (c) => c.notNull().references('training_block.id').onDelete('cascade'))
    .addColumn('control_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('training_block_control_pk', ['block_id', 'control_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('training_block_control').execute();
  await db.schema.dropTable('training_block').execute();
}
