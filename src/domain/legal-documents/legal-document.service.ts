import { isoZ, type Clock, type IdSource } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import {
  TRANSITIONS,
  type LegalDocument,
  type LegalDocumentCreate,
  type Transition,
  type Version,
  type VersionCreate,
} from './legal-document.schema.js';
import type { LegalDocumentStore } from './legal-document-store.port.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** Legal documents with versions: draft → review → approved → published; publishing archives the previous one. */
export class LegalDocumentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  private get store(): LegalDocumentStore {
    return this.uow.read.legalDocuments;
  }

  list(tenant: string, f: { document_type?: string; status?: string }) {
    return this.store.list(tenant, f);
  }

  async get(tenant: string, id: string): Promise<LegalDocument> {
    const d = await this.store.get(tenant, id);
    if (!d) throw notFound('legal document', id);
    return d;
  }

  async create(tenant: string, input: LegalDocumentCreate): Promise<LegalDocument> {
    const now = isoZ(this.clock.now());
    const doc: LegalDocument = {
      id: this.ids.next(),
      tenant_id: tenant,
      ...input,
      status: 'draft',
      created_at: now,
      updated_at: now,
    };
    await this.uow.write(tenant, (tx) => tx.legalDocuments.insert(doc));
    return doc;
  }

  async versions(tenant: string, documentId: string): Promise<Version[]> {
    await this.get(tenant, documentId);
    return this.store.versions(tenant, documentId);
  }

  async version(tenant: string, id: string): Promise<Version> {
    const v = await this.store.getVersion(tenant, id);
    if (!v) throw notFound('version', id);
    return v;
  }

  addVersion(tenant: string, actor: string | undefined, documentId: string, input: VersionCreate): Promise<Version> {
    return this.uow.write(tenant, async ({ legalDocuments: s }) => {
      if (!(await s.lockDocument(tenant, documentId))) throw notFound('legal document', documentId);
      const existing = await s.versions(tenant, documentId);
      const now = isoZ(this.clock.now());
      const v: Version = {
        id: this.ids.next(),
        document_id: documentId,
        version_number: Math.max(0, ...existing.map((x) => x.version_number)) + 1,
        title: input.title,
        content: input.content,
        change_summary: input.change_summary ?? null,
        status: 'draft',
        created_by: actor ?? null,
        approved_by: null,
        approved_at: null,
        comment: null,
        created_at: now,
        updated_at: now,
        published_at: null,
      };
      await s.insertVersion(tenant, v);
      await s.updateDocument(tenant, documentId, { updated_at: now });
      return v;
    });
  }

  /** Moves a version along the workflow, or refuses with 409 naming the status it has and the one it needs. */
  transition(
    tenant: string,
    actor: string | undefined,
    id: string,
    t: Transition,
    extra: { approved_by?: string | null; comment?: string | null } = {},
  ): Promise<Version> {
    return this.uow.write(tenant, async ({ legalDocuments: s }) => {
      let v = await s.getVersion(tenant, id);
      if (!v) throw notFound('version', id);
      // publishing archives the document's published version: publishes of one document take turns on the document's
      // row and read the version again once they have it; a partial unique index (migration 0009) holds the store to
      // one published version whatever happens
      if (t === 'publish') {
        await s.lockDocument(tenant, v.document_id);
        v = (await s.getVersion(tenant, id)) ?? v;
      }
      const { from, to } = TRANSITIONS[t];
      if (v.status !== from)
        throw conflict(
          `cannot ${t} version ${v.version_number} (${id}): it is ${v.status}, and only ${/^[aeiou]/.test(from) ? 'an' : 'a'} ${from} version can be ${t === 'submit' ? 'submitted' : t + (t.endsWith('e') ? 'd' : 'ed')}`,
        );
      const now = isoZ(this.clock.now());
      const next: Version = { ...v, status: to, updated_at: now };
      if (t === 'approve')
        Object.assign(next, {
          approved_by: extra.approved_by ?? actor ?? null,
          approved_at: now,
          comment: extra.comment ?? v.comment,
        });
      if (t === 'reject') next.comment = extra.comment ?? null;
      if (t === 'publish') {
        next.published_at = now;
        for (const other of await s.versions(tenant, v.document_id)) {
          if (other.status === 'published')
            await s.updateVersion(tenant, { ...other, status: 'archived', updated_at: now });
        }
        await s.updateDocument(tenant, v.document_id, { status: 'published', updated_at: now });
      }
      await s.updateVersion(tenant, next);
      return next;
    });
  }
}
