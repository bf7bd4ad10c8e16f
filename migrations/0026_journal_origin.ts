import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

/**
 * Journal entries name where a change came from when another store sent it: `origin` is `sync:REPLICA` for a
 * record a client pushed, `bundle:SHA` for one a bundle brought; the principal stays what made the request (the key,
 * `key:PREFIX`). NULL for every change made here and every entry written before: those keep their hash (an entry
 * with an origin is hashed in format 2, see src/domain/journal/chain.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema.alterTable('journal').addColumn('origin', text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('journal').dropColumn('origin').execute();
}
