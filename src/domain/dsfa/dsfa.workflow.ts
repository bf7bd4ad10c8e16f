import { nodeCrypto } from '../node-crypto.js';
import { conflict } from '../errors.js';
import type { AiUseCaseModule, Dsfa, DsfaAuditEntry } from './dsfa.schema.js';
import type { DSFA_STATUSES, DSFA_WORKFLOWS } from './dsfa.values.js';

export type DsfaStatusValue = (typeof DSFA_STATUSES)[number];
export type DsfaWorkflow = (typeof DSFA_WORKFLOWS)[number];

/** The strict review workflow: the only status changes it allows, from each status. */
export const STRICT_TRANSITIONS: Record<DsfaStatusValue, DsfaStatusValue[]> = {
  draft: ['in-review'],
  'in-review': ['approved', 'draft'],
  approved: ['needs-update'],
  'needs-update': ['in-review'],
};

/**
 * What a field of a record is to its review: the assessed `content` (an approval covers it, so a change after
 * approval asks for review again), the state of the `review` itself, or `bookkeeping` (who and when, ids).
 */
export type FieldRole = 'content' | 'review' | 'bookkeeping';

/**
 * Every field of a DSFA, classified. The type demands a role for each field, so a new field of the record does not
 * compile until someone decides whether the approved-content hash covers it.
 */
export const DSFA_FIELDS = {
  id: 'bookkeeping',
  tenant_id: 'bookkeeping',
  title: 'content',
  description: 'content',
  status: 'review',
  risk_level: 'content',
  processing_activity: 'content',
  data_categories: 'content',
  recipients: 'content',
  measures: 'content',
  approved_by: 'review',
  approved_at: 'review',
  created_by: 'bookkeeping',
  created_at: 'bookkeeping',
  updated_at: 'bookkeeping',
  ai_use_case_modules: 'content',
  controller: 'content',
  purposes: 'content',
  data_subjects: 'content',
  necessity_assessment: 'content',
  risks: 'content',
  measure_details: 'content',
  dpo_opinion: 'content',
  dpo_name: 'content',
  dpo_opinion_date: 'content',
  review_date: 'content',
} as const satisfies Record<keyof Dsfa, FieldRole>;

/** Every field of an AI use-case module, classified as in DSFA_FIELDS (its id has been hashed since the start). */
export const AI_MODULE_FIELDS = {
  id: 'content',
  use_case_type: 'content',
  name: 'content',
  model_description: 'content',
  model_type: 'content',
  provider: 'content',
  third_country_transfer: 'content',
  provider_country: 'content',
  input_data_categories: 'content',
  output_data_categories: 'content',
  involves_special_categories: 'content',
  data_subjects: 'content',
  processing_purpose: 'content',
  legal_basis: 'content',
  art22_assessment: 'content',
  risk_criteria: 'content',
  ai_act_risk_class: 'content',
  ai_act_justification: 'content',
  wp248_criteria_met: 'content',
  risks: 'content',
  mitigations: 'content',
  privacy_by_design_measures: 'content',
  review_triggers: 'content',
  created_at: 'bookkeeping',
  updated_at: 'bookkeeping',
} as const satisfies Record<keyof AiUseCaseModule, FieldRole>;

/** `record` without the fields `roles` classifies as review or bookkeeping. */
function contentOf(record: object, roles: Record<string, FieldRole>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => (roles[k] ?? 'content') === 'content'));
}

/** A value with its object keys sorted, so the hash does not depend on the order fields were written in. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/**
 * SHA-256 over the assessed content of a DSFA: the fields DSFA_FIELDS classifies as content, each AI module with the
 * fields AI_MODULE_FIELDS classifies so. An approval records it, so a report can tell whether the content
 * approved is still the content stored. A field left undefined drops out of the JSON, as if it were absent.
 */
export function contentHash(d: Dsfa): string {
  const content = contentOf(d, DSFA_FIELDS);
  content.ai_use_case_modules = d.ai_use_case_modules.map((m) => contentOf(m, AI_MODULE_FIELDS));
  return nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify(canonical(content)))
    .digest('hex');
}

/** True when the two records differ in their assessed content. */
export const contentDiffers = (a: Dsfa, b: Dsfa): boolean => contentHash(a) !== contentHash(b);

/** Why the tenant's workflow does not allow a status change (null: it does), naming the allowed ones. */
export function transitionProblem(workflow: DsfaWorkflow, from: DsfaStatusValue, to: DsfaStatusValue): string | null {
  if (workflow !== 'strict') return null;
  const allowed = STRICT_TRANSITIONS[from];
  if (allowed.includes(to)) return null;
  return `the strict review workflow does not allow ${from} → ${to}; from ${from} it allows ${allowed.join(', ')}`;
}

