import * as z from 'zod';
import { label } from '../schema-helpers.js';
import { before, jsonText, storedRow, storedTime, timeOf, type RecordFacts, type RowRule } from '../sync/row-rule.js';
import type { SyncRow } from '../sync/version.js';
import {
  additionsInput,
  AiUseCaseModule,
  AUDIT_ACTIONS,
  DsfaCreate,
  DsfaSettingsInput,
  DsfaStatus,
  RiskLevel,
} from './dsfa.schema.js';
import { approverProblem, transitionProblem, type DsfaStatusValue, type DsfaWorkflow } from './dsfa.workflow.js';

const strings = jsonText(z.array(z.string()));
/** An optional addition: NULL while unset, else the value as the API takes it (lists as JSON text). */
const addition = <T extends z.ZodType>(s: T) => s.nullable();
const DsfaRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  title: DsfaCreate.shape.title,
  description: z.string(),
  status: DsfaStatus,
  risk_level: RiskLevel,
  processing_activity: z.string(),
  data_categories: strings,
  recipients: strings,
  measures: strings,
  approved_by: DsfaCreate.shape.approved_by,
  approved_at: storedTime.nullable(),
  created_by: label(320),
  created_at: storedTime,
  updated_at: storedTime,
  ai_use_case_modules: jsonText(z.array(AiUseCaseModule)),
  controller: addition(additionsInput.controller),
  purposes: addition(jsonText(additionsInput.purposes)),
  data_subjects: addition(jsonText(additionsInput.data_subjects)),
  necessity_assessment: addition(additionsInput.necessity_assessment),
  risks: addition(jsonText(additionsInput.risks)),
  measure_details: addition(jsonText(additionsInput.measure_details)),
  dpo_opinion: addition(additionsInput.dpo_opinion),
  dpo_name: addition(additionsInput.dpo_name),
  dpo_opinion_date: addition(additionsInput.dpo_opinion_date),
  review_date: addition(additionsInput.review_date),
});

const values = jsonText(z.record(z.string(), z.unknown()));
const DsfaAuditRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  dsfa_id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  changed_by: z.string(),
  old_values: values,
  new_values: values,
  created_at: storedTime,
});

const DsfaSettingRow = storedRow({
  tenant_id: z.string(),
  workflow: DsfaSettingsInput.shape.workflow,
  updated_by: z.string(),
  updated_at: storedTime,
});

/** The statuses an assessment's audit entries since `since` (all for a new one) record, oldest first. */
function recordedSteps(f: RecordFacts, id: string, since: unknown): string[] {
  return f
    .where('dsfa_audit', 'dsfa_id', id)
    .filter((e) => since === undefined || timeOf(e.created_at) > timeOf(since))
    .sort((a, b) => timeOf(a.created_at) - timeOf(b.created_at) || String(a.id).localeCompare(String(b.id)))
    .map((e) => (JSON.parse(String(e.new_values)) as Record<string, unknown>).status)
    .filter((s): s is string => typeof s === 'string');
}

/**
 * The workflow rule a change of status breaks (null: none). Under the strict workflow every step must be one it
 * allows (transitionProblem, as the API checks each): a change of more than one step (made offline, or read from a
 * page of a journal) is accepted when the assessment's audit trail records the steps in between; an approval names
 * an approver other than the author (approverProblem). A new assessment starts as a draft.
 */
export function workflowProblem(workflow: DsfaWorkflow, b: SyncRow | null, a: SyncRow, f: RecordFacts): string | null {
  const approving = a.status === 'approved' && a.approved_at !== (b?.approved_at ?? null);
  if (workflow !== 'strict' || (a.status === (b?.status ?? 'draft') && !approving)) return null;
  const path = [String(b?.status ?? 'draft'), ...recordedSteps(f, String(a.id), b?.updated_at), String(a.status)];
  const steps = path.filter((s, i) => i === 0 || s !== path[i - 1]);
  // approving again with no step into approved is approved → approved, which the strict workflow does not allow
  const entered = steps.length > 1 && steps.at(-1) === 'approved';
  if (approving && !entered) steps.push('approved');
  for (let i = 1; i < steps.length; i++) {
    const problem = transitionProblem(workflow, steps[i - 1] as DsfaStatusValue, steps[i] as DsfaStatusValue);
    if (problem) return problem;
  }
  return approving
    ? (approverProblem(workflow, String(a.created_by), a.approved_by as string | null)?.message ?? null)
    : null;
}

/**
 * The assessment's own facts: times in order, and its approval held by an approved assessment only (entering
 * approved records approver and time, leaving it clears both, as the service's status change does).
 */
function approvalProblem(a: SyncRow): string | null {
  if (before(a.updated_at, a.created_at)) return `updated_at lies before created_at`;
  if (a.status === 'approved') {
    if (a.approved_at === null) return 'it is approved without approved_at';
    if (before(a.approved_at, a.created_at)) return 'approved_at lies before created_at';
    return null;
  }
  if (a.approved_at !== null || a.approved_by !== null) return `it is ${String(a.status)} but carries an approval`;
  return null;
}

export const DSFA_ROW_RULES: Record<string, RowRule> = {
  dsfa_setting: { schema: DsfaSettingRow, times: ['updated_at'] },
  dsfa: {
    schema: DsfaRow,
    fixed: ['created_by', 'created_at'],
    times: ['created_at', 'updated_at', 'approved_at'],
    deletion: () => null,
    needs: (c) =>
      c.after
        ? {
            rows: [['dsfa_setting', String(c.after.tenant_id)]],
            where:
              c.after.status !== c.before?.status || c.after.approved_at !== (c.before?.approved_at ?? null)
                ? [['dsfa_audit', 'dsfa_id', c.id]]
                : [],
          }
        : {},
    check: ({ id, before: b, after: a }, f) => {
      const own = approvalProblem(a);
      if (own) return `dsfa ${id}: ${own}`;
      const workflow = (f.row('dsfa_setting', String(a.tenant_id))?.workflow ?? 'open') as DsfaWorkflow;
      const problem = workflowProblem(workflow, b, a, f);
      return problem ? `dsfa ${id}: ${problem}` : null;
    },
  },
  dsfa_audit: {
    schema: DsfaAuditRow,
    appendOnly: true,
    times: ['created_at'],
    needs: (c) => ({ rows: [['dsfa', String(c.after!.dsfa_id)]] }),
    // an entry of an assessment deleted since (or created and deleted offline) names one no store holds
    check: ({ id, after: a }, f) => {
      const dsfa = f.row('dsfa', String(a.dsfa_id));
      if (!dsfa) return null;
      if (before(a.created_at, dsfa.created_at))
        return `dsfa_audit ${id} is dated ${String(a.created_at)}, before DSFA ${String(a.dsfa_id)} was created (${String(dsfa.created_at)})`;
      if (a.action === 'CREATE' && timeOf(a.created_at) !== timeOf(dsfa.created_at))
        return `dsfa_audit ${id}: a CREATE entry is dated when its DSFA was created (${String(dsfa.created_at)})`;
      return null;
    },
  },
};
