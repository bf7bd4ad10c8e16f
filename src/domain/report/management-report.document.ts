import { para, type Block, type ChartSpec, type ReportDoc, type Tone } from '../report.js';
import {
  formatDate,
  formatDateTime,
  formatMonth,
  formatNumber,
  formatPercent,
  type ReportLanguage,
} from '../report-locale.js';
import { reportText } from '../dsfa/dsfa.report-text.js';
import { DSFA_STATUSES, RISK_LEVELS } from '../dsfa/dsfa.values.js';
import type { AttentionItem, ManagementReport } from './management-report.schema.js';
import { managementText, type ManagementText } from './management-report.text.js';
import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from './management-report.thresholds.js';

/** How the document is written: its language and the zone its times are shown in. */
export interface ManagementDocumentOptions {
  lang: ReportLanguage;
  /** IANA zone of the generation time (Europe/Berlin: MEZ/MESZ). */
  timeZone: string;
}

/** The line charts of opt-in rates show this many data points (those with the most decisions); tables show all. */
export const OPT_IN_LINES = 6;
/** A flagged figure per module or data point names this many of them, worst first. */
export const ATTENTION_SUBJECTS = 5;
/** The chart of quiz scores shows this many modules, lowest first. */
export const LOWEST_QUIZ_MODULES = 5;

const heading = (text: string, level: 1 | 2 | 3 = 2): Block => ({ kind: 'heading', text, level });
const fill = (s: string, vars: Record<string, string | number>) =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

/**
 * The management report as a document: a summary of what needs attention with the thresholds that flagged it, then
 * training, consents, impact assessments, and legal documents with the banner. Charts carry their data, which every
 * format prints as a table below them.
 */
export function managementDocument(r: ManagementReport, o: ManagementDocumentOptions): ReportDoc {
  const t = managementText(o.lang);
  const lang = o.lang;
  const num = (n: number) => formatNumber(n, lang);
  const pct = (n: number) => formatPercent(n, lang);
  const day = (d: string) => formatDate(d, lang);
  const when = (ts: string) => formatDateTime(ts, lang, o.timeZone);
  const period = `${day(r.period.from)} – ${day(r.period.to)}`;
  const generated = when(r.generated_at);
  const months = r.period.months.map((m) => formatMonth(m, lang));
  const monthAxis = r.period.months.map((m) => formatMonth(m, lang, true));
  const chart = (c: Omit<ChartSpec, 'description'>): Block => ({
    kind: 'chart',
    chart: {
      ...c,
      description: fill(t.chart.describe, {
        kind: t.chart.kinds[c.kind],
        title: c.title,
        n: c.categories.length * c.series.length,
      }),
    },
  });
  const ctx: Ctx = { r, t, lang, num, pct, day, when, months, monthAxis, chart };
  return {
    title: t.title,
    subtitle: `${t.tenant}: ${r.tenant_id} · ${t.period}: ${period} · ${t.generated}: ${generated}`,
    lang,
    footer: `${t.period}: ${period} · ${t.generated}: ${generated}`,
    pageWords: t.page,
    blocks: [...summary(ctx), ...training(ctx), ...consents(ctx), ...dsfa(ctx), ...legal(ctx)],
  };
}

interface Ctx {
  r: ManagementReport;
  t: ManagementText;
  lang: ReportLanguage;
  num: (n: number) => string;
  pct: (n: number) => string;
  day: (d: string) => string;
  when: (ts: string) => string;
  months: string[];
  monthAxis: string[];
  chart: (c: Omit<ChartSpec, 'description'>) => Block;
}

/** A threshold's value as people read it: `mindestens 90 %`, `at most 0`. */
function limitText(c: Ctx, name: ThresholdName, limit: number): string {
  const rule = THRESHOLDS[name];
  const value = rule.unit === 'percent' ? c.pct(limit) : c.num(limit);
  return `${rule.flags === 'below' ? c.t.summary.atLeast : c.t.summary.atMost} ${value}`;
}

const valueOf = (c: Ctx, threshold: ThresholdName, v: number) =>
  THRESHOLDS[threshold].unit === 'percent' ? c.pct(v) : c.num(v);

