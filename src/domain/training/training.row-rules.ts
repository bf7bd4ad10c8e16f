import * as z from 'zod';
import { DomainError } from '../errors.js';
import { emailAddress } from '../schema-helpers.js';
import {
  before,
  flag,
  jsonText,
  storedRow,
  storedTime,
  timeOf,
  type RecordFacts,
  type RowRule,
} from '../sync/row-rule.js';
import type { SyncRow } from '../sync/version.js';
import {
  certificateProblem,
  levelAfterDeadline,
  moduleDeletionProblem,
  quizScore,
  scoreQuiz,
  STORED_STATUS_STEPS,
  type StoredStatus,
} from './training.rules.js';
import {
  AuditEntry,
  ComputeInput,
  MatrixSet,
  ModuleCreate,
  QuestionInput,
  QuizSubmit,
  Role,
} from './training.schema.js';

const m = ModuleCreate.shape;
const ModuleRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  module_code: m.module_code,
  title: m.title,
  title_en: m.title_en,
  description: m.description,
  regulation_area: m.regulation_area,
  frequency_type: m.frequency_type,
  duration_minutes: m.duration_minutes,
  pass_threshold: m.pass_threshold,
  validity_days: m.validity_days,
  created_at: storedTime,
  updated_at: storedTime,
});

const QuestionRow = storedRow(
  {
    id: z.string(),
    tenant_id: z.string(),
    module_id: z.string(),
    position: z.int().min(0),
    question: z.string(),
    options: z.string(),
    correct_index: z.int(),
    explanation: z.string(),
  },
  (row, ctx) => {
    let options: unknown;
    try {
      options = JSON.parse(row.options);
    } catch {
      options = row.options;
    }
    const r = QuestionInput.safeParse({ ...row, options });
    if (!r.success)
      for (const issue of r.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path as PropertyKey[], message: issue.message });
  },
);

const MatrixRow = storedRow({
  tenant_id: z.string(),
  role_code: Role,
  module_id: z.string(),
  is_mandatory: flag,
  priority: MatrixSet.shape.priority,
  created_at: storedTime,
});

const u = ComputeInput.shape;
const AssignmentRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  module_id: z.string(),
  user_id: u.user_id,
  user_name: u.user_name,
  user_email: emailAddress(),
  role_code: Role.nullable(),
  status: z.enum(Object.keys(STORED_STATUS_STEPS) as [StoredStatus, ...StoredStatus[]]),
  progress_percent: z.int().min(0).max(100),
  deadline: storedTime,
  escalation_level: z.int().min(0).max(4),
  manager_email: emailAddress().nullable(),
  quiz_passed: flag,
  certificate_id: z.string().nullable(),
  started_at: storedTime.nullable(),
  completed_at: storedTime.nullable(),
  valid_until: storedTime.nullable(),
  created_at: storedTime,
  updated_at: storedTime,
});

const AttemptRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  assignment_id: z.string(),
  module_id: z.string(),
  score: z.number().min(0).max(100),
  passed: flag,
  correct_count: z.int().min(0),
  total_count: z.int().min(1),
  threshold: z.int().min(0).max(100),
  answers: jsonText(QuizSubmit.shape.answers),
  duration_seconds: z.int().min(0).nullable(),
  created_at: storedTime,
});

const CertificateRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  assignment_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  module_id: z.string(),
  module_code: z.string(),
  module_title: z.string(),
  score: z.number().min(0).max(100),
  issued_at: storedTime,
  valid_until: storedTime,
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'an HMAC-SHA-256 as 64 hexadecimal digits'),
});

const a = AuditEntry.shape;
const AuditRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  action: a.action,
  entity_type: a.entity_type,
  entity_id: z.string(),
  actor: z.string(),
  details: jsonText(a.details),
  created_at: storedTime,
});

/** Whether an assignment's status leads to `to` in the steps of the workflow (pending → in progress → completed). */
export function statusLeads(from: string, to: string): boolean {
  for (
    let s: string | null = from;
    s !== null;
    s = Object.hasOwn(STORED_STATUS_STEPS, s) ? STORED_STATUS_STEPS[s as StoredStatus] : null
  )
    if (s === to) return true;
  return false;
}

/** Why an assignment's row does not hold what its status says happened (null: it does), in the order of time. */
export function progressProblem(r: SyncRow): string | null {
  if ((r.status === 'pending') !== (r.started_at === null))
    return r.started_at === null
      ? `it is ${String(r.status)} but was never started`
      : 'it is pending but carries started_at';
  const completed = r.status === 'completed';
  const facts = [r.completed_at, r.valid_until].filter((t) => t !== null).length;
  if (completed ? facts < 2 : facts > 0)
    return completed
      ? 'it is completed without completed_at and valid_until'
      : `it is ${String(r.status)} but carries a completion`;
  if (completed && r.progress_percent !== 100) return 'it is completed at less than 100 %';
  if (before(r.started_at, r.created_at))
    return `started_at lies before the assignment was made (${String(r.created_at)})`;
  if (before(r.completed_at, r.started_at)) return `completed_at lies before it was started (${String(r.started_at)})`;
  if (completed && !before(r.completed_at, r.valid_until)) return 'valid_until does not lie after completed_at';
  if (before(r.updated_at, r.created_at)) return 'updated_at lies before created_at';
  return null;
}