/** Refuses a status change the tenant's workflow does not allow (409), naming the allowed ones. */
export function checkTransition(workflow: DsfaWorkflow, from: DsfaStatusValue, to: DsfaStatusValue): void {
  const problem = transitionProblem(workflow, from, to);
  if (problem)
    throw conflict(problem, [
      { path: 'status', message: `allowed from ${from}: ${STRICT_TRANSITIONS[from].join(', ')}` },
    ]);
}

const person = (s: string) => s.trim().toLowerCase();

/**
 * Why an approval breaks the strict workflow (null: it does not): it must name its approver, and that is someone
 * other than the author (four eyes).
 */
export function approverProblem(
  workflow: DsfaWorkflow,
  author: string,
  approvedBy: string | null | undefined,
): { message: string; detail: string } | null {
  if (workflow !== 'strict') return null;
  if (!approvedBy)
    return {
      message: 'the strict review workflow needs approved_by: the name of the person approving',
      detail: 'required in the strict review workflow',
    };
  if (person(approvedBy) === person(author))
    return {
      message: `${approvedBy} wrote this assessment and cannot approve it as well (four-eyes principle)`,
      detail: 'must differ from created_by in the strict review workflow',
    };
  return null;
}

/**
 * The principals four eyes compare: who approves (the request's principal), and who wrote the assessment and last
 * submitted it for review, as the journal recorded them.
 */
export interface ReviewPrincipals {
  approver?: string;
  created?: string;
  submitted?: string;
}

/**
 * Who wrote and who last submitted an assessment, from its changes oldest first (DsfaStore.changesBy): the first
 * change created it; the last change into in-review submitted it.
 */
export function authorsOf(changes: Array<{ principal: string; status: string | null }>): ReviewPrincipals {
  let submitted: string | undefined;
  changes.forEach((c, i) => {
    if (c.status === 'in-review' && changes[i - 1]?.status !== 'in-review') submitted = c.principal;
  });
  return { created: changes[0]?.principal, submitted };
}

/** An API key authenticates who sends a request; an operating-system account or a server without keys does not tell people apart. */
export const isKeyPrincipal = (principal: string | undefined): principal is string =>
  principal?.startsWith('key:') === true;

/**
 * Strict workflow: an approval names its approver, and that is someone other than the author (four eyes). Names are
 * what a request says; with API keys the principals decide as well: the key approving must be neither the key that
 * wrote the assessment nor the one that submitted it, whatever names it sends (X-User-ID, approved_by). On the
 * command line and a server without keys the names decide.
 */
export function checkApprover(
  workflow: DsfaWorkflow,
  author: string,
  approvedBy: string | null | undefined,
  principals: ReviewPrincipals = {},
): void {
  const problem = approverProblem(workflow, author, approvedBy);
  if (problem) throw conflict(problem.message, [{ path: 'approved_by', message: problem.detail }]);
  if (workflow !== 'strict') return;
  const { approver, created, submitted } = principals;
  if (!isKeyPrincipal(approver)) return;
  const role = approver === created ? 'wrote' : approver === submitted ? 'submitted' : undefined;
  if (role)
    throw conflict(
      `${approver} ${role} this assessment and cannot approve it as well (four-eyes principle: the API keys are compared, whatever names the request sends); approve with another key`,
      [{ path: 'approved_by', message: `the approving key must differ from the key that ${role} the assessment` }],
    );
}

/** The newest approval in an audit trail (newest first): who approved, when, and the hash of what they approved. */
export interface RecordedApproval {
  by?: string;
  at: string;
  hash?: string;
}

/**
 * The last approval recorded in the audit trail (newest first), also after the assessment has left `approved`: the
 * entry that set approved_at, with the approver it named, or the one on record before it when it named none
 * (approving again without a name keeps the approver).
 */
export function lastApproval(audit: DsfaAuditEntry[]): RecordedApproval | undefined {
  const i = audit.findIndex((e) => e.new_values.approved_at);
  if (i < 0) return undefined;
  const entry = audit[i]!;
  const named = audit.slice(i).find((e) => 'approved_by' in e.new_values)?.new_values.approved_by;
  const hash = entry.new_values.content_hash;
  return {
    at: String(entry.new_values.approved_at),
    ...(typeof named === 'string' && named ? { by: named } : {}),
    ...(typeof hash === 'string' ? { hash } : {}),
  };
}

/** Whether `d` holds the content an approval approved; `unknown` when the approval recorded no hash. */
export const contentSince = (d: Dsfa, approval: RecordedApproval | undefined): 'current' | 'changed' | 'unknown' =>
  approval?.hash === undefined ? 'unknown' : approval.hash === contentHash(d) ? 'current' : 'changed';

/**
 * Whether the content stored is the content last approved: the newest approval in the audit trail (newest first)
 * carries the hash of what it approved. `unknown` for approvals recorded before hashes were kept.
 */
export function approvedContent(d: Dsfa, audit: DsfaAuditEntry[]): 'current' | 'changed' | 'unknown' | 'none' {
  if (d.status !== 'approved') return 'none';
  return contentSince(d, lastApproval(audit));
}
