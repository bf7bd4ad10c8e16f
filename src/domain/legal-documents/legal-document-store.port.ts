import type { LegalDocument, Version } from './legal-document.schema.js';

/** Persistence of legal documents and their versions, scoped to one tenant. */
export interface LegalDocumentStore {
  list(tenant: string, f: { document_type?: string; status?: string }): Promise<LegalDocument[]>;
  get(tenant: string, id: string): Promise<LegalDocument | undefined>;
  /**
   * Locks the document's row until the transaction ends, so writers of one document's versions take turns across
   * replicas; false when the document does not exist.
   */
  lockDocument(tenant: string, id: string): Promise<boolean>;
  insert(doc: LegalDocument): Promise<void>;
  updateDocument(tenant: string, id: string, set: Partial<Pick<LegalDocument, 'status' | 'updated_at'>>): Promise<void>;
  versions(tenant: string, documentId: string): Promise<Version[]>;
  getVersion(tenant: string, id: string): Promise<Version | undefined>;
  insertVersion(tenant: string, v: Version): Promise<void>;
  updateVersion(tenant: string, v: Version): Promise<void>;
}
