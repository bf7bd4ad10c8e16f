// Allowed values of the training area, free of zod so command help can name them.
export const REGULATION_AREAS = ['dsgvo', 'nis2', 'iso27001', 'ai_act', 'geschgehg', 'hinschg'] as const;
export const FREQUENCY_TYPES = ['onboarding', 'annual', 'event_trigger', 'micro'] as const;
export const ROLES = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'R9', 'R10'] as const;
export const ROLE_NAMES: Record<(typeof ROLES)[number], string> = {
  R1: 'management',
  R2: 'IT management',
  R3: 'data protection officer',
  R4: 'information security officer',
  R5: 'HR',
  R6: 'purchasing',
  R7: 'specialist department',
  R8: 'IT administrator',
  R9: 'all employees',
  R10: 'authorities',
};
export const ASSIGNMENT_STATUSES = ['pending', 'in_progress', 'completed', 'overdue', 'expired'] as const;
export const TRIGGERS = ['onboarding', 'annual', 'event', 'manual'] as const;
export const AUDIT_ACTIONS = [
  'assigned',
  'started',
  'completed',
  'quiz_submitted',
  'escalated',
  'certificate_issued',
  'content_generated',
] as const;
export const AUDIT_ENTITY_TYPES = ['assignment', 'module', 'quiz', 'certificate'] as const;
/** Escalation stages (spec 3.4): days overdue at which each level starts, and who is told. */
export const ESCALATION_STAGES = [
  { level: 1, days: 7, label: 'reminder_employee' },
  { level: 2, days: 14, label: 'notify_team_lead' },
  { level: 3, days: 30, label: 'notify_management' },
  { level: 4, days: 45, label: 'notify_compliance_officer' },
] as const;