/** A flagged figure: the tenant's own, or those of modules and data points with the worst few named. */
function figureText(c: Ctx, a: AttentionItem): string {
  const name = c.t.attention[a.threshold];
  // no legal document at all: say so, not only that a count is short
  if (a.threshold === 'min_privacy_policies' && !c.r.legal.documents.length)
    return `${name}\n${c.t.legal.noPrivacyPolicy}`;
  if (!a.subjects) return name;
  const scope = a.scope === 'module' ? c.t.summary.perModule : c.t.summary.perDataPoint;
  const shown = a.subjects
    .slice(0, ATTENTION_SUBJECTS)
    .map((s) => `${s.subject} (${valueOf(c, a.threshold, s.value)})`);
  const more = a.subjects.length - shown.length;
  return (
    `${name} ${scope}: ${fill(c.t.summary.crossed, { n: a.subjects.length, of: a.of ?? a.subjects.length })}\n` +
    shown.join(', ') +
    (more > 0 ? `, ${fill(c.t.summary.more, { n: more })}` : '')
  );
}

/** The value column: the tenant's figure, or the worst of the subjects. */
function valueText(c: Ctx, a: AttentionItem): string {
  const v = valueOf(c, a.threshold, a.value);
  return a.subjects ? `${v} (${c.t.summary.worst})` : v;
}

function summary(c: Ctx): Block[] {
  const { r, t } = c;
  const published = r.legal.documents.filter((d) => d.published_version !== null).length;
  const out: Block[] = [
    heading(t.summary.heading),
    {
      kind: 'fields',
      rows: [
        [
          t.summary.completion,
          `${c.pct(r.training.completion_rate)} (${c.num(r.training.completed)} / ${c.num(r.training.total_assignments)})`,
        ],
        [t.summary.overdue, c.num(r.training.overdue)],
        [t.summary.activeConsents, `${c.num(r.consents.active)} / ${c.num(r.consents.total)}`],
        [t.consents.conversion, c.pct(r.consents.conversion_rate)],
        [t.dsfa.total, c.num(r.dsfa.total)],
        [t.dsfa.due, c.num(r.dsfa.reviews_due.length)],
        [t.legal.documents, `${c.num(published)} / ${c.num(r.legal.documents.length)}`],
        [
          t.legal.banner,
          r.legal.banner.findings.length
            ? fill(t.legal.bannerFindings, { n: r.legal.banner.findings.length }).replace(/:$/, '')
            : t.legal.bannerOk,
        ],
      ],
    },
    heading(t.summary.attention, 3),
  ];
  if (!r.attention.length) out.push(para(t.summary.nothing));
  else
    out.push({
      kind: 'table',
      head: [t.summary.area, t.summary.figure, t.summary.value, t.summary.threshold],
      rows: r.attention.map((a) => [
        t.areas[a.section],
        figureText(c, a),
        valueText(c, a),
        limitText(c, a.threshold, a.limit),
      ]),
      widths: [0.17, 0.47, 0.16, 0.2],
      tones: r.attention.map(() => [undefined, undefined, 'high' as Tone, undefined]),
    });
  out.push(
    heading(t.summary.thresholds, 3),
    {
      kind: 'table',
      head: [t.summary.figure, 'Name', t.summary.threshold],
      rows: THRESHOLD_NAMES.map((n) => [t.attention[n], n, limitText(c, n, r.thresholds[n])]),
      widths: [0.46, 0.34, 0.2],
    },
    para(t.summary.thresholdNote, true),
  );
  return out;
}

