import * as z from 'zod';
import { before, storedRow, storedTime, type RowRule } from '../sync/row-rule.js';
import type { SyncRow } from '../sync/version.js';
import { Approve, LegalDocumentCreate, TRANSITIONS, VersionCreate } from './legal-document.schema.js';
import { DOCUMENT_STATUSES, VERSION_STATUSES } from './legal-document.values.js';

const DocumentRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  title: LegalDocumentCreate.shape.title,
  document_type: LegalDocumentCreate.shape.document_type,
  language: LegalDocumentCreate.shape.language,
  status: z.enum(DOCUMENT_STATUSES),
  created_at: storedTime,
  updated_at: storedTime,
});

const VersionRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  document_id: z.string(),
  version_number: z.int().min(1),
  title: VersionCreate.shape.title,
  content: VersionCreate.shape.content,
  change_summary: z.string().max(2000).nullable(),
  status: z.enum(VERSION_STATUSES),
  created_by: z.string().nullable(),
  approved_by: Approve.shape.approved_by,
  approved_at: storedTime.nullable(),
  comment: z.string().max(2000).nullable(),
  created_at: storedTime,
  updated_at: storedTime,
  published_at: storedTime.nullable(),
});

type VersionStatus = (typeof VERSION_STATUSES)[number];

/** The steps of the workflow (LegalDocumentService.transition), and the archiving of a version a newer one replaced. */
const STEPS: Array<{ from: VersionStatus; to: VersionStatus }> = [
  ...Object.values(TRANSITIONS),
  { from: 'published', to: 'archived' },
];

/** Whether the workflow leads from one status to another in any number of steps (none: the same status). */
export function reachable(from: string, to: string): boolean {
  const seen = new Set([from]);
  for (let frontier = [from]; frontier.length;) {
    frontier = STEPS.filter((s) => frontier.includes(s.from) && !seen.has(s.to)).map((s) => s.to);
    for (const s of frontier) seen.add(s);
  }
  return seen.has(to);
}

/** Statuses a version reaches only through an approval, and only by being published. */
const APPROVED: readonly unknown[] = ['approved', 'published', 'archived'];
const PUBLISHED: readonly unknown[] = ['published', 'archived'];

/**
 * Why a version's row does not hold what its status says happened (null: it does): an approved, published or
 * archived version was approved (approved_at), a published or archived one was published after its approval; a
 * draft or a version in review has neither.
 */
export function evidenceProblem(v: SyncRow): string | null {
  if (APPROVED.includes(v.status) !== (v.approved_at !== null))
    return v.approved_at === null
      ? `it is ${String(v.status)} but was never approved (approved_at)`
      : `it is ${String(v.status)} but carries an approval`;
  if (PUBLISHED.includes(v.status) !== (v.published_at !== null))
    return v.published_at === null
      ? `it is ${String(v.status)} but was never published (published_at)`
      : `it is ${String(v.status)} but carries published_at`;
  if (before(v.approved_at, v.created_at)) return 'approved_at lies before created_at';
  if (before(v.published_at, v.approved_at)) return 'published_at lies before approved_at';
  return null;
}

export const LEGAL_DOCUMENT_ROW_RULES: Record<string, RowRule> = {
  legal_document: {
    schema: DocumentRow,
    fixed: ['title', 'document_type', 'language', 'created_at'],
    times: ['created_at', 'updated_at'],
    check: ({ id, before: b, after: a }) => {
      if (b?.status === 'published' && a.status !== 'published')
        return `legal document ${id} is published and stays published`;
      if (before(a.updated_at, a.created_at)) return `legal document ${id}: updated_at lies before created_at`;
      return null;
    },
  },
  legal_document_version: {
    schema: VersionRow,
    fixed: ['document_id', 'version_number', 'title', 'content', 'change_summary', 'created_by', 'created_at'],
    times: ['created_at', 'updated_at', 'approved_at', 'published_at'],
    refs: [{ column: 'document_id', entity: 'legal_document' }],
    needs: (c) => ({ where: [['legal_document_version', 'document_id', c.after!.document_id]] }),
    check: ({ id, before: b, after: a }, f) => {
      const from = String(b?.status ?? 'draft');
      if (!reachable(from, String(a.status)))
        return `version ${id} is ${from}: the workflow (draft → review → approved → published → archived) does not lead to ${String(a.status)}`;
      const evidence = evidenceProblem(a);
      if (evidence) return `version ${id}: ${evidence}`;
      if (b && APPROVED.includes(b.status) && (a.approved_at !== b.approved_at || a.approved_by !== b.approved_by))
        return `version ${id} was approved at ${String(b.approved_at)}: its approval no longer changes`;
      if (b?.published_at && a.published_at !== b.published_at)
        return `version ${id} was published at ${String(b.published_at)}: its publication no longer changes`;
      if (before(a.updated_at, a.created_at)) return `version ${id}: updated_at lies before created_at`;
      const twin = f
        .where('legal_document_version', 'document_id', a.document_id)
        .find((v) => v.id !== a.id && v.version_number === a.version_number);
      return twin
        ? `document ${String(a.document_id)} already has a version ${String(a.version_number)} (${String(twin.id)})`
        : null;
    },
  },
};
