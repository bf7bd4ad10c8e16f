import { sql, type Kysely } from 'kysely';

/**
 * Several replicas on one database: at most one published version per legal document, held by a partial unique index
 * (publishing archives the previous version first, in the same transaction). Versions published twice by an older
 * release are resolved first: the highest version number stays published, the others are archived.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update legal_document_version set status = 'archived'
    where status = 'published' and exists (select 1 from legal_document_version newer
      where newer.document_id = legal_document_version.document_id and newer.status = 'published'
        and newer.version_number > legal_document_version.version_number)`.execute(db);
  await sql`create unique index legal_document_one_published on legal_document_version (document_id)
    where status = 'published'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('legal_document_one_published').execute();
}