/** The facts a change of an assignment keeps: what happened stays as it happened. */
const ONCE_SET = ['started_at', 'completed_at', 'valid_until', 'certificate_id'] as const;

/**
 * Why a change of an assignment breaks a rule of the training area (null: it does not): the status only moves on,
 * the times of what happened stay, the escalation level falls only with a later deadline (levelAfterDeadline, as
 * the API's update computes it), a passed quiz needs a passed attempt and stays passed.
 */
export function assignmentChangeProblem(b: SyncRow | null, r: SyncRow, f: RecordFacts): string | null {
  const from = String(b?.status ?? 'pending');
  if (!statusLeads(from, String(r.status)))
    return `it is ${from}: an assignment moves pending → in_progress → completed, never back`;
  const progress = progressProblem(r);
  if (progress) return progress;
  if (b) {
    const changed = ONCE_SET.find((k) => b[k] !== null && r[k] !== b[k]);
    if (changed) return `${changed} was ${String(b[changed])}: it no longer changes`;
    if (b.quiz_passed === 1 && r.quiz_passed === 0) return 'its quiz is passed and stays passed';
    const level = Number(r.escalation_level);
    if (level < Number(b.escalation_level)) {
      const moved = before(b.deadline, r.deadline);
      const at = new Date(timeOf(r.updated_at));
      if (!moved || level !== levelAfterDeadline(Number(b.escalation_level), String(r.deadline), at))
        return `the escalation level never goes down but with a later deadline (it is ${String(b.escalation_level)}, not ${level})`;
    }
  }
  if (r.quiz_passed === 1 && b?.quiz_passed !== 1) {
    const passed = f.where('training_quiz_attempt', 'assignment_id', r.id).some((x) => x.passed === 1);
    if (!passed) return 'its quiz is marked passed without a passed attempt';
  }
  if (r.certificate_id !== null && f.row('training_certificate', String(r.certificate_id))?.assignment_id !== r.id)
    return `certificate ${String(r.certificate_id)} is not this assignment's`;
  return null;
}

/**
 * Why a quiz attempt is not one the API would have recorded (null: it is): its score follows from its counts, and
 * on the module's current quiz (every answer names one of its questions) from its answers and the module's pass
 * threshold (scoreQuiz). An attempt on questions the module has since replaced is held to its own counts.
 */
export function attemptProblem(r: SyncRow, f: RecordFacts): string | null {
  const assignment = f.row('training_assignment', String(r.assignment_id))!;
  if (assignment.module_id !== r.module_id)
    return `it names module ${String(r.module_id)}, its assignment module ${String(assignment.module_id)}`;
  if (before(r.created_at, assignment.created_at))
    return `it is dated before its assignment was made (${String(assignment.created_at)})`;
  const counts =
    Number(r.correct_count) <= Number(r.total_count)
      ? quizScore(Number(r.correct_count), Number(r.total_count), Number(r.threshold))
      : undefined;
  if (!counts || counts.score !== r.score || counts.passed !== (r.passed === 1))
    return `its score and result do not follow from ${String(r.correct_count)} of ${String(r.total_count)} correct at threshold ${String(r.threshold)}`;
  const questions = f.where('training_question', 'module_id', r.module_id).map((q) => ({
    id: String(q.id),
    options: JSON.parse(String(q.options)) as string[],
    correct_index: Number(q.correct_index),
  }));
  const answers = JSON.parse(String(r.answers)) as Array<{ question_id: string; selected_index: number }>;
  if (!answers.every((x) => questions.some((q) => q.id === x.question_id))) return null;
  const module = f.row('training_module', String(r.module_id))!;
  try {
    const scored = scoreQuiz(questions, answers, Number(module.pass_threshold));
    const same = (['correct_count', 'total_count', 'threshold'] as const).every((k) => scored[k] === r[k]);
    return same
      ? null
      : `it is not what its answers score: ${scored.correct_count} of ${scored.total_count} correct at threshold ${scored.threshold}`;
  } catch (e) {
    return e instanceof DomainError ? e.message : String(e);
  }
}

