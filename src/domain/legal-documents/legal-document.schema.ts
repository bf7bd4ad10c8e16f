import * as z from 'zod';
import { label } from '../schema-helpers.js';

import { DOCUMENT_STATUSES, DOCUMENT_TYPES, VERSION_STATUSES } from './legal-document.values.js';

export { DOCUMENT_STATUSES, DOCUMENT_TYPES, VERSION_STATUSES };

export const LegalDocumentCreate = z.object({
  title: label(300),
  document_type: z.enum(DOCUMENT_TYPES),
  language: z
    .string()
    .trim()
    .regex(/^\s*[a-z]{2}(-[A-Z]{2})?\s*$/, 'a language code such as de, en or de-AT')
    .default('de'),
});
export type LegalDocumentCreate = z.infer<typeof LegalDocumentCreate>;

export const LegalDocument = z.object({
  id: z.string(),
  tenant_id: z.string(),
  title: z.string(),
  document_type: z.enum(DOCUMENT_TYPES),
  language: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LegalDocument = z.infer<typeof LegalDocument>;

export const LegalDocumentQuery = z.object({
  document_type: z.enum(DOCUMENT_TYPES).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
});

export const VersionCreate = z.object({
  title: label(300),
  content: z.string().min(1, 'must not be empty').max(2_000_000),
  change_summary: z.string().max(2000).nullish(),
});
export type VersionCreate = z.infer<typeof VersionCreate>;

export const Version = z.object({
  id: z.string(),
  document_id: z.string(),
  version_number: z.int(),
  title: z.string(),
  content: z.string(),
  change_summary: z.string().nullable(),
  status: z.enum(VERSION_STATUSES),
  created_by: z.string().nullable(),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});
export type Version = z.infer<typeof Version>;

export const Approve = z.object({
  approved_by: label(320).nullish(),
  comment: z.string().max(2000).nullish(),
});
export const Reject = z.object({ comment: z.string().trim().max(2000).regex(/\S/, 'say why the version is rejected') });

/** Which operation moves a version from which status to which. */
export const TRANSITIONS = {
  submit: { from: 'draft', to: 'review' },
  approve: { from: 'review', to: 'approved' },
  reject: { from: 'review', to: 'draft' },
  publish: { from: 'approved', to: 'published' },
} as const;
export type Transition = keyof typeof TRANSITIONS;
