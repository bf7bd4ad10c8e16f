import type { AuditEntry, Certificate, MatrixEntry, Module, Question } from './training.schema.js';

/** A module as stored, without its derived question count. */
export type ModuleRecord = Omit<Module, 'question_count'>;

/** A question as stored, with its position in the module. */
export type QuestionRecord = Question & { module_id: string; position: number };

/** An assignment as stored: `status` is the stored one (pending, in_progress, completed), not the derived one. */
export interface AssignmentRecord {
  id: string;
  tenant_id: string;
  module_id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  /** The team lead (migration 0022); null when the staff list named none. */
  manager_email?: string | null;
  role_code: string | null;
  status: string;
  progress_percent: number;
  deadline: string;
  escalation_level: number;
  quiz_passed: boolean;
  certificate_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  valid_until: string | null;
  created_at: string;
  updated_at: string;
}

/** An assignment with the code and title of its module. */
export type AssignmentView = AssignmentRecord & { module_code: string; module_title: string };

/** An audit entry before it is written. */
export type AuditRecord = Omit<AuditEntry, 'details'> & { details: Record<string, unknown> };

/** A row of the role matrix as the stores write it. */
export interface MatrixEntryRecord {
  tenant_id: string;
  role_code: string;
  module_id: string;
  is_mandatory: boolean;
  priority: number;
  created_at: string;
}

/** Which assignments a list asks for; `status` is a derived one, compared `at` a moment. */
export interface AssignmentFilter {
  user_id?: string;
  module_id?: string;
  role?: string;
  status?: string;
  at: string;
  limit: number;
  offset: number;
}

export interface QuizAttemptRecord {
  id: string;
  tenant_id: string;
  assignment_id: string;
  module_id: string;
  score: number;
  passed: boolean;
  correct_count: number;
  total_count: number;
  threshold: number;
  answers: unknown;
  duration_seconds: number | null;
  created_at: string;
}

export type CertificateRecord = Omit<Certificate, 'verification_code'>;

/** Counts behind the training statistics, compared `at` a moment; `soon` is the end of the upcoming window. */
export interface TrainingCounts {
  modules: number;
  total: number;
  overdue: number;
  pending: number;
  in_progress: number;
  completed: number;
  upcoming: number;
  avg_completion_days: number;
  avg_quiz_score: number;
}

/**
 * Persistence of the training core (modules, matrix, assignments, quizzes, escalation, certificates, audit). Writes
 * run inside a unit of work (see ../unit-of-work.ts), which gives them their transaction and their journal entries.
 */
export interface TrainingStore {
  listModules(
    tenant: string,
    q: { regulation_area?: string; frequency_type?: string; search?: string },
  ): Promise<Array<ModuleRecord & { question_count: number }>>;
  getModule(tenant: string, id: string): Promise<ModuleRecord | undefined>;
  /** The id of the module using `code`, other than `exceptId`. */
  moduleIdByCode(tenant: string, code: string, exceptId?: string): Promise<string | undefined>;
  insertModule(m: ModuleRecord): Promise<void>;
  updateModule(tenant: string, id: string, fields: Partial<ModuleRecord>): Promise<void>;
  /** Deletes a module with its questions, content versions, matrix entries, media records and control links. */
  deleteModule(tenant: string, id: string): Promise<void>;
  questions(tenant: string, moduleId: string): Promise<Question[]>;
  replaceQuestions(tenant: string, moduleId: string, questions: QuestionRecord[]): Promise<void>;
  publishedContent(
    tenant: string,
    moduleId: string,
  ): Promise<{ id: string; version: number; language: string; markdown: string; published_at: string | null } | null>;
  countAssignmentsOfModule(tenant: string, moduleId: string): Promise<number>;

  matrix(tenant: string, role?: string): Promise<MatrixEntry[]>;
  /** The matrix ordered by priority, then role. */
  matrixRows(tenant: string): Promise<Array<{ module_id: string; role_code: string; priority: number }>>;
  upsertMatrix(e: MatrixEntryRecord): Promise<void>;
  /** Deletes one matrix entry; how many were deleted. */
  deleteMatrix(tenant: string, role: string, moduleId: string): Promise<number>;

  userAssignments(
    tenant: string,
    userId: string,
  ): Promise<Array<{ module_id: string; status: string; valid_until: string | null }>>;
  /**
   * Writes new assignments and the audit entries of those written; an assignment whose user already has an open
   * one for the module (written meanwhile by another process) is skipped. The ids written. The records are given
   * away: the store may convert them in place.
   */
  insertAssignments(rows: AssignmentRecord[], audits: Map<string, AuditRecord>): Promise<string[]>;
  getAssignment(tenant: string, id: string): Promise<AssignmentView | undefined>;
  assignmentsByIds(ids: string[]): Promise<AssignmentView[]>;
  listAssignments(tenant: string, f: AssignmentFilter): Promise<AssignmentView[]>;
  /** Open assignments (pending or in progress) whose deadline is before (`overdue`) or not before `at`. */
  openAssignments(tenant: string, at: string, which: 'overdue' | 'upcoming', limit?: number): Promise<AssignmentView[]>;
  /** What escalation needs of the open assignments whose deadline is before `at`. */
  escalationCandidates(
    tenant: string,
    at: string,
  ): Promise<
    Array<{
      id: string;
      user_name: string;
      user_email: string;
      manager_email?: string | null;
      deadline: string;
      escalation_level: number;
      module_title: string;
      module_title_en?: string | null;
    }>
  >;
  /**
   * Updates an assignment if its stored status is one of `fromStatus` (any when omitted); whether it did. This is
   * the guard that makes two concurrent completions complete once.
   */
  updateAssignment(tenant: string, id: string, set: Partial<AssignmentRecord>, fromStatus?: string[]): Promise<boolean>;
  /** Raises the escalation level of those of `ids` still below `level`; the ids raised. */
  raiseEscalation(tenant: string, ids: string[], level: number, at: string): Promise<string[]>;

  insertAttempt(a: QuizAttemptRecord): Promise<void>;
  attempts(tenant: string, assignmentId: string): Promise<QuizAttemptRecord[]>;
  bestPassedScore(tenant: string, assignmentId: string): Promise<number>;

  certificateOfAssignment(tenant: string, assignmentId: string): Promise<CertificateRecord | undefined>;
  /** Writes a certificate unless the assignment has one already; whether it wrote it. */
  insertCertificate(c: CertificateRecord): Promise<boolean>;
  certificates(tenant: string): Promise<CertificateRecord[]>;
  certificate(tenant: string, id: string): Promise<CertificateRecord | undefined>;
  /** The certificate whose verification code (the first 16 hex digits of its signature) is `code`. */
  certificateByCode(tenant: string, code: string): Promise<CertificateRecord | undefined>;
  /** The certificate signing key (hex), stored by the first caller: `generate` makes one if none is stored. */
  signingKey(generate: () => string): Promise<string>;

  /** Writes audit entries; they are given away (the store may convert them in place). */
  appendAudit(entries: AuditRecord[]): Promise<void>;
  auditLog(
    tenant: string,
    q: { action?: string; entity_type?: string; limit: number; offset: number },
  ): Promise<AuditEntry[]>;
  counts(tenant: string, at: string, soon: string): Promise<TrainingCounts>;
}