function training(c: Ctx): Block[] {
  const { r, t } = c;
  const tr = r.training;
  const out: Block[] = [
    heading(t.sections.training),
    {
      kind: 'fields',
      rows: [
        [t.training.modules, c.num(tr.total_modules)],
        [t.training.assignments, c.num(tr.total_assignments)],
        [t.training.completed, c.num(tr.completed)],
        [t.training.completionRate, c.pct(tr.completion_rate)],
        [t.training.overdue, c.num(tr.overdue)],
        [t.training.certificates, `${c.num(tr.certificates.total)} / ${c.num(tr.certificates.in_period)}`],
        [t.training.quizAttempts, c.num(tr.quiz.attempts)],
        [t.training.quizAverage, tr.quiz.attempts ? c.pct(tr.quiz.avg_score) : '–'],
      ],
    },
  ];
  if (!tr.total_assignments) out.push(para(t.training.noAssignments, true));
  else {
    out.push(
      c.chart({
        kind: 'bar',
        title: t.training.byModule,
        categoryLabel: t.training.module,
        categories: tr.by_module.map((m) => `${m.module_code} – ${m.module_title}`),
        axisLabels: tr.by_module.map((m) => m.module_code),
        series: [{ name: t.training.completionRate, values: tr.by_module.map((m) => m.completion_rate) }],
        horizontal: true,
        unit: 'percent',
        max: 100,
      }),
      c.chart({
        kind: 'bar',
        title: t.training.byRole,
        categoryLabel: t.training.role,
        categories: tr.by_role.map((x) => x.role_code ?? t.training.noRole),
        series: [{ name: t.training.completionRate, values: tr.by_role.map((x) => x.completion_rate) }],
        unit: 'percent',
        max: 100,
      }),
      c.chart({
        kind: 'bar',
        title: t.training.byLevel,
        categoryLabel: t.training.level,
        categories: tr.overdue_by_level.map((l) => t.training.levels[l.level]!),
        series: [{ name: t.training.overdue, values: tr.overdue_by_level.map((l) => l.count), tone: 'high' }],
        unit: 'count',
      }),
    );
  }
  out.push(
    c.chart({
      kind: 'line',
      title: t.training.perMonth,
      categoryLabel: t.training.month,
      categories: c.months,
      axisLabels: c.monthAxis,
      series: [
        { name: t.training.completions, values: tr.completions_per_month.map((m) => m.count) },
        { name: t.training.certificatesSeries, values: tr.certificates.per_month.map((m) => m.count) },
      ],
      unit: 'count',
    }),
  );
  if (!tr.quiz.by_module.length) out.push(heading(t.training.lowestQuiz, 3), para(t.training.noQuiz, true));
  else {
    const lowest = tr.quiz.by_module.slice(0, LOWEST_QUIZ_MODULES);
    out.push(
      c.chart({
        kind: 'bar',
        title: t.training.lowestQuiz,
        categoryLabel: t.training.module,
        categories: lowest.map((m) => `${m.module_code} – ${m.module_title}`),
        axisLabels: lowest.map((m) => m.module_code),
        series: [
          { name: t.training.avgScore, values: lowest.map((m) => m.avg_score) },
          { name: t.training.passRate, values: lowest.map((m) => m.pass_rate) },
        ],
        horizontal: true,
        unit: 'percent',
        max: 100,
      }),
    );
  }
  return out;
}

function consents(c: Ctx): Block[] {
  const { r, t } = c;
  const k = r.consents;
  const out: Block[] = [
    heading(t.sections.consents),
    {
      kind: 'fields',
      rows: [
        [t.consents.total, c.num(k.total)],
        [t.consents.active, c.num(k.active)],
        [t.consents.revoked, c.num(k.revoked)],
        [t.consents.refused, c.num(k.refused)],
        [t.consents.conversion, c.pct(k.conversion_rate)],
      ],
    },
  ];
  if (!k.total) {
    out.push(para(t.consents.none, true));
    return out;
  }
  out.push(
    c.chart({
      kind: 'stacked',
      title: t.consents.byDataPoint,
      categoryLabel: t.consents.dataPoint,
      categories: k.by_data_point.map((d) => d.data_point_id),
      series: [
        { name: t.consents.active, values: k.by_data_point.map((d) => d.active), tone: 'low' },
        { name: t.consents.revoked, values: k.by_data_point.map((d) => d.revoked), tone: 'high' },
        { name: t.consents.refused, values: k.by_data_point.map((d) => d.refused), tone: 'neutral' },
      ],
      horizontal: k.by_data_point.length > 8,
      unit: 'count',
    }),
  );
  const shown = [...k.opt_in]
    .sort((a, b) => b.decisions - a.decisions || a.data_point_id.localeCompare(b.data_point_id))
    .slice(0, OPT_IN_LINES);
  if (shown.length) {
    out.push(
      c.chart({
        kind: 'line',
        title: t.consents.optIn,
        categoryLabel: t.training.month,
        categories: c.months,
        axisLabels: c.monthAxis,
        series: shown.map((d) => ({ name: d.data_point_id, values: d.per_month.map((m) => m.rate) })),
        unit: 'percent',
        max: 100,
      }),
    );
    if (k.opt_in.length > OPT_IN_LINES) out.push(para(fill(t.consents.optInOthers, { n: OPT_IN_LINES }), true));
    out.push(heading(t.consents.optInTable, 3), {
      kind: 'table',
      head: [t.consents.dataPoint, t.consents.decisions, t.consents.granted, t.consents.rate],
      rows: k.opt_in.map((d) => [
        d.data_point_id,
        c.num(d.decisions),
        c.num(d.granted),
        d.rate === null ? '–' : c.pct(d.rate),
      ]),
      widths: [0.4, 0.2, 0.2, 0.2],
    });
  }
  out.push(
    c.chart({
      kind: 'bar',
      title: t.consents.revocations,
      categoryLabel: t.training.month,
      categories: c.months,
      axisLabels: c.monthAxis,
      series: [
        { name: t.consents.revocationsSeries, values: k.revocations_per_month.map((m) => m.count), tone: 'high' },
      ],
      unit: 'count',
    }),
  );
  return out;
}

const RISK_TONES: Record<(typeof RISK_LEVELS)[number], Tone> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
};

