import { para, type Block, type ListItem, type ReportDoc, type Tone } from '../report.js';
import { formatDate, formatDateTime, guessLanguage, type ReportLanguage } from '../report-locale.js';
import { reportText, type ReportText } from './dsfa.report-text.js';
import { highest, riskLevel, type Level } from './risk-matrix.js';
import { approvedContent, contentSince, lastApproval } from './dsfa.workflow.js';
import type { AiUseCaseModule, Dsfa, DsfaAuditEntry } from './dsfa.schema.js';
import { RISK_LEVELS } from './dsfa.values.js';

/** How a report is written: its language and time zone, and whether it shows what only the store needs. */
export interface DsfaReportOptions {
  lang: ReportLanguage;
  /** IANA zone in which times are shown, with its name (Europe/Berlin: MEZ/MESZ). */
  timeZone: string;
  generatedAt: Date;
  /** Internal ids and the tenant: left out unless asked for. */
  includeIds?: boolean;
  /** The history of changes as an appendix (default true). */
  auditTrail?: boolean;
}

/** The language a report of this assessment is written in unless one is asked for: that of its own texts. */
export const dsfaLanguage = (d: Dsfa): ReportLanguage =>
  guessLanguage([d.title, d.processing_activity, d.description, d.necessity_assessment].join('\n'));

const heading = (text: string, level: 1 | 2 | 3 = 2): Block => ({ kind: 'heading', text, level });
const plainList = (items: string[]): Block => ({ kind: 'list', items: items.map((text) => ({ spans: [{ text }] })) });
const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/**
 * The report of one assessment, structured after Art. 35(7) GDPR: (a) description, (b) necessity and
 * proportionality, (c) risks, (d) measures, then the DPO's opinion and the sign-off; AI use cases and the history of
 * changes follow as appendices. A required part without content says so; empty fields are left out.
 */
export function dsfaReport(d: Dsfa, audit: DsfaAuditEntry[], o: DsfaReportOptions): ReportDoc {
  const t = reportText(o.lang);
  const when = (ts: string) => formatDateTime(ts, o.lang, o.timeZone);
  const asOf = when(o.generatedAt.toISOString());
  const blocks: Block[] = [
    overview(d, t, when, o),
    ...numbered(t, [
      [t.section.description, describe(d, t)],
      [
        t.section.necessity,
        present(d.necessity_assessment) ? [{ kind: 'markdown', text: d.necessity_assessment }] : [],
      ],
      [t.section.risks, risks(d, t)],
      [t.section.measures, measures(d, t)],
      [t.section.dpo, dpo(d, t, o.lang)],
      [t.section.signOff, signOff(d, audit, t, when, o.lang)],
    ]),
  ];
  // appendices are lettered in the order they appear, so a report without AI modules starts at A
  const appendices: Array<[string, (letter: string) => Block[]]> = [];
  if (d.ai_use_case_modules.length)
    appendices.push([
      t.section.ai,
      (letter) => d.ai_use_case_modules.flatMap((m, i) => aiModule(m, `${letter}.${i + 1}`, t, o)),
    ]);
  if (o.auditTrail !== false && audit.length) appendices.push([t.section.audit, () => [history(audit, t, when)]]);
  appendices.forEach(([title, content], i) => {
    const letter = String.fromCharCode(65 + i);
    blocks.push(heading(`${t.section.appendix} ${letter}: ${title}`), ...content(letter));
  });
  return {
    title: d.title,
    subtitle: `${t.kind} · ${t.asOf}: ${asOf}`,
    lang: o.lang,
    footer: `${d.title} · ${t.asOf}: ${asOf}`,
    pageWords: t.page,
    blocks,
  };
}

/** Sections numbered 1, 2, …; one without content says so. */
function numbered(t: ReportText, sections: Array<[string, Block[]]>): Block[] {
  return sections.flatMap(([title, content], i) => [
    heading(`${i + 1}. ${title}`),
    ...(content.length ? content : [para(t.notStated, true)]),
  ]);
}

function overview(d: Dsfa, t: ReportText, when: (ts: string) => string, o: DsfaReportOptions): Block {
  const top = highest((d.risks ?? []).map((r) => riskLevel(r.likelihood, r.severity)));
  const rows: Array<[string, string | undefined]> = [
    [t.overview.controller, d.controller],
    [t.overview.status, t.status[d.status]],
    [t.overview.riskLevel, t.level[d.risk_level]],
    [t.overview.highestRisk, top && t.level[top]],
    [t.overview.created, `${when(d.created_at)} ${t.overview.by} ${d.created_by}`],
    [t.overview.updated, when(d.updated_at)],
    [t.signOff.nextReview, d.review_date && formatDate(d.review_date, o.lang)],
    ...(o.includeIds
      ? ([
          [t.overview.id, d.id],
          [t.overview.tenant, d.tenant_id],
        ] as Array<[string, string]>)
      : []),
  ];
  return { kind: 'fields', rows: rows.filter((r): r is [string, string] => present(r[1])) };
}

