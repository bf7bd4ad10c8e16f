import * as z from 'zod';
import { REPORT_LANGUAGES } from '../report-locale.js';
import { PlannedMessage } from '../notifications/notification.schema.js';
import { emailAddress, isoTimestamp, label, nonBlank, optionalLabel, queryInt } from '../schema-helpers.js';
import {
  ASSIGNMENT_STATUSES,
  AUDIT_ACTIONS,
  AUDIT_ENTITY_TYPES,
  FREQUENCY_TYPES,
  REGULATION_AREAS,
  ROLES,
  TRIGGERS,
} from './training.values.js';

const Z = z.string();
const text = nonBlank;
const percent = z.int().min(0).max(100);

// ---- modules and questions
export const QuestionInput = z
  .object({
    question: text(2000),
    options: z.array(text(500)).min(2).max(6),
    correct_index: z.int().min(0),
    explanation: z.string().max(4000).default(''),
  })
  .refine((q) => q.correct_index < q.options.length, {
    path: ['correct_index'],
    message: 'must point at one of the options',
  });
export type QuestionInput = z.infer<typeof QuestionInput>;
export const Question = z.object({
  id: z.string(),
  module_id: z.string(),
  position: z.int(),
  question: z.string(),
  options: z.array(z.string()),
  correct_index: z.int(),
  explanation: z.string(),
});
export type Question = z.infer<typeof Question>;
/** What a learner sees: never the correct answer. */
export const LearnerQuestion = Question.omit({ correct_index: true, explanation: true });

export const ModuleCreate = z.object({
  module_code: z
    .string()
    .trim()
    .regex(/^\s*[A-Za-z0-9][A-Za-z0-9_.-]{0,39}\s*$/, 'letters, digits, - _ . (at most 40)'),
  title: label(300),
  /** The English title, where the module has one (English e-mail names the module by it); blank or null: none. */
  title_en: optionalLabel(300).nullable().optional(),
  description: z.string().max(4000).default(''),
  regulation_area: z.enum(REGULATION_AREAS),
  frequency_type: z.enum(FREQUENCY_TYPES),
  duration_minutes: z.int().min(1).max(600).default(30),
  pass_threshold: percent.default(70),
  validity_days: z.int().min(1).max(3650).default(365),
  questions: z.array(QuestionInput).max(100).optional(),
});
export type ModuleCreate = z.infer<typeof ModuleCreate>;
export const ModuleUpdate = z.object({
  module_code: ModuleCreate.shape.module_code.optional(),
  title: label(300).optional(),
  title_en: optionalLabel(300).nullable().optional(),
  description: z.string().max(4000).optional(),
  regulation_area: z.enum(REGULATION_AREAS).optional(),
  frequency_type: z.enum(FREQUENCY_TYPES).optional(),
  duration_minutes: z.int().min(1).max(600).optional(),
  pass_threshold: percent.optional(),
  validity_days: z.int().min(1).max(3650).optional(),
  /** Replaces the quiz questions when given. */
  questions: z.array(QuestionInput).max(100).optional(),
});
export type ModuleUpdate = z.infer<typeof ModuleUpdate>;
export const Module = z.object({
  id: z.string(),
  tenant_id: z.string(),
  module_code: z.string(),
  title: z.string(),
  title_en: z.string().nullable().describe('the English title; null: none'),
  description: z.string(),
  regulation_area: z.enum(REGULATION_AREAS),
  frequency_type: z.enum(FREQUENCY_TYPES),
  duration_minutes: z.int(),
  pass_threshold: z.int(),
  validity_days: z.int(),
  question_count: z.int(),
  created_at: Z,
  updated_at: Z,
});
export type Module = z.infer<typeof Module>;
export const ModuleDetail = Module.extend({
  content: z
    .object({
      id: z.string(),
      version: z.int(),
      language: z.string(),
      markdown: z.string(),
      published_at: Z.nullable(),
    })
    .nullable(),
  questions: z.array(Question),
});
export type ModuleDetail = z.infer<typeof ModuleDetail>;
export const ModuleQuery = z.object({
  regulation_area: z.enum(REGULATION_AREAS).optional(),
  frequency_type: z.enum(FREQUENCY_TYPES).optional(),
  search: nonBlank(200).optional(),
});

