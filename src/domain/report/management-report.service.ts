import { isoZ, isTimeZone, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { statsFromCounts } from '../consents/consent.service.js';
import { defaultCookieBanner } from '../cookie-banner/cookie-banner.schema.js';
import { lintCookieBanner } from '../cookie-banner/cookie-banner.lint.js';
import { addDays } from '../training/training.rules.js';
import { ESCALATION_STAGES } from '../training/training.values.js';
import { DSFA_STATUSES, RISK_LEVELS } from '../dsfa/dsfa.values.js';
import {
  MAX_MONTHS,
  type AttentionItem,
  type ManagementReport,
  type ManagementReportQuery,
} from './management-report.schema.js';
import type { ManagementReportStore, MonthCount, PeriodBounds } from './management-report-store.port.js';
import {
  crosses,
  DEFAULT_THRESHOLDS,
  THRESHOLD_NAMES,
  THRESHOLDS,
  type ThresholdName,
  type Thresholds,
} from './management-report.thresholds.js';

const DAY = 86_400_000;

/** One decimal, as every rate and average of the statistics routes. */
export const round1 = (n: number): number => Math.round(n * 10) / 10;
const percent = (part: number, whole: number): number => (whole ? round1((100 * part) / whole) : 0);

/** The period of a report: its first and last day, the day after it, and its months. */
export interface Period extends PeriodBounds {
  to: string;
  months: string[];
}

const monthOf = (day: string) => day.slice(0, 7);
function nextMonth(m: string): string {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
}

/**
 * The period asked for, in whole UTC days: `to` defaults to today, `from` to the first day of the eleventh month
 * before `to`'s (twelve calendar months). A period longer than MAX_MONTHS months, or ending before it starts, is
 * refused naming the field.
 */
export function resolvePeriod(q: { from?: string; to?: string }, now: Date): Period {
  const to = q.to ?? isoZ(now).slice(0, 10);
  let from = q.from;
  if (from === undefined) {
    const [y, m] = to.split('-').map(Number) as [number, number];
    const start = new Date(Date.UTC(y, m - 1 - 11, 1));
    from = isoZ(start).slice(0, 10);
  }
  if (from > to)
    throw new DomainError('validation', `the period starts after it ends (from ${from}, to ${to})`, [
      { path: 'from', message: `must not be after to (${to})` },
    ]);
  const months: string[] = [];
  for (let m = monthOf(from); m <= monthOf(to); m = nextMonth(m)) months.push(m);
  if (months.length > MAX_MONTHS)
    throw new DomainError(
      'validation',
      `the period spans ${months.length} months; a report covers at most ${MAX_MONTHS}`,
      [{ path: 'from', message: `at most ${MAX_MONTHS} months before to` }],
    );
  const until = isoZ(new Date(Date.parse(`${to}T00:00:00Z`) + DAY)).slice(0, 10);
  return { from, to, until, months };
}

/** Every month of the period with its count, months without any as 0. */
const fillMonths = (months: string[], rows: MonthCount[]) => {
  const by = new Map(rows.map((r) => [r.month, Number(r.n)]));
  return months.map((month) => ({ month, count: by.get(month) ?? 0 }));
};

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const zoned = (ts: string) => (/[zZ]|[+-]\d\d:\d\d$/.test(ts) ? ts : `${ts}Z`);

/** The management report of one tenant: the state of training, consents, impact assessments and legal texts. */
export class ManagementReportService {
  constructor(
    private readonly store: ManagementReportStore,
    private readonly clock: Clock,
  ) {}

  async report(tenant: string, q: ManagementReportQuery): Promise<ManagementReport> {
    const now = this.clock.now();
    const period = resolvePeriod(q, now);
    const thresholds = { ...DEFAULT_THRESHOLDS };
    for (const name of THRESHOLD_NAMES) if (q[name] !== undefined) thresholds[name] = q[name];
    const [training, consents, dsfa, legal] = [
      await this.training(tenant, period, now),
      await this.consents(tenant, period),
      await this.dsfa(tenant, period, now),
      await this.legal(tenant, period),
    ];
    const body = { training, consents, dsfa, legal };
    return {
      tenant_id: tenant,
      generated_at: isoZ(now),
      period: { from: period.from, to: period.to, months: period.months },
      thresholds,
      attention: attention(body, thresholds),
      ...body,
    };
  }

  private async training(tenant: string, p: Period, now: Date): Promise<ManagementReport['training']> {
    const s = this.store;
    const at = isoZ(now);
    const reached = ESCALATION_STAGES.map((stage) => addDays(now, -stage.days));
    const counts = await s.assignmentCounts(tenant);
    const sum = <K extends string | null>(key: (c: (typeof counts)[number]) => K) => {
      const by = new Map<K, { total: number; completed: number }>();
      for (const c of counts) {
        const x = by.get(key(c)) ?? { total: 0, completed: 0 };
        x.total += c.total;
        x.completed += c.completed;
        by.set(key(c), x);
      }
      return by;
    };
    const perModule = sum((c) => c.module_id);
    const modules = (await s.modules(tenant)).map((m) => ({
      ...m,
      ...(perModule.get(m.module_id) ?? { total: 0, completed: 0 }),
    }));
    const roles = [...sum((c) => c.role_code).entries()].map(([role_code, x]) => ({ role_code, ...x }));
    const levels = await s.overdueByLevel(tenant, at, reached);
    const completions = await s.completionsPerMonth(tenant, p);
    const certificates = await s.certificatesPerMonth(tenant, p);
    const certificateCount = await s.certificateCount(tenant);
    const quiz = await s.quizByModule(tenant, p);
    const total = modules.reduce((n, m) => n + m.total, 0);
    const completed = modules.reduce((n, m) => n + m.completed, 0);
    const byLevel = new Map(levels.map((l) => [Number(l.level), Number(l.n)]));
    const attempts = quiz.reduce((n, m) => n + m.attempts, 0);
    const scoreSum = quiz.reduce((n, m) => n + m.score_sum, 0);
    const certificatesPerMonth = fillMonths(p.months, certificates);
    return {
      total_modules: modules.length,
      total_assignments: total,
      completed,
      completion_rate: percent(completed, total),
      overdue: levels.reduce((n, l) => n + Number(l.n), 0),
      overdue_by_level: [0, 1, 2, 3, 4].map((level) => ({ level, count: byLevel.get(level) ?? 0 })),
      by_module: modules
        .filter((m) => m.total > 0)
        .map((m) => ({ ...m, completion_rate: percent(m.completed, m.total) }))
        .sort((a, b) => a.completion_rate - b.completion_rate || a.module_code.localeCompare(b.module_code)),
      by_role: roles
        .map((r) => ({ ...r, completion_rate: percent(r.completed, r.total) }))
        .sort((a, b) => (a.role_code ?? '~').localeCompare(b.role_code ?? '~', 'en', { numeric: true })),
      completions_per_month: fillMonths(p.months, completions),
      certificates: {
        total: certificateCount,
        in_period: certificatesPerMonth.reduce((n, m) => n + m.count, 0),
        per_month: certificatesPerMonth,
      },
      quiz: {
        attempts,
        avg_score: attempts ? round1(scoreSum / attempts) : 0,
        by_module: quiz
          .filter((m) => m.attempts > 0)
          .map((m) => ({
            module_id: m.module_id,
            module_code: m.module_code,
            module_title: m.module_title,
            attempts: m.attempts,
            avg_score: round1(m.score_sum / m.attempts),
            pass_rate: percent(m.passed, m.attempts),
          }))
          .sort((a, b) => a.avg_score - b.avg_score || a.module_code.localeCompare(b.module_code)),
      },
    };
  }

  private async consents(tenant: string, p: Period): Promise<ManagementReport['consents']> {
    const rows = await this.store.consentCounts(tenant);
    const stats = statsFromCounts(rows, 0);
    const refusedBy = new Map<string, number>();
    for (const r of rows) if (!r.granted) refusedBy.set(r.data_point_id, (refusedBy.get(r.data_point_id) ?? 0) + r.n);
    const points = [...new Set(rows.map((r) => r.data_point_id))].sort();
    const decisions = await this.store.consentDecisionsPerMonth(tenant, p, p.months, points);
    const revocations = await this.store.revocationsPerMonth(tenant, p);
    const perPoint = new Map<string, Map<string, { total: number; granted: number }>>();
    for (const d of decisions) {
      const months = perPoint.get(d.data_point_id) ?? new Map();
      months.set(d.month, { total: Number(d.total), granted: Number(d.granted) });
      perPoint.set(d.data_point_id, months);
    }
    const opt_in = [...perPoint.keys()].sort().map((data_point_id) => {
      const months = perPoint.get(data_point_id)!;
      const per_month = p.months.map((month) => {
        const m = months.get(month) ?? { total: 0, granted: 0 };
        return { month, decisions: m.total, granted: m.granted, rate: m.total ? percent(m.granted, m.total) : null };
      });
      const all = per_month.reduce((n, m) => n + m.decisions, 0);
      const granted = per_month.reduce((n, m) => n + m.granted, 0);
      return { data_point_id, decisions: all, granted, rate: all ? percent(granted, all) : null, per_month };
    });
    const by_data_point = Object.entries(stats.by_data_point).map(([data_point_id, d]) => ({
      data_point_id,
      total: d.total,
      active: d.active,
      revoked: d.revoked,
      refused: refusedBy.get(data_point_id) ?? 0,
      revocation_rate: percent(d.revoked, d.active + d.revoked),
    }));
    return {
      total: stats.total_consents,
      active: stats.active_consents,
      revoked: stats.revoked_consents,
      refused: stats.total_consents - stats.active_consents - stats.revoked_consents,
      conversion_rate: stats.conversion_rate,
      by_data_point,
      opt_in,
      revocations_per_month: fillMonths(p.months, revocations),
    };
  }

  private async dsfa(tenant: string, p: Period, now: Date): Promise<ManagementReport['dsfa']> {
    const counts = await this.store.dsfaCounts(tenant);
    const by_status: Record<string, number> = {};
    const by_risk_level: Record<string, number> = {};
    let total = 0;
    for (const c of counts) {
      const n = Number(c.n);
      by_status[c.status] = (by_status[c.status] ?? 0) + n;
      by_risk_level[c.risk_level] = (by_risk_level[c.risk_level] ?? 0) + n;
      total += n;
    }
    const by_status_and_risk = DSFA_STATUSES.flatMap((status) =>
      RISK_LEVELS.map((risk_level) => ({
        status,
        risk_level,
        count: counts
          .filter((c) => c.status === status && c.risk_level === risk_level)
          .reduce((n, c) => n + Number(c.n), 0),
      })),
    );
    const today = isoZ(now).slice(0, 10);
    const due = await this.store.dsfaReviewsDue(tenant, today);
    const reviews_due = due
      .map((d) => ({
        id: d.id,
        title: d.title,
        status: d.status as (typeof DSFA_STATUSES)[number],
        risk_level: d.risk_level as (typeof RISK_LEVELS)[number],
        review_date: d.review_date,
        reason: (d.status === 'needs-update' ? 'needs_update' : 'review_due') as 'needs_update' | 'review_due',
      }))
      .sort(
        (a, b) => (a.review_date ?? '9999').localeCompare(b.review_date ?? '9999') || a.title.localeCompare(b.title),
      );

    // the first approval of each assessment, counted in the period it fell into
    const first = new Map<string, { title: string; created_at: string; approved_at: string }>();
    for (const e of await this.store.dsfaApprovalEntries(tenant)) {
      let values: Record<string, unknown>;
      try {
        values = JSON.parse(e.new_values) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (values.status !== 'approved') continue;
      const seen = first.get(e.dsfa_id);
      if (seen && seen.approved_at <= e.approved_at) continue;
      first.set(e.dsfa_id, { title: e.title ?? e.dsfa_id, created_at: e.created_at, approved_at: e.approved_at });
    }
    const items = [...first.entries()]
      .filter(([, a]) => a.approved_at >= p.from && a.approved_at < p.until)
      .map(([dsfa_id, a]) => ({
        dsfa_id,
        title: a.title,
        created_at: a.created_at,
        approved_at: a.approved_at,
        days: round1(Math.max(0, Date.parse(zoned(a.approved_at)) - Date.parse(zoned(a.created_at))) / DAY),
      }))
      // approvals at the same instant in the order the assessments were made (ids are time-ordered)
      .sort((a, b) => a.approved_at.localeCompare(b.approved_at) || a.dsfa_id.localeCompare(b.dsfa_id));
    const days = items.map((i) => i.days);
    const bucket = (lo: number, hi: number) => days.filter((d) => d >= lo && d < hi).length;
    const m = median(days);
    return {
      total,
      by_status,
      by_risk_level,
      by_status_and_risk,
      reviews_due,
      approvals: {
        count: items.length,
        median_days: m === null ? null : round1(m),
        mean_days: days.length ? round1(days.reduce((a, b) => a + b, 0) / days.length) : null,
        max_days: days.length ? Math.max(...days) : null,
        buckets: [
          { bucket: '0-7', count: bucket(0, 7.05) },
          { bucket: '8-30', count: bucket(7.05, 30.05) },
          { bucket: '31-90', count: bucket(30.05, 90.05) },
          { bucket: '91+', count: bucket(90.05, Infinity) },
        ],
        items,
      },
    };
  }

  private async legal(tenant: string, p: Period): Promise<ManagementReport['legal']> {
    const documents = await this.store.legalDocuments(tenant);
    const published_in_period = await this.store.legalVersionsPublished(tenant, p);
    const stored = await this.store.cookieBanner(tenant);
    const banner = stored ?? defaultCookieBanner(tenant);
    return {
      documents: documents.map((d) => ({ ...d, published_version: d.published_version ?? null })),
      published_in_period,
      banner: {
        configured: stored !== undefined,
        updated_at: stored?.updated_at ?? null,
        findings: lintCookieBanner(banner),
      },
    };
  }
}

/** Checks the time zone a report is shown in; an unknown one is refused naming the field. */
export function checkTimeZone(zone: string, field = 'time_zone'): string {
  if (isTimeZone(zone)) return zone;
  throw new DomainError(
    'validation',
    `unknown time zone ${JSON.stringify(zone)}: use an IANA name such as Europe/Berlin, or UTC`,
    [{ path: field, message: 'an IANA time zone name such as Europe/Berlin' }],
  );
}

/** The figures that crossed their thresholds, in the order of the report's sections. */
export function attention(
  r: Pick<ManagementReport, 'training' | 'consents' | 'dsfa' | 'legal'>,
  t: Thresholds,
): AttentionItem[] {
  const out: AttentionItem[] = [];
  const tenantWide = (threshold: ThresholdName, section: AttentionItem['section'], value: number) => {
    if (crosses(threshold, value, t[threshold]))
      out.push({ threshold, section, scope: 'tenant', value, limit: t[threshold] });
  };
  const each = (
    threshold: ThresholdName,
    section: AttentionItem['section'],
    scope: 'module' | 'data_point',
    figures: Array<{ subject: string; value: number }>,
  ) => {
    const flagged = figures.filter((f) => crosses(threshold, f.value, t[threshold]));
    if (!flagged.length) return;
    // worst first: the lowest of a minimum, the highest of a maximum
    const sign = THRESHOLDS[threshold].flags === 'below' ? 1 : -1;
    flagged.sort((a, b) => sign * (a.value - b.value) || a.subject.localeCompare(b.subject));
    out.push({
      threshold,
      section,
      scope,
      value: flagged[0]!.value,
      limit: t[threshold],
      subjects: flagged,
      of: figures.length,
    });
  };
  if (r.training.total_assignments) tenantWide('min_completion_rate', 'training', r.training.completion_rate);
  each(
    'min_completion_rate',
    'training',
    'module',
    r.training.by_module.map((m) => ({ subject: m.module_code, value: m.completion_rate })),
  );
  tenantWide('max_overdue', 'training', r.training.overdue);
  each(
    'min_quiz_score',
    'training',
    'module',
    r.training.quiz.by_module.map((m) => ({ subject: m.module_code, value: m.avg_score })),
  );
  each(
    'min_opt_in_rate',
    'consents',
    'data_point',
    r.consents.opt_in.filter((d) => d.rate !== null).map((d) => ({ subject: d.data_point_id, value: d.rate! })),
  );
  each(
    'max_revocation_rate',
    'consents',
    'data_point',
    r.consents.by_data_point
      .filter((d) => d.active + d.revoked > 0)
      .map((d) => ({ subject: d.data_point_id, value: d.revocation_rate })),
  );
  tenantWide('max_reviews_due', 'dsfa', r.dsfa.reviews_due.length);
  if (r.dsfa.approvals.median_days !== null) tenantWide('max_approval_days', 'dsfa', r.dsfa.approvals.median_days);
  tenantWide(
    'max_unpublished_documents',
    'legal',
    r.legal.documents.filter((d) => d.published_version === null).length,
  );
  const policies = r.legal.documents.filter(
    (d) => d.document_type === 'privacy_policy' && d.published_version !== null,
  );
  tenantWide('min_privacy_policies', 'legal', policies.length);
  tenantWide('max_banner_findings', 'legal', r.legal.banner.findings.length);
  return out;
}