/** Why a certificate is not one the API would have issued (null: it is). */
export function issuedProblem(r: SyncRow, f: RecordFacts): string | null {
  const assignment = f.row('training_assignment', String(r.assignment_id))!;
  const problem = certificateProblem({
    id: String(assignment.id),
    status: String(assignment.status),
    quiz_passed: assignment.quiz_passed === 1,
  });
  if (problem) return problem;
  const other = (['user_id', 'module_id'] as const).find((k) => r[k] !== assignment[k]);
  if (other) return `its ${other} is not its assignment's`;
  if (before(r.issued_at, assignment.completed_at))
    return `it is dated before its assignment was completed (${String(assignment.completed_at)})`;
  const twin = f.where('training_certificate', 'assignment_id', r.assignment_id).find((c) => c.id !== r.id);
  return twin ? `assignment ${String(r.assignment_id)} already has certificate ${String(twin.id)}` : null;
}

/** The table an audit entry's subject lives in, where it is one no change deletes. */
const SUBJECTS: Record<string, string | undefined> = {
  assignment: 'training_assignment',
  quiz: 'training_quiz_attempt',
  certificate: 'training_certificate',
};

/** A rule's reason about a record: the record named, then the reason. */
const about = (what: string, problem: string | null): string | null => (problem ? `${what}: ${problem}` : null);

export const TRAINING_ROW_RULES: Record<string, RowRule> = {
  training_module: {
    schema: ModuleRow,
    fixed: ['created_at'],
    times: ['created_at', 'updated_at'],
    deletion: ({ id }, f) => moduleDeletionProblem(id, f.where('training_assignment', 'module_id', id).length),
    needs: (c) => ({
      where: c.after
        ? [['training_module', 'module_code', c.after.module_code]]
        : [['training_assignment', 'module_id', c.id]],
    }),
    check: ({ id, after: r }, f) => {
      if (before(r.updated_at, r.created_at)) return `training module ${id}: updated_at lies before created_at`;
      const taken = f.where('training_module', 'module_code', r.module_code).find((x) => x.id !== id);
      return taken ? `module_code ${String(r.module_code)} is already used by module ${String(taken.id)}` : null;
    },
  },
  training_question: {
    schema: QuestionRow,
    fixed: ['module_id'],
    refs: [{ column: 'module_id', entity: 'training_module' }],
    deletion: () => null,
  },
  training_matrix: {
    schema: MatrixRow,
    times: ['created_at'],
    refs: [{ column: 'module_id', entity: 'training_module' }],
    deletion: () => null,
  },
  training_assignment: {
    schema: AssignmentRow,
    fixed: ['module_id', 'user_id', 'role_code', 'created_at'],
    times: ['created_at', 'updated_at', 'started_at', 'completed_at'],
    refs: [
      { column: 'module_id', entity: 'training_module' },
      { column: 'certificate_id', entity: 'training_certificate' },
    ],
    needs: (c) => ({ where: c.after!.quiz_passed === 1 ? [['training_quiz_attempt', 'assignment_id', c.id]] : [] }),
    check: ({ id, before: b, after: r }, f) => about(`assignment ${id}`, assignmentChangeProblem(b, r, f)),
  },
  training_quiz_attempt: {
    schema: AttemptRow,
    appendOnly: true,
    times: ['created_at'],
    refs: [
      { column: 'assignment_id', entity: 'training_assignment' },
      { column: 'module_id', entity: 'training_module' },
    ],
    needs: (c) => ({ where: [['training_question', 'module_id', c.after!.module_id]] }),
    check: ({ id, after: r }, f) => about(`quiz attempt ${id}`, attemptProblem(r, f)),
  },
  training_certificate: {
    schema: CertificateRow,
    appendOnly: true,
    times: ['issued_at'],
    refs: [
      { column: 'assignment_id', entity: 'training_assignment' },
      { column: 'module_id', entity: 'training_module' },
    ],
    needs: (c) => ({ where: [['training_certificate', 'assignment_id', c.after!.assignment_id]] }),
    check: ({ id, after: r }, f) => about(`certificate ${id}`, issuedProblem(r, f)),
  },
  training_audit: {
    schema: AuditRow,
    appendOnly: true,
    times: ['created_at'],
    needs: (c) => {
      const table = Object.hasOwn(SUBJECTS, String(c.after!.entity_type))
        ? SUBJECTS[String(c.after!.entity_type)]
        : undefined;
      return { rows: table ? [[table, String(c.after!.entity_id)]] : [] };
    },
    check: ({ id, after: r }, f) => {
      const table = Object.hasOwn(SUBJECTS, String(r.entity_type)) ? SUBJECTS[String(r.entity_type)] : undefined;
      if (!table) return null;
      const subject = f.row(table, String(r.entity_id));
      if (!subject)
        return `training_audit ${id} names ${String(r.entity_type)} ${String(r.entity_id)}, which this tenant does not hold`;
      const since = subject.created_at ?? subject.issued_at;
      return before(r.created_at, since)
        ? `training_audit ${id} is dated ${String(r.created_at)}, before its ${String(r.entity_type)} was made (${String(since)})`
        : null;
    },
  },
};
