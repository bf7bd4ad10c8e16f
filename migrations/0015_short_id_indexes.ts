import { sql, type Kysely } from 'kysely';

/**
 * Short ids are looked up by the last 8 characters of an id (src/domain/short-id.ts): an index per table on
 * `(tenant_id, substr(id, 29))` finds them without reading the table (a tenant may hold a million consents). The
 * expression is written exactly as the lookup writes it (src/store/kysely/id-match.ts), so both engines use the index.
 * Each pair is a table and the column holding the ids commands take; the audit trail keeps deleted assessments' ids.
 */
const TAILS: Array<[table: string, column: string]> = [
  ['dsfa', 'id'],
  ['dsfa_audit', 'dsfa_id'],
  ['consent', 'id'],
  ['legal_document', 'id'],
  ['legal_document_version', 'id'],
  ['training_module', 'id'],
  ['training_assignment', 'id'],
  ['training_certificate', 'id'],
  ['training_content', 'id'],
  ['training_media', 'id'],
  ['training_block', 'id'],
];

const name = (table: string) => `${table}_tenant_id_tail`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of TAILS)
    await db.schema
      .createIndex(name(table))
      .on(table)
      .expression(sql`tenant_id, substr(${sql.ref(column)}, 29), ${sql.ref(column)}`)
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of [...TAILS].reverse()) await db.schema.dropIndex(name(table)).execute();
}