function describe(d: Dsfa, t: ReportText): Block[] {
  const out: Block[] = [];
  if (present(d.processing_activity))
    out.push({ kind: 'fields', rows: [[t.description.processingActivity, d.processing_activity]] });
  if (present(d.description)) out.push({ kind: 'markdown', text: d.description });
  const lists: Array<[string, string[] | undefined]> = [
    [t.description.purposes, d.purposes],
    [t.description.dataSubjects, d.data_subjects],
    [t.description.dataCategories, d.data_categories],
    [t.description.recipients, d.recipients],
  ];
  for (const [title, items] of lists) if (items?.length) out.push(heading(title, 3), plainList(items));
  return out;
}

function risks(d: Dsfa, t: ReportText): Block[] {
  const list = d.risks ?? [];
  if (!list.length) return [];
  const rated = list.map((r, i) => ({ ...r, no: `R${i + 1}`, level: riskLevel(r.likelihood, r.severity) }));
  const out: Block[] = [
    {
      kind: 'table',
      head: [t.risks.no, t.risks.risk, t.risks.likelihood, t.risks.severity, t.risks.level],
      rows: rated.map((r) => [r.no, r.title, t.level[r.likelihood], t.level[r.severity], t.level[r.level]]),
      widths: [0.07, 0.33, 0.24, 0.16, 0.2],
      tones: rated.map((r) => [undefined, undefined, undefined, undefined, r.level]),
    },
  ];
  for (const r of rated)
    if (present(r.description))
      out.push(
        { kind: 'paragraph', spans: [{ text: `${r.no} ${r.title}`, bold: true }] },
        { kind: 'markdown', text: r.description },
      );
  // the matrix: likelihood from top (critical) to bottom (low), severity from left (low) to right (critical)
  const down = [...RISK_LEVELS].reverse();
  out.push(heading(t.risks.matrix, 3), {
    kind: 'table',
    head: [t.risks.matrixCorner, ...RISK_LEVELS.map((s) => t.level[s])],
    rows: down.map((l) => [
      t.level[l],
      ...RISK_LEVELS.map((s) =>
        rated
          .filter((r) => r.likelihood === l && r.severity === s)
          .map((r) => r.no)
          .join(', '),
      ),
    ]),
    widths: [0.34, 0.165, 0.165, 0.165, 0.165],
    tones: down.map((l) => [undefined, ...RISK_LEVELS.map((s): Tone => riskLevel(l as Level, s))]),
  });
  out.push(para(t.risks.legend, true));
  return out;
}

function measures(d: Dsfa, t: ReportText): Block[] {
  if (!d.measures.length) return [];
  const details = new Map((d.measure_details ?? []).map((m) => [m.measure, m]));
  if (!details.size) return [para(t.measures.noStates, true), plainList(d.measures)];
  const item = (measure: string): ListItem => {
    const m = details.get(measure);
    const spans = [{ text: measure }];
    if (m?.description) spans.push({ text: ` – ${m.description}` });
    return { spans, checked: m?.implemented };
  };
  const groups: Array<[string, string[]]> = [
    [t.measures.implemented, d.measures.filter((m) => details.get(m)?.implemented === true)],
    [t.measures.planned, d.measures.filter((m) => details.get(m)?.implemented === false)],
    [t.measures.unknown, d.measures.filter((m) => !details.has(m))],
  ];
  return groups
    .filter(([, items]) => items.length)
    .flatMap(([title, items]): Block[] => [heading(title, 3), { kind: 'list', items: items.map(item) }]);
}

function dpo(d: Dsfa, t: ReportText, lang: ReportLanguage): Block[] {
  const out: Block[] = [];
  const rows: Array<[string, string | undefined]> = [
    [t.dpo.name, d.dpo_name],
    [t.dpo.date, d.dpo_opinion_date && formatDate(d.dpo_opinion_date, lang)],
  ];
  const fields = rows.filter((r): r is [string, string] => present(r[1]));
  if (fields.length) out.push({ kind: 'fields', rows: fields });
  if (present(d.dpo_opinion)) out.push({ kind: 'markdown', text: d.dpo_opinion });
  return out;
}

/**
 * Status and approval. An assessment that left `approved` (an edit after the approval moves it to needs-update) still
 * names its last approval from the audit trail, and whether the content changed since, so the signed document tells
 * what was approved and that it no longer is.
 */
function signOff(d: Dsfa, audit: DsfaAuditEntry[], t: ReportText, when: (ts: string) => string, lang: ReportLanguage) {
  const rows: Array<[string, string | undefined]> = [[t.signOff.status, t.status[d.status]]];
  const state = approvedContent(d, audit);
  const last = d.status === 'approved' ? undefined : lastApproval(audit);
  if (d.status === 'approved')
    rows.push(
      [t.signOff.approvedBy, d.approved_by ?? undefined],
      [t.signOff.approvedAt, d.approved_at ? when(d.approved_at) : undefined],
      [t.signOff.content, state === 'none' ? undefined : t.signOff[state]],
    );
  else if (last)
    rows.push(
      [t.signOff.lastApprovedBy, last.by],
      [t.signOff.lastApprovedAt, when(last.at)],
      [t.signOff.content, t.signOff[contentSince(d, last)]],
    );
  rows.push([t.signOff.nextReview, d.review_date && formatDate(d.review_date, lang)]);
  const out: Block[] = [{ kind: 'fields', rows: rows.filter((r): r is [string, string] => present(r[1])) }];
  if (d.status !== 'approved') out.push(para(last ? t.signOff.approvalLapsed : t.signOff.notApproved, true));
  return out;
}