function dsfa(c: Ctx): Block[] {
  const { r, t, lang } = c;
  const d = r.dsfa;
  const words = reportText(lang);
  const out: Block[] = [heading(t.sections.dsfa), { kind: 'fields', rows: [[t.dsfa.total, c.num(d.total)]] }];
  if (d.total)
    out.push(
      c.chart({
        kind: 'stacked',
        title: t.dsfa.byStatus,
        categoryLabel: t.dsfa.status,
        categories: DSFA_STATUSES.map((s) => words.status[s]),
        series: RISK_LEVELS.map((level) => ({
          name: words.level[level],
          values: DSFA_STATUSES.map(
            (s) => d.by_status_and_risk.find((x) => x.status === s && x.risk_level === level)?.count ?? 0,
          ),
          tone: RISK_TONES[level],
        })),
        unit: 'count',
      }),
    );
  out.push(heading(t.dsfa.due, 3));
  if (!d.reviews_due.length) out.push(para(t.dsfa.noneDue));
  else
    out.push({
      kind: 'table',
      head: [t.dsfa.title, t.dsfa.status, t.dsfa.risk, t.dsfa.reviewDate, t.dsfa.reason],
      rows: d.reviews_due.map((x) => [
        x.title,
        words.status[x.status],
        words.level[x.risk_level],
        x.review_date ? c.day(x.review_date) : '–',
        t.dsfa.reasons[x.reason],
      ]),
      widths: [0.36, 0.16, 0.14, 0.16, 0.18],
      tones: d.reviews_due.map((x) => [undefined, undefined, RISK_TONES[x.risk_level], undefined, undefined]),
    });
  const a = d.approvals;
  out.push(heading(t.dsfa.approvals, 3));
  if (!a.count) out.push(para(t.dsfa.noApprovals, true));
  else
    out.push(
      {
        kind: 'fields',
        rows: [
          [t.dsfa.approved, c.num(a.count)],
          [t.dsfa.median, c.num(a.median_days ?? 0)],
          [t.dsfa.mean, c.num(a.mean_days ?? 0)],
          [t.dsfa.max, c.num(a.max_days ?? 0)],
        ],
      },
      c.chart({
        kind: 'bar',
        title: t.dsfa.buckets,
        categoryLabel: t.dsfa.days,
        categories: a.buckets.map((b) => b.bucket.replace('-', '–')),
        series: [{ name: t.dsfa.approvalsSeries, values: a.buckets.map((b) => b.count) }],
        unit: 'count',
      }),
    );
  return out;
}

function legal(c: Ctx): Block[] {
  const { r, t } = c;
  const l = r.legal;
  const type = (x: string) => t.legal.types[x] ?? x;
  const out: Block[] = [heading(t.sections.legal), heading(t.legal.documents, 3)];
  if (!l.documents.length) out.push(para(t.legal.noPrivacyPolicy, true));
  else
    out.push({
      kind: 'table',
      head: [t.legal.document, t.legal.type, t.legal.language, t.legal.version, t.legal.publishedAt],
      rows: l.documents.map((d) => [
        d.title,
        type(d.document_type),
        d.language,
        d.published_version === null ? t.legal.notPublished : String(d.published_version),
        d.published_at ? c.when(d.published_at) : '–',
      ]),
      widths: [0.32, 0.22, 0.1, 0.14, 0.22],
      tones: l.documents.map((d) => [
        undefined,
        undefined,
        undefined,
        d.published_version === null ? 'high' : undefined,
        undefined,
      ]),
    });
  out.push(heading(t.legal.inPeriod, 3));
  if (!l.published_in_period.length) out.push(para(t.legal.noneInPeriod, true));
  else
    out.push({
      kind: 'table',
      head: [t.legal.document, t.legal.version, t.legal.publishedAt],
      rows: l.published_in_period.map((v) => [v.title, String(v.version_number), c.when(v.published_at)]),
      widths: [0.5, 0.2, 0.3],
    });
  out.push(heading(t.legal.banner, 3));
  if (!l.banner.configured) out.push(para(t.legal.bannerDefault, true));
  else if (l.banner.updated_at)
    out.push({ kind: 'fields', rows: [[t.legal.bannerUpdated, c.when(l.banner.updated_at)]] });
  if (!l.banner.findings.length) out.push(para(t.legal.bannerOk));
  else
    out.push(para(fill(t.legal.bannerFindings, { n: l.banner.findings.length })), {
      kind: 'table',
      head: [t.legal.rule, t.legal.finding],
      rows: l.banner.findings.map((f) => [f.rule, f.message]),
      widths: [0.3, 0.7],
      tones: l.banner.findings.map(() => ['high' as Tone, undefined]),
    });
  return out;
}
