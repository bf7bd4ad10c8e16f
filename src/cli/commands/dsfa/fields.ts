import { Option, type Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Dsfa, MeasureDetail } from '../../../domain/dsfa/dsfa.schema.js';
import { AI_ACT_RISK_CLASSES, DSFA_STATUSES, RISK_LEVELS } from '../../../domain/dsfa/dsfa.values.js';
import type { CliContext } from '../../context.js';
import { collect, defined, readJson } from '../../input.js';
import { flagFields } from '../../flag-names.js';

/** The list fields a single item of which `update` can add or remove: flag, what one item is, wire field. */
export const LIST_FLAGS = [
  ['data-category', 'data category', 'data_categories'],
  ['recipient', 'recipient', 'recipients'],
  ['measure', 'measure', 'measures'],
  ['purpose', 'purpose', 'purposes'],
  ['data-subject', 'group of data subjects', 'data_subjects'],
] as const;

export const camel = (flag: string) => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** A list with items added (when not there yet) and removed (which must be there, so a typo is not ignored). */
export function editList(current: string[], add: string[] = [], remove: string[] = [], flag: string): string[] {
  const missing = remove.filter((r) => !current.includes(r));
  if (missing.length)
    throw new DomainError('validation', `--remove-${flag} ${JSON.stringify(missing[0])}: not in the list`, [
      { path: flag, message: `present: ${current.map((c) => JSON.stringify(c)).join(', ') || 'none'}` },
    ]);
  const kept = current.filter((c) => !remove.includes(c));
  for (const a of add) if (!kept.includes(a)) kept.push(a);
  return kept;
}

/** Field flags shared by create and update; each maps to the wire field of its name (a list's in the plural). */
export function fieldOptions(cmd: Command): Command {
  return flagFields(cmd, {
    purposes: '--purpose',
    data_subjects: '--data-subject',
    data_categories: '--data-category',
    recipients: '--recipient',
    measures: '--measure',
    ai_use_case_modules: '--ai-modules',
  })
    .option('--title <text>', 'title')
    .option('--description <text>', 'description (Markdown)')
    .addOption(new Option('--status <status>', `status: ${DSFA_STATUSES.join(', ')}`))
    .addOption(new Option('--risk-level <level>', `risk level: ${RISK_LEVELS.join(', ')}`))
    .option('--processing-activity <text>', 'the processing activity assessed')
    .option('--controller <name>', 'the controller the assessment is for (shown in the report)')
    .option('--purpose <text>', 'purpose of the processing; repeat for several', collect)
    .option('--data-subject <group>', 'group of data subjects; repeat for several', collect)
    .option('--data-category <name>', 'data category; repeat for several (a value keeps its commas)', collect)
    .option('--recipient <name>', 'recipient; repeat for several (a value keeps its commas)', collect)
    .option('--necessity-assessment <text>', 'necessity and proportionality (Art. 35(7)(b); Markdown)')
    .option('--risks <file>', 'JSON array of risks: {title, description?, likelihood, severity}; - reads stdin')
    .option('--measure <text>', 'technical or organisational measure; repeat for several', collect)
    .option('--implemented-measure <text>', 'a measure that is in place (added to the measures); repeatable', collect)
    .option('--planned-measure <text>', 'a measure that is planned only (added to the measures); repeatable', collect)
    .option('--dpo-opinion <text>', "the data protection officer's opinion (Markdown)")
    .option('--dpo-name <name>', 'the data protection officer who gave it')
    .option('--dpo-opinion-date <date>', 'the day it was given (YYYY-MM-DD)')
    .option('--review-date <date>', 'the day the assessment is next due for review (YYYY-MM-DD)')
    .option('--approved-by <name>', 'approver (name or e-mail)')
    .option(
      '--ai-modules <file>',
      `JSON array of AI use-case modules (use_case_type, ai_act_risk_class: ${AI_ACT_RISK_CLASSES.join(', ')} ...)`,
    )
    .option('-f, --file <file>', 'JSON body with any of the fields; - reads stdin (flags override it)');
}

