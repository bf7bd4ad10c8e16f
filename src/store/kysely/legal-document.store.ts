import type { Kysely } from 'kysely';
import type { LegalDocument, Version } from '../../domain/legal-documents/legal-document.schema.js';
import type { LegalDocumentStore } from '../../domain/legal-documents/legal-document-store.port.js';
import { engineFor } from '../engine.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

/** LegalDocumentStore on either engine through kysely. */
export class KyselyLegalDocumentStore implements LegalDocumentStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async list(tenant: string, f: { document_type?: string; status?: string }): Promise<LegalDocument[]> {
    let q = this.db.selectFrom('legal_document').selectAll().where('tenant_id', '=', tenant);
    if (f.document_type) q = q.where('document_type', '=', f.document_type);
    if (f.status) q = q.where('status', '=', f.status);
    return (await q.orderBy('id', 'desc').execute()) as LegalDocument[];
  }

  async get(tenant: string, id: string): Promise<LegalDocument | undefined> {
    return (await this.db
      .selectFrom('legal_document')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst()) as LegalDocument | undefined;
  }

  async lockDocument(tenant: string, id: string): Promise<boolean> {
    // PostgreSQL: a row lock, so replicas publishing or adding versions of one document take turns (a transaction
    // that waited then starts again on fresh data, see writeTransaction); SQLite's write lock already serializes
    let q = this.db.selectFrom('legal_document').select('id').where('tenant_id', '=', tenant).where('id', '=', id);
    if (engineFor(this.db).locksRows) q = q.forUpdate();
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(doc: LegalDocument): Promise<void> {
    await this.db.insertInto('legal_document').values(doc).execute();
    this.journal.put('legal_document', doc.id, doc, 'insert');
  }

  async updateDocument(
    tenant: string,
    id: string,
    set: Partial<Pick<LegalDocument, 'status' | 'updated_at'>>,
  ): Promise<void> {
    const row = await this.db
      .updateTable('legal_document')
      .set(set)
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row) this.journal.put('legal_document', id, row);
  }

  async versions(tenant: string, documentId: string): Promise<Version[]> {
    const rows = await this.db
      .selectFrom('legal_document_version')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('document_id', '=', documentId)
      .orderBy('version_number', 'desc')
      .execute();
    return rows.map(({ tenant_id: _t, ...v }) => v as Version);
  }

  async getVersion(tenant: string, id: string): Promise<Version | undefined> {
    const r = await this.db
      .selectFrom('legal_document_version')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) return undefined;
    const { tenant_id: _t, ...v } = r;
    return v as Version;
  }

  async insertVersion(tenant: string, v: Version): Promise<void> {
    const row = { ...v, tenant_id: tenant };
    await this.db.insertInto('legal_document_version').values(row).execute();
    this.journal.put('legal_document_version', v.id, row, 'insert');
  }

  async updateVersion(tenant: string, v: Version): Promise<void> {
    const { id, ...rest } = v;
    const row = await this.db
      .updateTable('legal_document_version')
      .set(rest)
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row) this.journal.put('legal_document_version', id, row);
  }
}
