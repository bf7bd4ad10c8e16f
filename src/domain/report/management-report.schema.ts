import * as z from 'zod';
import { REPORT_LANGUAGES } from '../report-locale.js';
import { isCalendarDay } from '../schema-helpers.js';
import { DSFA_STATUSES, RISK_LEVELS } from '../dsfa/dsfa.values.js';
import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from './management-report.thresholds.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (what: string) =>
  z
    .string()
    .trim()
    .regex(ISO_DAY, `expected a day such as 2026-09-30 (${what})`)
    .refine((s) => !ISO_DAY.test(s) || isCalendarDay(s), 'no such day in the calendar');

/**
 * A threshold as a query parameter or a flag: text is read as a number first; text that is not a number is a type
 * error (400), a number outside its range a validation error (422). Percentages take 0 to 100, counts and days a whole
 * number from 0.
 */
function thresholdValue(name: ThresholdName) {
  const rule = THRESHOLDS[name];
  const n = rule.unit === 'percent' ? z.number().min(0).max(100) : z.int().min(0).max(1_000_000);
  return z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim();
      return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : v;
    }, n)
    .optional()
    .describe(`${rule.about}; flagged ${rule.flags} it (default ${rule.default})`);
}

/** The thresholds of the summary, each optional (the default applies). */
export const ThresholdsInput = z.object(
  Object.fromEntries(THRESHOLD_NAMES.map((n) => [n, thresholdValue(n)])) as Record<
    ThresholdName,
    ReturnType<typeof thresholdValue>
  >,
);

/** The longest period a report covers: 60 months keep the monthly charts readable. */
export const MAX_MONTHS = 60;

/**
 * What a management report is asked for: the period (days, inclusive, in UTC like the stored timestamps; default the
 * twelve calendar months up to today) and the thresholds of the summary.
 */
export const ManagementReportQuery = z.object({
  from: day('the first day of the period').optional(),
  to: day('the last day of the period').optional(),
  ...ThresholdsInput.shape,
});
export type ManagementReportQuery = z.output<typeof ManagementReportQuery>;

/** The HTML form also takes its language and the time zone its times are shown in (default UTC). */
export const ManagementReportHtmlQuery = ManagementReportQuery.extend({
  lang: z.enum(REPORT_LANGUAGES).default('de'),
  time_zone: z.string().trim().min(1).max(100).default('UTC'),
});
export type ManagementReportHtmlQuery = z.output<typeof ManagementReportHtmlQuery>;

const int = z.int().min(0);
const rate = z.number().min(0).max(100);
const month = z.string().regex(/^\d{4}-\d{2}$/);
const perMonth = z.array(z.object({ month, count: int }));

/**
 * A figure of the summary that crossed its threshold. A figure of the whole tenant has its `value`; a figure per
 * module or data point lists the `subjects` that crossed it (worst first) out of `of` examined, and `value` is the
 * worst of them.
 */
export const AttentionItem = z.object({
  /** The threshold that flagged it (a key of `thresholds`). */
  threshold: z.enum(THRESHOLD_NAMES),
  section: z.enum(['training', 'consents', 'dsfa', 'legal']),
  scope: z.enum(['tenant', 'module', 'data_point']),
  value: z.number(),
  limit: z.number(),
  subjects: z.array(z.object({ subject: z.string(), value: z.number() })).optional(),
  of: int.optional(),
});
export type AttentionItem = z.infer<typeof AttentionItem>;

/** The management report as data: every figure the charts and tables show (GET /reports/management). */
export const ManagementReport = z.object({
  tenant_id: z.string(),
  generated_at: z.string(),
  period: z.object({ from: z.string(), to: z.string(), months: z.array(month) }),
  thresholds: z.record(z.enum(THRESHOLD_NAMES), z.number()),
  attention: z.array(AttentionItem),
  training: z.object({
    total_modules: int,
    total_assignments: int,
    completed: int,
    completion_rate: rate,
    overdue: int,
    /** Overdue assignments by the higher of the stored escalation level and the level their days overdue reach. */
    overdue_by_level: z.array(z.object({ level: z.int().min(0).max(4), count: int })),
    by_module: z.array(
      z.object({
        module_id: z.string(),
        module_code: z.string(),
        module_title: z.string(),
        total: int,
        completed: int,
        completion_rate: rate,
      }),
    ),
    by_role: z.array(z.object({ role_code: z.string().nullable(), total: int, completed: int, completion_rate: rate })),
    completions_per_month: perMonth,
    certificates: z.object({ total: int, in_period: int, per_month: perMonth }),
    quiz: z.object({
      attempts: int,
      avg_score: z.number(),
      /** Modules with attempts in the period, lowest average score first. */
      by_module: z.array(
        z.object({
          module_id: z.string(),
          module_code: z.string(),
          module_title: z.string(),
          attempts: int,
          avg_score: z.number(),
          pass_rate: rate,
        }),
      ),
    }),
  }),
  consents: z.object({
    total: int,
    active: int,
    revoked: int,
    refused: int,
    conversion_rate: rate,
    by_data_point: z.array(
      z.object({
        data_point_id: z.string(),
        total: int,
        active: int,
        revoked: int,
        refused: int,
        revocation_rate: rate,
      }),
    ),
    opt_in: z.array(
      z.object({
        data_point_id: z.string(),
        decisions: int,
        granted: int,
        /** null when the period holds no decision on the data point. */
        rate: rate.nullable(),
        per_month: z.array(z.object({ month, decisions: int, granted: int, rate: rate.nullable() })),
      }),
    ),
    revocations_per_month: perMonth,
  }),
  dsfa: z.object({
    total: int,
    by_status: z.partialRecord(z.enum(DSFA_STATUSES), int),
    by_risk_level: z.partialRecord(z.enum(RISK_LEVELS), int),
    by_status_and_risk: z.array(
      z.object({ status: z.enum(DSFA_STATUSES), risk_level: z.enum(RISK_LEVELS), count: int }),
    ),
    reviews_due: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: z.enum(DSFA_STATUSES),
        risk_level: z.enum(RISK_LEVELS),
        review_date: z.string().nullable(),
        reason: z.enum(['review_due', 'needs_update']),
      }),
    ),
    approvals: z.object({
      count: int,
      median_days: z.number().nullable(),
      mean_days: z.number().nullable(),
      max_days: z.number().nullable(),
      buckets: z.array(z.object({ bucket: z.enum(['0-7', '8-30', '31-90', '91+']), count: int })),
      items: z.array(
        z.object({
          dsfa_id: z.string(),
          title: z.string(),
          created_at: z.string(),
          approved_at: z.string(),
          days: z.number(),
        }),
      ),
    }),
  }),
  legal: z.object({
    documents: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        document_type: z.string(),
        language: z.string(),
        published_version: z.int().nullable(),
        published_at: z.string().nullable(),
      }),
    ),
    published_in_period: z.array(
      z.object({
        document_id: z.string(),
        title: z.string(),
        version_number: z.int(),
        published_at: z.string(),
      }),
    ),
    banner: z.object({
      configured: z.boolean(),
      updated_at: z.string().nullable(),
      findings: z.array(z.object({ rule: z.string(), path: z.string(), message: z.string() })),
    }),
  }),
});
export type ManagementReport = z.infer<typeof ManagementReport>;
