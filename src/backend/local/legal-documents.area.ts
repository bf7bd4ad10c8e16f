import { bindWith } from './short-ids.js';
import type { IdResolver } from '../../contract/operation.js';
import { legalDocumentsContract } from '../../contract/legal-documents.contract.js';
import type { Clock, IdSource } from '../../domain/clock.js';
import { findPublished } from '../../domain/legal-documents/published.js';
import { LegalDocumentService } from '../../domain/legal-documents/legal-document.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The legal-document routes bound to a store. */
export function createLegalDocumentsArea(uow: UnitOfWork, clock: Clock, ids: IdSource, shortIds: IdResolver) {
  const svc = new LegalDocumentService(uow, clock, ids);
  return bindWith(shortIds)(legalDocumentsContract, {
    published: (r) => findPublished(uow.read.legalDocuments, r.tenant, r.query),
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
