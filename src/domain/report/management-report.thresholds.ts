// The thresholds of the management report's summary, free of zod so the CLI can name them in its help.

/** How a threshold is compared: a figure `below` a minimum or `above` a maximum needs attention. */
export interface ThresholdRule {
  default: number;
  /** `min_…`: a figure below it is flagged; `max_…`: a figure above it. */
  flags: 'below' | 'above';
  /** `percent` takes 0 to 100 (decimals allowed), `count` and `days` a whole number from 0. */
  unit: 'percent' | 'count' | 'days';
  /** What the figure is, for help texts and docs/report.md. */
  about: string;
}

export const THRESHOLDS = {
  min_completion_rate: {
    default: 90,
    flags: 'below',
    unit: 'percent',
    about: 'training completion rate, overall and per module (completed ÷ assigned)',
  },
  max_overdue: { default: 0, flags: 'above', unit: 'count', about: 'overdue training assignments' },
  min_quiz_score: {
    default: 70,
    flags: 'below',
    unit: 'percent',
    about: 'average quiz score of a module over the attempts in the period',
  },
  min_opt_in_rate: {
    default: 50,
    flags: 'below',
    unit: 'percent',
    about: 'opt-in rate of a data point over the period (granted ÷ decisions recorded)',
  },
  max_revocation_rate: {
    default: 20,
    flags: 'above',
    unit: 'percent',
    about: 'revocation rate of a data point (revoked ÷ consents granted)',
  },
  max_reviews_due: {
    default: 0,
    flags: 'above',
    unit: 'count',
    about: 'DSFAs past their review date or in needs-update',
  },
  max_approval_days: {
    default: 60,
    flags: 'above',
    unit: 'days',
    about: 'median days from creation (draft) to first approval of the DSFAs approved in the period',
  },
  max_unpublished_documents: {
    default: 0,
    flags: 'above',
    unit: 'count',
    about: 'legal documents without a published version',
  },
  min_privacy_policies: {
    default: 1,
    flags: 'below',
    unit: 'count',
    about: 'privacy policies with a published version (the GDPR requires one: Art. 13)',
  },
  max_banner_findings: { default: 0, flags: 'above', unit: 'count', about: 'findings of the cookie-banner lint' },
} as const satisfies Record<string, ThresholdRule>;

export type ThresholdName = keyof typeof THRESHOLDS;
export const THRESHOLD_NAMES = Object.keys(THRESHOLDS) as [ThresholdName, ...ThresholdName[]];
export type Thresholds = Record<ThresholdName, number>;

export const DEFAULT_THRESHOLDS: Thresholds = Object.fromEntries(
  THRESHOLD_NAMES.map((n) => [n, THRESHOLDS[n].default]),
) as Thresholds;

/** Whether `value` crosses the threshold `name` set at `limit`. */
export const crosses = (name: ThresholdName, value: number, limit: number): boolean =>
  THRESHOLDS[name].flags === 'below' ? value < limit : value > limit;
