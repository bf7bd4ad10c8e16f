import { approvedContent } from './dsfa.workflow.js';
import type { Block, ReportDoc } from '../report.js';
import type { AiUseCaseModule, Dsfa, DsfaAuditEntry } from './dsfa.schema.js';

const list = (xs: string[]): string => (xs.length ? xs.join(', ') : '—');
const yesNo = (b: boolean | undefined): string => (b === undefined ? '—' : b ? 'yes' : 'no');
const changed = (e: DsfaAuditEntry): string => {
  const keys = Object.keys({ ...e.old_values, ...e.new_values });
  if (e.action === 'STATUS_CHANGE') return `${String(e.old_values.status)} → ${String(e.new_values.status)}`;
  if (e.action === 'CREATE' || e.action === 'DELETE') return '';
  return keys.join(', ');
};

function moduleBlocks(m: AiUseCaseModule, i: number): Block[] {
  const blocks: Block[] = [
    { kind: 'heading', level: 3, text: `${i + 1}. ${m.name || m.use_case_type}` },
    {
      kind: 'fields',
      rows: [
        ['Use case type', m.use_case_type],
        ['Model', [m.model_type, m.model_description].filter(Boolean).join(' — ') || '—'],
        ['Provider', [m.provider, m.provider_country].filter(Boolean).join(', ') || '—'],
        ['Third-country transfer', yesNo(m.third_country_transfer)],
        ['Input data', list(m.input_data_categories ?? [])],
        ['Output data', list(m.output_data_categories ?? [])],
        ['Special categories (Art. 9)', yesNo(m.involves_special_categories)],
        ['Data subjects', list(m.data_subjects ?? [])],
        ['Purpose', m.processing_purpose || '—'],
        ['Legal basis', m.legal_basis || '—'],
        ['Art. 22 applies', yesNo(m.art22_assessment?.applies)],
        ['AI Act risk class', m.ai_act_risk_class ?? '—'],
        ['AI Act justification', m.ai_act_justification || '—'],
        ['WP248 criteria met', list(m.wp248_criteria_met ?? [])],
      ],
    },
  ];
  const risks = (m.risks ?? []).map(
    (r) => [r.title, r.description].filter(Boolean).join(': ') + (r.severity ? ` (${r.severity})` : ''),
  );
  if (risks.length) blocks.push({ kind: 'paragraph', text: 'Risks:' }, { kind: 'list', items: risks });
  const mitigations = (m.mitigations ?? []).map(
    (x) => [x.title, x.description].filter(Boolean).join(': ') + (x.implemented ? ' (implemented)' : ''),
  );
  if (mitigations.length)
    blocks.push({ kind: 'paragraph', text: 'Mitigations:' }, { kind: 'list', items: mitigations });
  const pbd = (m.privacy_by_design_measures ?? []).map(
    (p) => `${p.category}: ${p.description}${p.implemented ? ' (implemented)' : ' (planned)'}`,
  );
  if (pbd.length) blocks.push({ kind: 'paragraph', text: 'Privacy by design:' }, { kind: 'list', items: pbd });
  return blocks;
}

const APPROVED_CONTENT = {
  current: 'the content approved is the content shown (same SHA-256 as recorded at approval)',
  changed: 'CHANGED since approval: the content shown differs from the content approved',
  unknown: 'not verifiable (approved before content hashes were recorded)',
} as const;

/** Whether the approval covers the content shown, for approved assessments. */
function approvalRow(d: Dsfa, audit: DsfaAuditEntry[]): Array<[string, string]> {
  const state = approvedContent(d, audit);
  return state === 'none' ? [] : [['Approved content', APPROVED_CONTENT[state]]];
}

/** The report of one assessment: its fields, the AI appendix and its audit trail. */
export function dsfaReport(d: Dsfa, audit: DsfaAuditEntry[], generatedAt: string): ReportDoc {
  const blocks: Block[] = [
    {
      kind: 'fields',
      rows: [
        ['ID', d.id],
        ['Tenant', d.tenant_id],
        ['Status', d.status],
        ['Risk level', d.risk_level],
        ['Processing activity', d.processing_activity || '—'],
        ['Created', `${d.created_at} by ${d.created_by}`],
        ['Last updated', d.updated_at],
        ['Approved', d.approved_at ? `${d.approved_at}${d.approved_by ? ` by ${d.approved_by}` : ''}` : '—'],
        ...approvalRow(d, audit),
      ],
    },
    { kind: 'heading', level: 2, text: 'Description' },
    { kind: 'paragraph', text: d.description || '—' },
    { kind: 'heading', level: 2, text: 'Data categories' },
    { kind: 'list', items: d.data_categories.length ? d.data_categories : ['—'] },
    { kind: 'heading', level: 2, text: 'Recipients' },
    { kind: 'list', items: d.recipients.length ? d.recipients : ['—'] },
    { kind: 'heading', level: 2, text: 'Measures' },
    { kind: 'list', items: d.measures.length ? d.measures : ['—'] },
    { kind: 'heading', level: 2, text: `AI use-case modules (${d.ai_use_case_modules.length})` },
  ];
  if (d.ai_use_case_modules.length === 0) blocks.push({ kind: 'paragraph', text: 'No AI use-case modules.' });
  d.ai_use_case_modules.forEach((m, i) => blocks.push(...moduleBlocks(m, i)));
  blocks.push(
    { kind: 'heading', level: 2, text: 'Audit trail' },
    {
      kind: 'table',
      head: ['When (UTC)', 'Action', 'By', 'Changed'],
      rows: [...audit]
        .reverse()
        .map((e) => [e.created_at.replace('T', ' ').slice(0, 19), e.action, e.changed_by, changed(e)]),
    },
  );
  return {
    title: d.title,
    subtitle: `Data protection impact assessment (Art. 35 GDPR) · report of ${generatedAt}`,
    blocks,
  };
}
