// Allowed values of the notifications area, free of zod so command help can name them.

/**
 * The templates a tenant can override: one per escalation level, named by the level's label, and `escalation`, one
 * template for every level without one of its own (not used until a tenant sets it).
 */
export const TEMPLATE_NAMES = [
  'reminder_employee',
  'notify_team_lead',
  'notify_management',
  'notify_compliance_officer',
  'escalation',
] as const;