// ---- matrix
export const Role = z.enum(ROLES);
export const MatrixSet = z.object({
  role_code: Role,
  module_id: z.string().min(1),
  is_mandatory: z.boolean().default(false),
  priority: z.int().min(1).max(10).default(5),
});
export const MatrixEntry = z.object({
  role_code: Role,
  module_id: z.string(),
  module_code: z.string(),
  module_title: z.string(),
  is_mandatory: z.boolean(),
  priority: z.int(),
});
export type MatrixEntry = z.infer<typeof MatrixEntry>;
export const RoleParams = z.object({ role: Role });
export const MatrixDeleteParams = z.object({ role: Role, moduleId: z.string().min(1) });

// ---- assignments
export const ComputeInput = z.object({
  user_id: label(200),
  user_name: label(200),
  user_email: emailAddress(),
  /** The team lead, who hears of a level 2 escalation. */
  manager_email: emailAddress().optional(),
  roles: z.array(Role).min(1),
  trigger: z.enum(TRIGGERS).optional(),
  deadline_days: z.int().min(1).max(3650).default(30),
});
export type ComputeInput = z.infer<typeof ComputeInput>;
export const Assignment = z.object({
  id: z.string(),
  tenant_id: z.string(),
  module_id: z.string(),
  module_code: z.string(),
  module_title: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  user_email: z.string(),
  manager_email: z.string().nullable().optional().describe('the team lead, told of a level 2 escalation'),
  role_code: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  progress_percent: percent,
  deadline: Z,
  escalation_level: z.int().min(0).max(4),
  quiz_passed: z.boolean(),
  certificate_id: z.string().nullable(),
  started_at: Z.nullable(),
  completed_at: Z.nullable(),
  valid_until: Z.nullable(),
  created_at: Z,
  updated_at: Z,
});
export type Assignment = z.infer<typeof Assignment>;
export const ComputeResult = z.object({ assignments: z.array(Assignment), created: z.int() });
export const AssignmentQuery = z.object({
  user_id: z.string().min(1).optional(),
  module_id: z.string().min(1).optional(),
  role: Role.optional(),
  status: z.enum(ASSIGNMENT_STATUSES).optional(),
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  offset: queryInt({ min: 0, default: 0 }),
});
export type AssignmentQuery = z.infer<typeof AssignmentQuery>;
export const AssignmentUpdate = z.object({
  deadline: isoTimestamp().optional(),
  user_name: label(200).optional(),
  user_email: emailAddress().optional(),
});
export const Progress = z.object({ progress: percent });
export const AsOf = z.object({ as_of: isoTimestamp().optional() });

// ---- quiz
export const QuizAnswer = z.object({ question_id: z.string().min(1), selected_index: z.int().min(0) });
export const QuizSubmit = z.object({
  assignment_id: z.string().min(1),
  answers: z.array(QuizAnswer),
  duration_seconds: z.int().min(0).optional(),
});
export const QuizResult = z.object({
  attempt_id: z.string(),
  score: z.number(),
  passed: z.boolean(),
  correct_count: z.int(),
  total_count: z.int(),
  threshold: z.int(),
});
export type QuizResult = z.infer<typeof QuizResult>;
export const QuizAttempt = QuizResult.extend({
  assignment_id: z.string(),
  module_id: z.string(),
  duration_seconds: z.int().nullable(),
  created_at: Z,
});
export const LearnerQuiz = z.object({
  module_id: z.string(),
  pass_threshold: z.int(),
  questions: z.array(LearnerQuestion),
});
export const ModuleIdParams = z.object({ moduleId: z.string().min(1) });
export const AssignmentIdParams = z.object({ assignmentId: z.string().min(1) });

