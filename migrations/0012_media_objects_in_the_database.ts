import type { Kysely } from 'kysely';
import { columnTypes, isolateTenant } from './dialect.js';

/**
 * Media objects kept in the database (PostgreSQL), a megabyte per row, so every `serve` replica reaches every object.
 * SQLite stores keep their media in a folder beside the file; the table exists there too and stays empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text, blob } = columnTypes(db);
  await db.schema
    .createTable('media_object_chunk')
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('bucket', text, (c) => c.notNull())
    .addColumn('object_key', text, (c) => c.notNull())
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('media_object_chunk_pk', ['tenant_id', 'bucket', 'object_key', 'chunk'])
    .execute();
  await isolateTenant(db, 'media_object_chunk');
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_object_chunk').execute();
}
