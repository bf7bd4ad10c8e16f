import { sql, type Kysely } from 'kysely';

/**
 * The journal's entries of one assessment, found without reading the tenant's whole chain: the strict review
 * workflow compares the principal approving with the principals that wrote and submitted it (four eyes, compared by
 * key rather than by the names a request sends), and reads them from the journal. Partial, so the entries of every
 * other table (a million banner consents) add nothing to it; the lookup names `entity = 'dsfa'` as a literal, which
 * both engines need to use a partial index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('journal_dsfa_record')
    .on('journal')
    .columns(['tenant_id', 'entity_id', 'seq'])
    .where(sql.ref('entity'), '=', sql.lit('dsfa'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('journal_dsfa_record').execute();
}