function aiModule(m: AiUseCaseModule, no: string, t: ReportText, o: DsfaReportOptions): Block[] {
  const a = t.ai;
  const yesNo = (b: boolean | undefined) => (b === undefined ? undefined : b ? t.yes : t.no);
  const lines = (xs: string[] | undefined) => (xs?.length ? xs.join('\n') : undefined);
  const rows: Array<[string, string | undefined]> = [
    [a.use_case_type, t.useCase[m.use_case_type] ?? m.use_case_type],
    [a.model_type, m.model_type],
    [a.model_description, m.model_description],
    [a.provider, m.provider],
    [a.provider_country, m.provider_country],
    [a.third_country_transfer, yesNo(m.third_country_transfer)],
    [a.input_data_categories, lines(m.input_data_categories)],
    [a.output_data_categories, lines(m.output_data_categories)],
    [a.involves_special_categories, yesNo(m.involves_special_categories)],
    [a.data_subjects, lines(m.data_subjects)],
    [a.processing_purpose, m.processing_purpose],
    [a.legal_basis, m.legal_basis],
    [a.art22, m.art22_assessment && (m.art22_assessment.applies ? a.applies : a.doesNotApply)],
    [a.safeguards, lines(m.art22_assessment?.safeguards.map(text).filter(present))],
    [a.ai_act_risk_class, m.ai_act_risk_class && t.aiActClass[m.ai_act_risk_class]],
    [a.ai_act_justification, m.ai_act_justification],
    [a.wp248_criteria_met, lines(m.wp248_criteria_met?.map((c) => t.wp248[c] ?? c))],
    ...(o.includeIds ? ([[a.id, m.id]] as Array<[string, string]>) : []),
  ];
  const out: Block[] = [
    heading(`${no} ${m.name || t.useCase[m.use_case_type] || m.use_case_type}`, 3),
    { kind: 'fields', rows: rows.filter((r): r is [string, string] => present(r[1])) },
  ];
  const level = (l: string | undefined) => (l ? ((t.level as Record<string, string>)[l] ?? l) : undefined);
  const sub = (title: string, items: ListItem[]) => {
    if (items.length) out.push({ kind: 'paragraph', spans: [{ text: title, bold: true }] }, { kind: 'list', items });
  };
  const item = (parts: Array<string | undefined>, checked?: boolean): ListItem => ({
    spans: [{ text: parts.filter(present).join(' – ') }],
    checked,
  });
  sub(
    a.risk_criteria,
    (m.risk_criteria ?? []).map((c) =>
      item([c.id, c.applies ? a.applies : a.doesNotApply, c.severity && `${t.risks.severity}: ${level(c.severity)}`]),
    ),
  );
  sub(
    a.risks,
    (m.risks ?? []).map((r) =>
      item([
        r.title,
        r.description,
        r.likelihood && `${t.risks.likelihood}: ${level(r.likelihood)}`,
        r.severity && `${t.risks.severity}: ${level(r.severity)}`,
      ]),
    ),
  );
  sub(
    a.mitigations,
    (m.mitigations ?? []).map((x) => item([x.title, x.description], x.implemented)),
  );
  sub(
    a.privacy_by_design_measures,
    (m.privacy_by_design_measures ?? []).map((p) => item([p.category, p.description], p.implemented)),
  );
  sub(
    a.review_triggers,
    (m.review_triggers ?? []).map((r) =>
      item([r.type, r.description, r.monitoring_interval && `${a.every}: ${r.monitoring_interval}`]),
    ),
  );
  return out;
}

/** A value of free shape (Art. 22 safeguards) as text: strings as they are, anything else as JSON. */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);

function history(audit: DsfaAuditEntry[], t: ReportText, when: (ts: string) => string): Block {
  const fields = (e: DsfaAuditEntry) => {
    if (e.action === 'STATUS_CHANGE') {
      const name = (s: unknown) => (t.status as Record<string, string>)[String(s)] ?? String(s);
      return `${name(e.old_values.status)} → ${name(e.new_values.status)}`;
    }
    if (e.action !== 'UPDATE') return '';
    const keys = Object.keys({ ...e.old_values, ...e.new_values }).filter((k) => k !== 'content_hash');
    return keys.map((k) => t.fields[k] ?? k).join(', ');
  };
  return {
    kind: 'table',
    head: [t.audit.when, t.audit.action, t.audit.by, t.audit.changes],
    rows: [...audit].reverse().map((e) => [when(e.created_at), t.audit.actions[e.action], e.changed_by, fields(e)]),
    widths: [0.24, 0.18, 0.22, 0.36],
  };
}
