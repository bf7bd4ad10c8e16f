import * as z from 'zod';
import { label, longText, optionalDate, optionalLabel, queryInt } from '../schema-helpers.js';

import {
  AI_ACT_RISK_CLASSES,
  AUDIT_ACTIONS,
  DSFA_STATUSES,
  DSFA_WORKFLOWS,
  RISK_LEVELS,
  USE_CASE_TYPES,
  DSFA_ADDITIONS,
  type DsfaAddition,
} from './dsfa.values.js';

export { AI_ACT_RISK_CLASSES, AUDIT_ACTIONS, DSFA_STATUSES, DSFA_WORKFLOWS, RISK_LEVELS, USE_CASE_TYPES };

export const DsfaStatus = z.enum(DSFA_STATUSES);
export const RiskLevel = z.enum(RISK_LEVELS);
export const Severity = z.enum(RISK_LEVELS);
const Timestamp = z.iso.datetime({ local: true });
const strings = z.array(z.string());

/** A risk or mitigation inside an AI module: a described item; further keys are kept as sent. */
const AiRisk = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  likelihood: Severity.optional(),
  severity: Severity.optional(),
});
const AiMitigation = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  risk_ids: strings.optional(),
  implemented: z.boolean().optional(),
});

const moduleShape = {
  id: z.string().min(1).optional(),
  use_case_type: z.enum(USE_CASE_TYPES),
  name: z.string().optional(),
  model_description: z.string().optional(),
  model_type: z.string().optional(),
  provider: z.string().optional(),
  third_country_transfer: z.boolean().optional(),
  provider_country: z.string().optional(),
  input_data_categories: strings.optional(),
  output_data_categories: strings.optional(),
  involves_special_categories: z.boolean().optional(),
  data_subjects: strings.optional(),
  processing_purpose: z.string().optional(),
  legal_basis: z.string().optional(),
  art22_assessment: z.object({ applies: z.boolean(), safeguards: z.array(z.unknown()) }).optional(),
  risk_criteria: z.array(z.object({ id: z.string(), applies: z.boolean(), severity: Severity.optional() })).optional(),
  ai_act_risk_class: z.enum(AI_ACT_RISK_CLASSES).optional(),
  ai_act_justification: z.string().optional(),
  wp248_criteria_met: strings.optional(),
  risks: z.array(AiRisk).optional(),
  mitigations: z.array(AiMitigation).optional(),
  privacy_by_design_measures: z
    .array(z.object({ category: z.string(), description: z.string(), implemented: z.boolean() }))
    .optional(),
  review_triggers: z
    .array(z.object({ type: z.string(), description: z.string(), monitoring_interval: z.string() }))
    .optional(),
};
const MODULE_FIELDS = [...Object.keys(moduleShape), 'created_at', 'updated_at'].sort();

/** An unknown field in an item is refused naming it and the accepted ones, never dropped silently. */
function unknownFields(accepted: string[]) {
  return (iss: z.core.$ZodRawIssue) =>
    iss.code === 'unrecognized_keys'
      ? `unknown field${iss.keys.length > 1 ? 's' : ''} ${iss.keys.join(', ')}; accepted: ${accepted.join(', ')}`
      : undefined;
}

/**
 * Element of ai_use_case_modules (spec 2.2): only use_case_type is required; id and timestamps are assigned. An
 * unknown field is refused naming the accepted ones (never dropped silently); created_at and updated_at are taken
 * and ignored, so a module read with GET can be sent back.
 */
export const AiUseCaseModuleInput = z
  .strictObject(
    { ...moduleShape, created_at: z.unknown().optional(), updated_at: z.unknown().optional() },
    { error: unknownFields(MODULE_FIELDS) },
  )
  .transform(({ created_at: _c, updated_at: _u, ...m }) => m);
