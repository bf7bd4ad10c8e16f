import type { Kysely } from 'kysely';
import { bindHandlers } from '../../contract/bind.js';
import { legalDocumentsContract } from '../../contract/legal-documents.contract.js';
import type { Clock, IdSource } from '../../domain/clock.js';
import type { LegalDocument, Version } from '../../domain/legal-documents/legal-document.schema.js';
import { LegalDocumentService } from '../../domain/legal-documents/legal-document.service.js';
import type { LegalDocumentStore } from '../../domain/legal-documents/legal-document.store.js';
import { writeTransaction } from '../../store/transaction.js';
import type { DB } from '../../store/db-types.js';

class SqliteLegalDocumentStore implements LegalDocumentStore {
  constructor(private readonly db: Kysely<DB>) {}

  transaction<T>(fn: (s: LegalDocumentStore) => Promise<T>): Promise<T> {
    return writeTransaction(this.db, (trx) => fn(new SqliteLegalDocumentStore(trx)));
  }

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

  async insert(doc: LegalDocument): Promise<void> {
    await this.db.insertInto('legal_document').values(doc).execute();
  }

  async updateDocument(
    tenant: string,
    id: string,
    set: Partial<Pick<LegalDocument, 'status' | 'updated_at'>>,
  ): Promise<void> {
    await this.db.updateTable('legal_document').set(set).where('tenant_id', '=', tenant).where('id', '=', id).execute();
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
    await this.db
      .insertInto('legal_document_version')
      .values({ ...v, tenant_id: tenant })
      .execute();
  }

  async updateVersion(tenant: string, v: Version): Promise<void> {
    const { id, ...rest } = v;
    await this.db
      .updateTable('legal_document_version')
      .set(rest)
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .execute();
  }
}

/** The legal-document routes bound to the SQLite store. */
export function createLegalDocumentsArea(db: Kysely<DB>, clock: Clock, ids: IdSource) {
  const svc = new LegalDocumentService(new SqliteLegalDocumentStore(db), clock, ids);
  return bindHandlers(legalDocumentsContract, {
    list: (r) => svc.list(r.tenant, r.query),
    create: (r) => svc.create(r.tenant, r.body),
    get: (r) => svc.get(r.tenant, r.params.id),
    versions: (r) => svc.versions(r.tenant, r.params.id),
    addVersion: (r) => svc.addVersion(r.tenant, r.actor, r.params.id, r.body),
    version: (r) => svc.version(r.tenant, r.params.id),
    submit: (r) => svc.transition(r.tenant, r.actor, r.params.id, 'submit'),
    approve: (r) => svc.transition(r.tenant, r.actor, r.params.id, 'approve', r.body),
    reject: (r) => svc.transition(r.tenant, r.actor, r.params.id, 'reject', r.body),
    publish: (r) => svc.transition(r.tenant, r.actor, r.params.id, 'publish'),
  });
}