// ---- escalation
export const EscalationItem = z.object({
  assignment_id: z.string(),
  user_name: z.string(),
  module_title: z.string(),
  previous_level: z.int(),
  new_level: z.int(),
  days_overdue: z.int(),
  escalation_label: z.string(),
});
export type EscalationItem = z.infer<typeof EscalationItem>;
export const EscalationResult = z.object({
  results: z.array(EscalationItem),
  total_checked: z.int(),
  escalated: z.int(),
  dry_run: z.boolean(),
  as_of: Z,
  notifications: z
    .object({
      queued: z.int().describe('e-mails queued in the outbox (one per person); 0 in a dry run'),
      messages: z.array(PlannedMessage).describe('the e-mails a dry run would queue (empty otherwise)'),
      unaddressed: z
        .array(z.object({ assignment_id: z.string(), level: z.int(), reason: z.string() }))
        .describe('levels reached that no address is known for'),
    })
    .optional(),
});
export const EscalationInput = z.object({
  as_of: isoTimestamp().optional(),
  dry_run: z.boolean().default(false),
});
export const DeadlineQuery = z.object({
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  as_of: isoTimestamp().optional(),
});
export const OverdueItem = Assignment.extend({ days_overdue: z.int() });

// ---- certificates
export const Certificate = z.object({
  id: z.string(),
  tenant_id: z.string(),
  assignment_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  module_id: z.string(),
  module_code: z.string(),
  module_title: z.string(),
  score: z.number(),
  issued_at: Z,
  valid_until: Z,
  signature: z.string(),
  verification_code: z.string(),
});
export type Certificate = z.infer<typeof Certificate>;
export const CertificateGenerated = z.object({
  certificate_id: z.string(),
  verification_code: z
    .string()
    .describe('The code printed on the certificate, as `training certificates verify` takes it (addition)'),
  assignment: z.object({
    id: z.string(),
    status: z.string(),
    quiz_passed: z.boolean(),
    certificate_id: z.string(),
    module_title: z.string(),
  }),
});
/** What the public verification route tells anyone holding a certificate's code (our addition). */
export const PublicVerification = z.object({
  valid: z.boolean(),
  signature_valid: z.boolean(),
  expired: z.boolean(),
  module_code: z.string(),
  module_title: z.string(),
  issued_at: z.string(),
  valid_until: z.string(),
  holder_initials: z.string(),
});
export type PublicVerification = z.infer<typeof PublicVerification>;

export const VerificationCodeParams = z.object({
  code: z
    .string()
    .regex(/^[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){3}$/, 'expected the verification code printed on the certificate'),
});

/** Where the QR code of a certificate PDF points: the base URL of a server's /sdk/v1 API. */
export const CertificatePdfQuery = z.object({
  verify_url: z.url({ protocol: /^https?$/ }).optional(),
  lang: z
    .enum(REPORT_LANGUAGES)
    .optional()
    .describe('the language the certificate is written in; default de (addition)'),
});

export const Verification = z.object({
  valid: z.boolean().describe('the signature matches the fields and the certificate has not expired'),
  signature_valid: z.boolean().describe('the signature matches the fields (none was edited) (addition)'),
  expired: z.boolean().describe('valid_until has passed (addition)'),
  certificate: Certificate,
  assignment: Assignment.nullable(),
});

// ---- audit and statistics
export const AuditEntry = z.object({
  id: z.string(),
  tenant_id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  entity_type: z.enum(AUDIT_ENTITY_TYPES),
  entity_id: z.string(),
  actor: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: Z,
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditQuery = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  entity_type: z.enum(AUDIT_ENTITY_TYPES).optional(),
  limit: queryInt({ min: 1, max: 500, default: 50 }),
  offset: queryInt({ min: 0, default: 0 }),
});
export const TrainingStats = z.object({
  total_modules: z.int(),
  total_assignments: z.int(),
  overdue_count: z.int(),
  pending_count: z.int(),
  in_progress_count: z.int(),
  completed_count: z.int(),
  upcoming_deadlines: z.int(),
  completion_rate: z.number(),
  avg_quiz_score: z.number(),
  avg_completion_days: z.number(),
});
export type TrainingStats = z.infer<typeof TrainingStats>;
