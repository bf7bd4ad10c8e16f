import * as z from 'zod';
import { emailAddress, nonBlank, looseBoolean, queryInt } from '../schema-helpers.js';
import { TEMPLATE_NAMES } from './notification.values.js';

export const NOTIFICATION_LANGUAGES = ['de', 'en'] as const;
export type NotificationLanguage = (typeof NOTIFICATION_LANGUAGES)[number];
export const Language = z.enum(NOTIFICATION_LANGUAGES);

export { TEMPLATE_NAMES };
export const TemplateName = z.enum(TEMPLATE_NAMES);
export type TemplateName = z.infer<typeof TemplateName>;

/** The address of the tenant's training portal that e-mail links to: http(s), no user or password in it. */
const BaseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2000)
  .refine((u) => !/^https?:\/\/[^/]*@/i.test(u), 'must not contain a user name or password');

/**
 * Who hears of escalations beyond the employee and the team lead, and in which language (a tenant's settings; the
 * defaults until set): level 3 goes to `management_email`, level 4 to `compliance_officer_email`; with `base_url` set
 * every message links to it.
 */
export const NotificationSettings = z.object({
  language: Language,
  management_email: emailAddress().nullable(),
  compliance_officer_email: emailAddress().nullable(),
  base_url: BaseUrl.nullable().describe("the tenant's training portal, linked from every message"),
  updated_at: z.string().nullable(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsInput = z.object({
  language: Language.optional(),
  management_email: emailAddress().nullable().optional(),
  compliance_officer_email: emailAddress().nullable().optional(),
  base_url: BaseUrl.nullable().optional(),
});
export type NotificationSettingsInput = z.infer<typeof NotificationSettingsInput>;

/**
 * A message template: `{{name}}` (the employee's, else the role's), `{{count}}` (items), `{{people}}`, `{{items}}`
 * (what the level lists: lines in text, a <ul> in HTML), `{{link}}` (the base URL, a link in HTML) and `{{tenant}}`
 * are filled in, escaped in the HTML part; `{{#key}}…{{/key}}` shows text only when the value is not empty and
 * `{{^key}}…{{/key}}` only when it is, with the flags `one` (one item), `one_person`, `employee` (level 1), `leads`,
 * `some_leads` and `no_leads` (whether every, some or no item names a team lead) and `management` (a management
 * address is set).
 */
export const Template = z.object({
  name: TemplateName,
  language: Language,
  subject: nonBlank(500),
  body_text: nonBlank(50_000),
  body_html: nonBlank(100_000),
  overridden: z.boolean().describe('false: the built-in template (for escalation: not in use)'),
});
export type Template = z.infer<typeof Template>;

export const TemplateInput = Template.pick({ subject: true, body_text: true, body_html: true });
export type TemplateInput = z.infer<typeof TemplateInput>;

export const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const;

/** One e-mail in the outbox. */
export const OutboxMessage = z.object({
  id: z.string(),
  run_id: z.string().describe('the escalation run that queued it'),
  recipient: z.string(),
  language: Language,
  subject: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number().int(),
  created_at: z.string(),
  next_attempt_at: z.string(),
  sent_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

export const OutboxQuery = z.object({
  failed: looseBoolean().default(false),
  limit: queryInt({ min: 1, max: 1000, default: 100 }),
});
export type OutboxQuery = z.infer<typeof OutboxQuery>;

/** A message as an escalation run plans it (shown by --dry-run, queued otherwise). */
export const PlannedMessage = z.object({
  to: z.string(),
  language: Language,
  subject: z.string(),
  body_text: z.string(),
  body_html: z.string(),
  assignments: z.array(z.object({ assignment_id: z.string(), level: z.int() })),
});
export type PlannedMessage = z.infer<typeof PlannedMessage>;
