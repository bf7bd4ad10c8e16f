// The allowed values of the DSFA fields, free of zod so the CLI can name them in its help without loading schemas.
export const DSFA_STATUSES = ['draft', 'in-review', 'approved', 'needs-update'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const USE_CASE_TYPES = [
  'chatbot_nlp',
  'recommendation',
  'adm_scoring',
  'video_image',
  'biometrics',
  'iot_sensors',
  'generative_ai',
  'custom',
] as const;
export const AI_ACT_RISK_CLASSES = ['prohibited', 'high', 'limited', 'minimal'] as const;
export const AUDIT_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'STATUS_CHANGE'] as const;

/** Review workflows a tenant can choose: `open` lets any status follow any other (the API specification's rule). */
export const DSFA_WORKFLOWS = ['open', 'strict'] as const;

/** The names of the optional fields (our additions to the record): absent from a record while unset. */
export const DSFA_ADDITIONS = [
  'controller',
  'purposes',
  'data_subjects',
  'necessity_assessment',
  'risks',
  'measure_details',
  'dpo_opinion',
  'dpo_name',
  'dpo_opinion_date',
  'review_date',
] as const;
export type DsfaAddition = (typeof DSFA_ADDITIONS)[number];
