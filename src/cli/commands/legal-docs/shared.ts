import type { LegalDocument, Version } from '../../../domain/legal-documents/legal-document.schema.js';
import type { Column } from '../../output.js';

export const docColumns: Column<LegalDocument>[] = [
  { header: 'ID', value: (d) => d.id, id: true },
  { header: 'TITLE', value: (d) => d.title },
  { header: 'TYPE', value: (d) => d.document_type },
  { header: 'LANG', value: (d) => d.language },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'UPDATED', value: (d) => d.updated_at },
];
export const versionColumns: Column<Version>[] = [
  { header: 'ID', value: (v) => v.id, id: true },
  { header: 'NO', value: (v) => v.version_number },
  { header: 'TITLE', value: (v) => v.title },
  { header: 'STATUS', value: (v) => v.status },
  { header: 'APPROVED BY', value: (v) => v.approved_by },
  { header: 'PUBLISHED', value: (v) => v.published_at },
];
export const versionPairs = (v: Version): Array<[string, unknown]> => [
  ['id', v.id],
  ['document_id', v.document_id],
  ['version_number', v.version_number],
  ['title', v.title],
  ['status', v.status],
  ['change_summary', v.change_summary],
  ['approved_by', v.approved_by],
  ['approved_at', v.approved_at],
  ['comment', v.comment],
  ['published_at', v.published_at],
];