export type FieldOpts = {
  title?: string;
  description?: string;
  status?: string;
  riskLevel?: string;
  processingActivity?: string;
  controller?: string;
  purpose?: string[];
  dataSubject?: string[];
  dataCategory?: string[];
  recipient?: string[];
  necessityAssessment?: string;
  risks?: string;
  measure?: string[];
  implementedMeasure?: string[];
  plannedMeasure?: string[];
  dpoOpinion?: string;
  dpoName?: string;
  dpoOpinionDate?: string;
  reviewDate?: string;
  approvedBy?: string;
  aiModules?: string;
  file?: string;
};

/** The request body from `-f` and the flags (flags win); measure states need the record's current ones on update. */
export async function bodyFrom(ctx: CliContext, o: FieldOpts, current?: () => Promise<Dsfa>) {
  let base: Record<string, unknown> = {};
  if (o.file) {
    const json = await readJson(ctx, o.file);
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      throw new DomainError('validation', `${o.file}: expected a JSON object with DSFA fields`);
    base = json as Record<string, unknown>;
  }
  const flags = defined({
    title: o.title,
    description: o.description,
    status: o.status,
    risk_level: o.riskLevel,
    processing_activity: o.processingActivity,
    controller: o.controller,
    purposes: o.purpose,
    data_subjects: o.dataSubject,
    data_categories: o.dataCategory,
    recipients: o.recipient,
    necessity_assessment: o.necessityAssessment,
    risks: o.risks ? await readJson(ctx, o.risks) : undefined,
    measures: o.measure,
    dpo_opinion: o.dpoOpinion,
    dpo_name: o.dpoName,
    dpo_opinion_date: o.dpoOpinionDate,
    review_date: o.reviewDate,
    approved_by: o.approvedBy,
    ai_use_case_modules: o.aiModules ? await readJson(ctx, o.aiModules) : undefined,
  });
  const body: Record<string, unknown> = { ...base, ...flags };
  if (o.implementedMeasure || o.plannedMeasure) {
    // PUT replaces the whole list of states: start from the body's, else the stored ones
    const start = body.measure_details ?? (current ? (await current()).measure_details : undefined) ?? [];
    body.measure_details = withStates(start as MeasureDetail[], o.implementedMeasure, o.plannedMeasure);
  }
  return body;
}

/** States of measures with some marked implemented or planned; a measure keeps its place and its note. */
function withStates(details: MeasureDetail[], implemented: string[] = [], planned: string[] = []): MeasureDetail[] {
  const both = implemented.filter((m) => planned.includes(m));
  if (both.length)
    throw new DomainError('bad_request', `${JSON.stringify(both[0])} is given as both implemented and planned`);
  const out = details.map((d) => ({ ...d }));
  for (const [names, state] of [
    [implemented, true],
    [planned, false],
  ] as const)
    for (const measure of names) {
      const found = out.find((d) => d.measure === measure);
      if (found) found.implemented = state;
      else out.push({ measure, implemented: state });
    }
  return out;
}

/** The optional fields of a record as label/value pairs for `get`, only those that are set. */
export function additionPairs(d: Dsfa): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [
    ['controller', d.controller],
    ['purposes', d.purposes],
    ['data_subjects', d.data_subjects],
    ['necessity_assessment', d.necessity_assessment],
    ['risks', d.risks?.map((r) => `${r.title} (likelihood ${r.likelihood}, severity ${r.severity})`)],
    ['measure_details', d.measure_details?.map((m) => `${m.implemented ? '[x]' : '[ ]'} ${m.measure}`)],
    ['dpo_opinion', d.dpo_opinion],
    ['dpo_name', d.dpo_name],
    ['dpo_opinion_date', d.dpo_opinion_date],
    ['review_date', d.review_date],
  ];
  return pairs.filter(([, v]) => v !== undefined);
}
