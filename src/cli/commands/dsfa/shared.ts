import type { Dsfa, DsfaAuditEntry } from '../../../domain/dsfa/dsfa.schema.js';
import type { CliContext } from '../../context.js';
import { printRecord, type Column } from '../../output.js';
import { additionPairs } from './fields.js';

export { req } from '../../operation-verb.js';

/** One assessment as the lines of a record. */
export const dsfaPairs = (d: Dsfa): Array<[string, unknown]> => [
  ['id', d.id],
  ['title', d.title],
  ['status', d.status],
  ['risk_level', d.risk_level],
  ['description', d.description],
  ['processing_activity', d.processing_activity],
  ['data_categories', d.data_categories],
  ['recipients', d.recipients],
  ['measures', d.measures],
  ['approved_by', d.approved_by],
  ['approved_at', d.approved_at],
  ['created_by', d.created_by],
  ['created_at', d.created_at],
  ['updated_at', d.updated_at],
  ['ai_use_case_modules', d.ai_use_case_modules.map((m) => `${m.name || m.id} (${m.use_case_type})`)],
  ...additionPairs(d),
];

/** Prints one assessment: its wire shape with --json, else its lines. */
export const printDsfa = (ctx: CliContext, d: Dsfa) => printRecord(ctx, d, dsfaPairs(d));

export const listColumns: Column<Dsfa>[] = [
  { header: 'ID', value: (d) => d.id, id: true },
  { header: 'TITLE', value: (d) => d.title },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'RISK', value: (d) => d.risk_level },
  { header: 'AI', value: (d) => d.ai_use_case_modules.length },
  { header: 'UPDATED', value: (d) => d.updated_at.slice(0, 19) },
];

export const auditColumns: Column<DsfaAuditEntry>[] = [
  { header: 'WHEN', value: (e) => e.created_at.slice(0, 19) },
  { header: 'ACTION', value: (e) => e.action },
  { header: 'DSFA', value: (e) => e.dsfa_id, id: true },
  { header: 'BY', value: (e) => e.changed_by },
  { header: 'FIELDS', value: (e) => Object.keys({ ...e.old_values, ...e.new_values }).join(', ') },
];