export const AiUseCaseModule = z.object(moduleShape).extend({
  id: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type AiUseCaseModule = z.infer<typeof AiUseCaseModule>;
export type AiUseCaseModuleInput = z.infer<typeof AiUseCaseModuleInput>;

/** A risk to the rights and freedoms of data subjects (Art. 35(7)(c)), rated on the scale of `risk_level`. */
const riskShape = {
  title: label(300),
  description: longText(5000).optional(),
  likelihood: Severity,
  severity: Severity,
};
export const DsfaRisk = z.strictObject(riskShape, { error: unknownFields(Object.keys(riskShape).sort()) });
export type DsfaRisk = z.infer<typeof DsfaRisk>;

/** The state of one of `measures` (Art. 35(7)(d)): implemented or only planned, with an optional note. */
const measureDetailShape = {
  measure: label(1000),
  implemented: z.boolean(),
  description: longText(5000).optional(),
};
export const MeasureDetail = z.strictObject(measureDetailShape, {
  error: unknownFields(Object.keys(measureDetailShape).sort()),
});
export type MeasureDetail = z.infer<typeof MeasureDetail>;

const measureDetails = z
  .array(MeasureDetail)
  .max(500)
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((m, i) => {
      if (seen.has(m.measure))
        ctx.addIssue({ code: 'custom', path: [i, 'measure'], message: `${JSON.stringify(m.measure)} is listed twice` });
      seen.add(m.measure);
    });
  });

const ADDITION = 'Addition to the API specification; absent when unset.';

/**
 * Optional fields for the parts of Art. 35(7) GDPR the specification's record has no field for (our additions).
 * On input an empty text or list clears a field; responses leave out a field that is not set (never null).
 */
export const additionsInput = {
  controller: optionalLabel(500).describe(`The controller (the organisation the assessment is for). ${ADDITION}`),
  purposes: z.array(label(1000)).max(200).describe(`Purposes of the processing (Art. 35(7)(a)). ${ADDITION}`),
  data_subjects: z.array(label(1000)).max(200).describe(`Groups of data subjects affected. ${ADDITION}`),
  necessity_assessment: longText().describe(
    `Necessity and proportionality of the processing in relation to its purposes (Art. 35(7)(b)); Markdown. ${ADDITION}`,
  ),
  risks: z
    .array(DsfaRisk)
    .max(200)
    .describe(`Risks to the rights and freedoms of data subjects, likelihood × severity (Art. 35(7)(c)). ${ADDITION}`),
  measure_details: measureDetails.describe(
    `Implemented or planned, per entry of measures (Art. 35(7)(d)); a measure named here is added to measures. ${ADDITION}`,
  ),
  dpo_opinion: longText().describe(`The opinion of the data protection officer (Art. 35(2)); Markdown. ${ADDITION}`),
  dpo_name: optionalLabel(320).describe(`The data protection officer who gave the opinion. ${ADDITION}`),
  dpo_opinion_date: optionalDate().describe(`The day the opinion was given, YYYY-MM-DD. ${ADDITION}`),
  review_date: optionalDate().describe(
    `The day the assessment is next due for review (Art. 35(11)), YYYY-MM-DD. ${ADDITION}`,
  ),
} satisfies Record<DsfaAddition, z.ZodType>;

/** The names of the optional fields (our additions), kept free of zod in dsfa.values.ts for the store. */
export { DSFA_ADDITIONS };

const additionsOutput = {
  controller: z.string().optional(),
  purposes: strings.optional(),
  data_subjects: strings.optional(),
  necessity_assessment: z.string().optional(),
  risks: z.array(DsfaRisk).optional(),
  measure_details: z.array(MeasureDetail).optional(),
  dpo_opinion: z.string().optional(),
  dpo_name: z.string().optional(),
  dpo_opinion_date: z.string().optional(),
  review_date: z.string().optional(),
};
const describedOutput = Object.fromEntries(
  Object.entries(additionsOutput).map(([k, v]) => [
    k,
    v.describe(additionsInput[k as keyof typeof additionsInput].description!),
  ]),
) as typeof additionsOutput;
const optionalInputs = Object.fromEntries(Object.entries(additionsInput).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof additionsInput]: z.ZodOptional<(typeof additionsInput)[K]>;
};
const nullishInputs = Object.fromEntries(Object.entries(additionsInput).map(([k, v]) => [k, v.nullish()])) as {
  [K in keyof typeof additionsInput]: z.ZodOptional<z.ZodNullable<(typeof additionsInput)[K]>>;
};

