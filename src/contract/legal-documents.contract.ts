import { z } from 'zod';
import { IdParams } from '../domain/dsfa/dsfa.schema.js';
import {
  Approve, LegalDocument, LegalDocumentCreate, LegalDocumentQuery, Reject, Version, VersionCreate,
} from '../domain/legal-documents/legal-document.schema.js';
import { op } from './operation.js';

const Empty = z.object({});

/** Legal documents, spec 4.3, with the version workflow of decisions.md; `get` and `version` are our additions. */
export const legalDocumentsContract = {
  list: op({ method: 'GET', path: '/legal-documents/documents', summary: "The tenant's legal documents", tenant: 'header', query: LegalDocumentQuery, output: z.array(LegalDocument), status: 200 }),
  create: op({ method: 'POST', path: '/legal-documents/documents', summary: 'Create a document (status draft)', tenant: 'header', body: LegalDocumentCreate, output: LegalDocument, status: 201 }),
  get: op({ method: 'GET', path: '/legal-documents/documents/{id}', summary: 'Read one document', tenant: 'header', params: IdParams, output: LegalDocument, status: 200 }),
  versions: op({ method: 'GET', path: '/legal-documents/documents/{id}/versions', summary: 'Versions of a document, newest first', tenant: 'header', params: IdParams, output: z.array(Version), status: 200 }),
  addVersion: op({ method: 'POST', path: '/legal-documents/documents/{id}/versions', summary: 'Create the next version (status draft)', tenant: 'header', params: IdParams, body: VersionCreate, output: Version, status: 201 }),
  version: op({ method: 'GET', path: '/legal-documents/versions/{id}', summary: 'Read one version with its content', tenant: 'header', params: IdParams, output: Version, status: 200 }),
  submit: op({ method: 'POST', path: '/legal-documents/versions/{id}/submit', summary: 'Submit a draft for review', tenant: 'header', params: IdParams, body: Empty, output: Version, status: 200 }),
  approve: op({ method: 'POST', path: '/legal-documents/versions/{id}/approve', summary: 'Approve a version in review', tenant: 'header', params: IdParams, body: Approve, output: Version, status: 200 }),
  reject: op({ method: 'POST', path: '/legal-documents/versions/{id}/reject', summary: 'Send a version in review back to draft', tenant: 'header', params: IdParams, body: Reject, output: Version, status: 200 }),
  publish: op({ method: 'POST', path: '/legal-documents/versions/{id}/publish', summary: 'Publish an approved version (archives the previous one)', tenant: 'header', params: IdParams, body: Empty, output: Version, status: 200 }),
};
