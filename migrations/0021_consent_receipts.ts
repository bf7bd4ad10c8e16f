import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

/**
 * A consent recorded by the website banner carries the texts the visitor was shown, so its receipt can name them:
 * - banner_revision: the revision of the tenant's cookie-banner configuration (a hash of its content);
 * - policy_version_id and policy_content_hash: the published privacy-policy version and the SHA-256 of its content.
 * All three are NULL for consents recorded otherwise (the API without them, an import, or before this migration).
 * The receipts' signing key is a row of `setting` (migration 0004), created on first use.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  await db.schema.alterTable('consent').addColumn('banner_revision', text).execute();
  await db.schema.alterTable('consent').addColumn('policy_version_id', text).execute();
  await db.schema.alterTable('consent').addColumn('policy_content_hash', text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('consent').dropColumn('policy_content_hash').execute();
  await db.schema.alterTable('consent').dropColumn('policy_version_id').execute();
  await db.schema.alterTable('consent').dropColumn('banner_revision').execute();
}