/** DSFA record (spec 2.1), with the optional additions. */
export const Dsfa = z.object({
  id: z.string(),
  tenant_id: z.string(),
  title: z.string(),
  description: z.string(),
  status: DsfaStatus,
  risk_level: RiskLevel,
  processing_activity: z.string(),
  data_categories: strings,
  recipients: strings,
  measures: strings,
  approved_by: z.string().nullable(),
  approved_at: Timestamp.nullable(),
  created_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  ai_use_case_modules: z.array(AiUseCaseModule),
  ...describedOutput,
});
export type Dsfa = z.infer<typeof Dsfa>;

const title = label(500);

/** POST /dsfa body: title required, everything else defaulted (decisions.md). Read-only fields are ignored. */
export const DsfaCreate = z.object({
  title,
  description: z.string().default(''),
  status: DsfaStatus.default('draft'),
  risk_level: RiskLevel.default('medium'),
  processing_activity: z.string().default(''),
  data_categories: strings.default([]),
  recipients: strings.default([]),
  measures: strings.default([]),
  approved_by: label(320).nullish(),
  created_by: label(320).optional(),
  ai_use_case_modules: z.array(AiUseCaseModuleInput).default([]),
  ...optionalInputs,
});
export type DsfaCreate = z.infer<typeof DsfaCreate>;

/** PUT /dsfa/{id} body: every field optional; absent or null means "unchanged" (spec 4.1 rule 1). */
export const DsfaUpdate = z.object({
  title: title.nullish(),
  description: z.string().nullish(),
  status: DsfaStatus.nullish(),
  risk_level: RiskLevel.nullish(),
  processing_activity: z.string().nullish(),
  data_categories: strings.nullish(),
  recipients: strings.nullish(),
  measures: strings.nullish(),
  approved_by: label(320).nullish(),
  ai_use_case_modules: z.array(AiUseCaseModuleInput).nullish(),
  ...nullishInputs,
});
export type DsfaUpdate = z.infer<typeof DsfaUpdate>;

export const DsfaStatusChange = z.object({
  status: DsfaStatus,
  approved_by: label(320).nullish(),
});
export type DsfaStatusChange = z.infer<typeof DsfaStatusChange>;

/** PUT /dsfa/settings body (our addition): the tenant's review workflow. */
export const DsfaSettingsInput = z.object({ workflow: z.enum(DSFA_WORKFLOWS) });
export type DsfaSettingsInput = z.infer<typeof DsfaSettingsInput>;

/** The tenant's review settings; `updated_by`/`updated_at` are null until they were first changed. */
export const DsfaSettings = z.object({
  workflow: z.enum(DSFA_WORKFLOWS),
  updated_by: z.string().nullable(),
  updated_at: Timestamp.nullable(),
});
export type DsfaSettings = z.infer<typeof DsfaSettings>;

export const DsfaListQuery = z.object({
  status: DsfaStatus.optional(),
  risk_level: RiskLevel.optional(),
  search: z.string().trim().min(1).max(200).optional(),
  skip: queryInt({ min: 0, default: 0 }),
  limit: queryInt({ min: 1, max: 500, default: 100 }),
});
export type DsfaListQuery = z.infer<typeof DsfaListQuery>;

export const DsfaAuditQuery = z.object({
  dsfa_id: z.string().min(1).optional(),
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  offset: queryInt({ min: 0, default: 0 }),
});
export type DsfaAuditQuery = z.infer<typeof DsfaAuditQuery>;

export const DsfaAuditEntry = z.object({
  id: z.string(),
  tenant_id: z.string(),
  dsfa_id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  changed_by: z.string(),
  old_values: z.record(z.string(), z.unknown()),
  new_values: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});
export type DsfaAuditEntry = z.infer<typeof DsfaAuditEntry>;

export const DsfaStats = z.object({
  total: z.number().int(),
  by_status: z.partialRecord(DsfaStatus, z.number().int()),
  by_risk_level: z.partialRecord(RiskLevel, z.number().int()),
  draft_count: z.number().int(),
  in_review_count: z.number().int(),
  approved_count: z.number().int(),
  needs_update_count: z.number().int(),
});
export type DsfaStats = z.infer<typeof DsfaStats>;

export const DeleteResult = z.object({ success: z.boolean(), message: z.string() });
export type DeleteResult = z.infer<typeof DeleteResult>;

export const IdParams = z.object({ id: z.string().min(1) });
