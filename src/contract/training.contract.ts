import { z } from 'zod';
import { IdParams } from '../domain/dsfa/dsfa.schema.js';
import {
  AsOf, Assignment, AssignmentIdParams, AssignmentQuery, AssignmentUpdate, AuditEntry, AuditQuery, Certificate,
  CertificateGenerated, ComputeInput, ComputeResult, DeadlineQuery, EscalationInput, EscalationResult, LearnerQuiz,
  MatrixDeleteParams, MatrixEntry, MatrixSet, Module, ModuleCreate, ModuleDetail, ModuleIdParams, ModuleQuery,
  ModuleUpdate, OverdueItem, Progress, QuizAttempt, QuizResult, QuizSubmit, RoleParams, TrainingStats, Verification,
} from '../domain/training/training.schema.js';
import type { BinaryPayload } from './operation.js';
import { op } from './operation.js';

const Deleted = z.object({ success: z.boolean(), message: z.string() });
const Empty = z.object({});
const Binary = z.custom<BinaryPayload>();
const H = 'header' as const;

/** Training core (spec 4.5 without content, media, blocks and canonical controls). */
export const trainingContract = {
  listModules: op({ method: 'GET', path: '/training/modules', summary: 'List modules (search over title and description)', tenant: H, query: ModuleQuery, output: z.array(Module), status: 200 }),
  createModule: op({ method: 'POST', path: '/training/modules', summary: 'Create a module (optionally with quiz questions)', tenant: H, body: ModuleCreate, output: ModuleDetail, status: 201 }),
  getModule: op({ method: 'GET', path: '/training/modules/{id}', summary: 'A module with its content and quiz questions', tenant: H, params: IdParams, output: ModuleDetail, status: 200 }),
  updateModule: op({ method: 'PUT', path: '/training/modules/{id}', summary: 'Update a module', tenant: H, params: IdParams, body: ModuleUpdate, output: ModuleDetail, status: 200 }),
  deleteModule: op({ method: 'DELETE', path: '/training/modules/{id}', summary: 'Delete a module without assignments', tenant: H, params: IdParams, output: Deleted, status: 200 }),
  matrix: op({ method: 'GET', path: '/training/matrix', summary: 'The whole role matrix', tenant: H, output: z.array(MatrixEntry), status: 200 }),
  matrixByRole: op({ method: 'GET', path: '/training/matrix/{role}', summary: 'Modules of one role', tenant: H, params: RoleParams, output: z.array(MatrixEntry), status: 200 }),
  setMatrix: op({ method: 'POST', path: '/training/matrix', summary: 'Set a matrix entry (updates an existing pair)', tenant: H, body: MatrixSet, output: MatrixEntry, status: 201 }),
  unsetMatrix: op({ method: 'DELETE', path: '/training/matrix/{role}/{moduleId}', summary: 'Remove a matrix entry', tenant: H, params: MatrixDeleteParams, output: Deleted, status: 200 }),
  compute: op({ method: 'POST', path: '/training/assignments/compute', summary: "Create the assignments a user's roles call for (idempotent)", tenant: H, body: ComputeInput, output: ComputeResult, status: 200 }),
  computeMany: op({ method: 'POST', path: '/training/assignments/compute-bulk', summary: 'Compute for a staff list in one transaction (our addition)', tenant: H, body: z.object({ users: z.array(ComputeInput).min(1).max(100_000) }), output: z.object({ users: z.int(), created: z.int() }), status: 200 }),
  listAssignments: op({ method: 'GET', path: '/training/assignments', summary: 'List assignments', tenant: H, query: AssignmentQuery, output: z.array(Assignment), status: 200 }),
  getAssignment: op({ method: 'GET', path: '/training/assignments/{id}', summary: 'One assignment', tenant: H, params: IdParams, output: Assignment, status: 200 }),
  updateAssignment: op({ method: 'PUT', path: '/training/assignments/{id}', summary: 'Change deadline, name or e-mail', tenant: H, params: IdParams, body: AssignmentUpdate, output: Assignment, status: 200 }),
  start: op({ method: 'POST', path: '/training/assignments/{id}/start', summary: 'Start a pending assignment', tenant: H, params: IdParams, body: Empty, output: Assignment, status: 200 }),
  progress: op({ method: 'POST', path: '/training/assignments/{id}/progress', summary: 'Record progress 0 to 100', tenant: H, params: IdParams, body: Progress, output: Assignment, status: 200 }),
  complete: op({ method: 'POST', path: '/training/assignments/{id}/complete', summary: 'Complete an assignment in progress', tenant: H, params: IdParams, body: Empty, output: Assignment, status: 200 }),
  attempts: op({ method: 'GET', path: '/training/quiz/attempts/{assignmentId}', summary: 'Quiz attempts of an assignment', tenant: H, params: AssignmentIdParams, output: z.array(QuizAttempt), status: 200 }),
  quiz: op({ method: 'GET', path: '/training/quiz/{moduleId}', summary: 'Quiz questions (without answers)', tenant: H, params: ModuleIdParams, output: LearnerQuiz, status: 200 }),
  submitQuiz: op({ method: 'POST', path: '/training/quiz/{moduleId}/submit', summary: 'Submit answers', tenant: H, params: ModuleIdParams, body: QuizSubmit, output: QuizResult, status: 201 }),
  deadlines: op({ method: 'GET', path: '/training/deadlines', summary: 'Upcoming deadlines, soonest first', tenant: H, query: DeadlineQuery, output: z.array(Assignment), status: 200 }),
  overdue: op({ method: 'GET', path: '/training/deadlines/overdue', summary: 'Overdue assignments (as_of: our addition)', tenant: H, query: AsOf, output: z.array(OverdueItem), status: 200 }),
  escalate: op({ method: 'POST', path: '/training/escalation/check', summary: 'Raise escalation levels (as_of and dry_run: our additions)', tenant: H, body: EscalationInput, output: EscalationResult, status: 200 }),
  generateCertificate: op({ method: 'POST', path: '/training/certificates/generate/{assignmentId}', summary: 'Issue the certificate of a completed, passed assignment', tenant: H, params: AssignmentIdParams, body: Empty, output: CertificateGenerated, status: 201 }),
  certificates: op({ method: 'GET', path: '/training/certificates', summary: 'All certificates of the tenant', tenant: H, output: z.array(Certificate), status: 200 }),
  certificatePdf: op({ method: 'GET', path: '/training/certificates/{id}/pdf', summary: 'The certificate as a PDF', tenant: H, params: IdParams, output: Binary, responseKind: 'binary', status: 200 }),
  verify: op({ method: 'GET', path: '/training/certificates/{id}/verify', summary: 'Check the signature of a certificate', tenant: H, params: IdParams, output: Verification, status: 200 }),
  auditLog: op({ method: 'GET', path: '/training/audit-log', summary: 'Training audit log', tenant: H, query: AuditQuery, output: z.array(AuditEntry), status: 200 }),
  stats: op({ method: 'GET', path: '/training/stats', summary: 'Training statistics', tenant: H, output: TrainingStats, status: 200 }),
};
