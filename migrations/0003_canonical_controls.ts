import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// An organisation's own canonical controls; the shipped catalogue stays in fixtures/ and is not copied here.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('training_canonical_control')
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('id', t.text, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('objective', t.text, (c) => c.notNull())
    .addColumn('domain', t.text, (c) => c.notNull())
    .addColumn('category', t.text, (c) => c.notNull())
    .addColumn('severity', t.text, (c) => c.notNull())
    .addColumn('target_audience', t.text, (c) => c.notNull())
    .addColumn('references', t.text, (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .addPrimaryKeyConstraint('training_canonical_control_pk', ['tenant_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('training_canonical_control').execute();
}
