import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

/**
 * API keys get a scope, the tenants they open, the browser origins of a publishable key and an expiry. A key stored
 * before this migration keeps working as it did: scope `admin` and `tenants` NULL, which means every tenant (new keys
 * always name their tenants). `origins` is a JSON array of `scheme://host[:port]`, empty for secret keys.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema
    .alterTable('api_key')
    .addColumn('scope', text, (c) => c.notNull().defaultTo('admin'))
    .execute();
  await db.schema.alterTable('api_key').addColumn('tenants', text).execute();
  await db.schema
    .alterTable('api_key')
    .addColumn('origins', text, (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('api_key').addColumn('expires_at', text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['expires_at', 'origins', 'tenants', 'scope'])
    await db.schema.alterTable('api_key').dropColumn(column).execute();
}
