import type { Kysely } from 'kysely';

// An organisation's own canonical controls; the shipped catalogue stays in fixtures/ and is not copied here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('training_canonical_control')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('objective', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('target_audience', 'text', (c) => c.notNull())
    .addColumn('references', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('training_canonical_control_pk', ['tenant_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('training_canonical_control').execute();
}
