import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// Audio and video of training modules: the bytes live in the media store, the records here.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('training_media')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('content_id', t.text)
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('bucket', t.text, (c) => c.notNull())
    .addColumn('object_key', t.text, (c) => c.notNull())
    .addColumn('content_type', t.text, (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('duration_seconds', t.real, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('published_at', t.text)
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
