import type { Kysely } from 'kysely';

// Audio and video of training modules: the bytes live in the media store, the records here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('training_media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('module_id', 'text', (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('content_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('duration_seconds', 'real', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .execute();
  await db.schema
    .createIndex('training_media_module')
    .on('training_media')
    .columns(['tenant_id', 'module_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('training_media').execute();
}
