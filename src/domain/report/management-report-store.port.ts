import type { CookieBanner } from '../cookie-banner/cookie-banner.schema.js';
import type { ConsentCountRow } from '../consents/consent-store.port.js';

/**
 * A period as the store compares it: timestamps are ISO text in UTC on both engines, so `from` (the first day,
 * `YYYY-MM-DD`) and `until` (the day after the last) bound them as text, whether they end in `Z` or not.
 */
export interface PeriodBounds {
  from: string;
  until: string;
}

/** A count per month (`YYYY-MM`, the UTC month of the timestamp). */
export interface MonthCount {
  month: string;
  n: number;
}

/**
 * The aggregates of the management report, read-only and always scoped to one tenant. Every method is one or two
 * grouped queries whose result is small (a row per module, role, data point and month), whatever the store holds.
 */
export interface ManagementReportStore {
  // training
  /** The tenant's modules with their code and title. */
  modules(tenant: string): Promise<Array<{ module_id: string; module_code: string; module_title: string }>>;
  /** Assignments and completed ones per module and role, in one pass (the service sums them either way). */
  assignmentCounts(
    tenant: string,
  ): Promise<Array<{ module_id: string; role_code: string | null; total: number; completed: number }>>;
  /**
   * Open assignments whose deadline is before `at`, by the higher of their stored escalation level and the level
   * their deadline reaches: `reached[i]` is the latest deadline that reaches level i + 1 (levels 1 to 4).
   */
  overdueByLevel(tenant: string, at: string, reached: string[]): Promise<Array<{ level: number; n: number }>>;
  completionsPerMonth(tenant: string, p: PeriodBounds): Promise<MonthCount[]>;
  certificatesPerMonth(tenant: string, p: PeriodBounds): Promise<MonthCount[]>;
  certificateCount(tenant: string): Promise<number>;
  /** Quiz attempts of the period per module: how many, their summed score and how many passed. */
  quizByModule(
    tenant: string,
    p: PeriodBounds,
  ): Promise<
    Array<{
      module_id: string;
      module_code: string;
      module_title: string;
      attempts: number;
      score_sum: number;
      passed: number;
    }>
  >;

  // consents
  /** The rows behind the consent statistics (the same source as GET /einwilligungen/consents/stats). */
  consentCounts(tenant: string): Promise<ConsentCountRow[]>;
  /**
   * Consents recorded (granted_at) in the period per data point and month: all of them and the granted ones.
   * `months` are those of the period (`YYYY-MM`), `dataPoints` those the tenant has (from `consentCounts`).
   */
  consentDecisionsPerMonth(
    tenant: string,
    p: PeriodBounds,
    months: string[],
    dataPoints: string[],
  ): Promise<Array<{ data_point_id: string; month: string; total: number; granted: number }>>;
  revocationsPerMonth(tenant: string, p: PeriodBounds): Promise<MonthCount[]>;

  // impact assessments
  dsfaCounts(tenant: string): Promise<Array<{ status: string; risk_level: string; n: number }>>;
  /** Assessments in needs-update or whose review date is on or before `day`. */
  dsfaReviewsDue(
    tenant: string,
    day: string,
  ): Promise<Array<{ id: string; title: string; status: string; risk_level: string; review_date: string | null }>>;
  /**
   * Audit entries that may record an approval (their new values mention the status approved), with the creation
   * entry of the same assessment; the service reads the values to decide.
   */
  dsfaApprovalEntries(
    tenant: string,
  ): Promise<
    Array<{ dsfa_id: string; title: string | null; created_at: string; approved_at: string; new_values: string }>
  >;

  // legal documents and banner
  legalDocuments(tenant: string): Promise<
    Array<{
      id: string;
      title: string;
      document_type: string;
      language: string;
      published_version: number | null;
      published_at: string | null;
    }>
  >;
  /** Versions published in the period (archived ones included: they were published then). */
  legalVersionsPublished(
    tenant: string,
    p: PeriodBounds,
  ): Promise<Array<{ document_id: string; title: string; version_number: number; published_at: string }>>;
  cookieBanner(tenant: string): Promise<CookieBanner | undefined>;
}
