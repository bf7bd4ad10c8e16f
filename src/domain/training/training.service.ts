import type { Stores } from '../unit-of-work.js';
import { planEscalationMail, type EscalatedAssignment } from '../notifications/escalation-mail.js';
import { DEFAULT_SETTINGS, levelTemplates } from '../notifications/notification.service.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isoZ, type Clock, type IdSource } from '../clock.js';
import { conflict, DomainError, notFound } from '../errors.js';
import {
  addDays,
  certificatePayload,
  certificateProblem,
  daysOverdue,
  derivedStatus,
  escalationStep,
  levelAfterDeadline,
  moduleDeletionProblem,
  scoreQuiz,
  VERIFICATION_CODE,
  verificationCode,
} from './training.rules.js';
import type {
  Assignment,
  AssignmentQuery,
  AuditEntry,
  Certificate,
  ComputeInput,
  EscalationItem,
  MatrixEntry,
  Module,
  ModuleCreate,
  ModuleDetail,
  ModuleUpdate,
  PublicVerification,
  QuestionInput,
  TrainingStats,
} from './training.schema.js';
import type {
  AssignmentRecord,
  AssignmentView,
  AuditRecord,
  CertificateRecord,
  TrainingStore,
} from './training-store.port.js';
import type { UnitOfWork } from '../unit-of-work.js';

type Actor = string | undefined;

/** "Erika Mustermann" → "E. M.": enough to match a certificate to its holder, not enough to learn the name. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${[...part][0]!.toUpperCase()}.`)
    .join(' ');

/** A new secret for signing certificates (hex); injected, like the clock, so the rules stay free of randomness. */
export type KeySource = () => string;

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The training core: modules, matrix, assignments, quizzes, escalation, certificates, audit and statistics. The
 * single rules (derived status, escalation levels, scoring, the signature's payload) are in training.rules.ts. Every
 * change is one unit of work: the rows, their audit entries and their journal entries commit together.
 */
export class TrainingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly newKey: KeySource,
  ) {}

  private now = () => this.clock.now();

  /** The store for reads outside a unit of work. */
  private get store(): TrainingStore {
    return this.uow.read.training;
  }

  /** Runs `fn` as one unit of work of `tenant` with the training store inside it. */
  private write<T>(tenant: string, fn: (store: TrainingStore) => Promise<T>): Promise<T> {
    return this.uow.write(tenant, ({ training }) => fn(training));
  }

  private auditRecord(
    tenant: string,
    actor: Actor,
    action: AuditEntry['action'],
    entity_type: AuditEntry['entity_type'],
    entity_id: string,
    details: Record<string, unknown> = {},
    at: string = isoZ(this.now()),
  ): AuditRecord {
    return {
      id: this.ids.next(),
      tenant_id: tenant,
      action,
      entity_type,
      entity_id,
      actor: actor ?? 'system',
      details,
      created_at: at,
    };
  }

  // ---------------------------------------------------------------- modules
  async listModules(
    tenant: string,
    q: { regulation_area?: string; frequency_type?: string; search?: string },
  ): Promise<Module[]> {
    return (await this.store.listModules(tenant, q)) as Module[];
  }

  private async mustModule(store: TrainingStore, tenant: string, id: string) {
    const m = await store.getModule(tenant, id);
    if (!m) throw notFound('training module', id);
    return m;
  }

  async getModule(tenant: string, id: string): Promise<ModuleDetail> {
    const m = await this.mustModule(this.store, tenant, id);
    const questions = await this.store.questions(tenant, id);
    const content = await this.store.publishedContent(tenant, id);
    return { ...m, question_count: questions.length, content, questions } as ModuleDetail;
  }

  private replaceQuestions(store: TrainingStore, tenant: string, moduleId: string, qs: QuestionInput[]) {
    return store.replaceQuestions(
      tenant,
      moduleId,
      qs.map((q, position) => ({ ...q, id: this.ids.next(), module_id: moduleId, position })),
    );
  }

  private async codeFree(store: TrainingStore, tenant: string, code: string, exceptId?: string) {
    const taken = await store.moduleIdByCode(tenant, code, exceptId);
    if (taken)
      throw conflict(`module_code ${code} is already used by module ${taken}`, [
        { path: 'module_code', message: 'already used' },
      ]);
  }

  createModule(tenant: string, actor: Actor, input: ModuleCreate): Promise<ModuleDetail> {
    return this.write(tenant, async (store) => {
      await this.codeFree(store, tenant, input.module_code);
      const now = isoZ(this.now());
      const { questions, title_en, ...fields } = input;
      const id = this.ids.next();
      await store.insertModule({
        id,
        tenant_id: tenant,
        ...fields,
        title_en: title_en || null,
        created_at: now,
        updated_at: now,
      });
      if (questions) await this.replaceQuestions(store, tenant, id, questions);
      void actor;
      return id;
    }).then((id) => this.getModule(tenant, id));
  }

  updateModule(tenant: string, id: string, patch: ModuleUpdate): Promise<ModuleDetail> {
    return this.write(tenant, async (store) => {
      await this.mustModule(store, tenant, id);
      const { questions, title_en, ...fields } = patch;
      if (fields.module_code) await this.codeFree(store, tenant, fields.module_code, id);
      const titleEn = title_en === undefined ? {} : { title_en: title_en || null };
      await store.updateModule(tenant, id, { ...fields, ...titleEn, updated_at: isoZ(this.now()) });
      if (questions) await this.replaceQuestions(store, tenant, id, questions);
    }).then(() => this.getModule(tenant, id));
  }

  deleteModule(tenant: string, id: string): Promise<{ success: boolean; message: string }> {
    return this.write(tenant, async (store) => {
      await this.mustModule(store, tenant, id);
      const n = await store.countAssignmentsOfModule(tenant, id);
      const problem = moduleDeletionProblem(id, n);
      if (problem) throw conflict(problem);
      await store.deleteModule(tenant, id);
      return { success: true, message: `module ${id} deleted` };
    });
  }

  // ---------------------------------------------------------------- matrix
  async matrix(tenant: string, role?: string): Promise<MatrixEntry[]> {
    const order = (r: string) => Number(r.slice(1));
    return (await this.store.matrix(tenant, role)).sort(
      (a, b) =>
        order(a.role_code) - order(b.role_code) ||
        a.priority - b.priority ||
        a.module_code.localeCompare(b.module_code),
    );
  }

  async setMatrix(
    tenant: string,
    e: { role_code: string; module_id: string; is_mandatory: boolean; priority: number },
  ): Promise<MatrixEntry> {
    await this.write(tenant, async (store) => {
      await this.mustModule(store, tenant, e.module_id);
      await store.upsertMatrix({ tenant_id: tenant, ...e, created_at: isoZ(this.now()) });
    });
    return (await this.matrix(tenant, e.role_code)).find((x) => x.module_id === e.module_id)!;
  }

  async unsetMatrix(tenant: string, role: string, moduleId: string): Promise<{ success: boolean; message: string }> {
    await this.write(tenant, async (store) => {
      if ((await store.deleteMatrix(tenant, role, moduleId)) === 0)
        throw notFound('matrix entry', `${role}/${moduleId}`);
    });
    return { success: true, message: `${role} no longer assigned module ${moduleId}` };
  }

  // ---------------------------------------------------------------- assignments
  private toAssignment(r: AssignmentView, now: Date): Assignment {
    return Object.assign(r, { status: derivedStatus(r, now) }) as Assignment;
  }

  async getAssignment(tenant: string, id: string, store: TrainingStore = this.store): Promise<Assignment> {
    const r = await store.getAssignment(tenant, id);
    if (!r) throw notFound('assignment', id);
    return this.toAssignment(r, this.now());
  }

  /** Creates the assignments a user's roles call for, unless an open one, or a completed one still valid, exists. */
  compute(tenant: string, actor: Actor, input: ComputeInput): Promise<{ assignments: Assignment[]; created: number }> {
    return this.write(tenant, async (store) => {
      const now = this.now();
      const ids = await this.computeIn(store, tenant, actor, input, await store.matrixRows(tenant), now);
      const created = await store.assignmentsByIds(ids);
      return { assignments: created.map((r) => this.toAssignment(r, now)), created: ids.length };
    });
  }

  /** Many users in one transaction (a staff list); answers counts only, not the created rows. */
  computeMany(tenant: string, actor: Actor, users: ComputeInput[]): Promise<{ users: number; created: number }> {
    return this.write(tenant, async (store) => {
      // the matrix once per staff list, not once per user
      const matrix = await store.matrixRows(tenant);
      const now = this.now();
      let created = 0;
      for (const u of users) created += (await this.computeIn(store, tenant, actor, u, matrix, now)).length;
      return { users: users.length, created };
    });
  }

  /** Writes one user's new assignments and their audit entries; returns the new ids. */
  private async computeIn(
    store: TrainingStore,
    tenant: string,
    actor: Actor,
    input: ComputeInput,
    matrix: Array<{ module_id: string; role_code: string }>,
    now: Date,
  ): Promise<string[]> {
    const nowIso = isoZ(now);
    const roles = new Set<string>(input.roles);
    const wanted = matrix.filter((m) => roles.has(m.role_code));
    if (!wanted.length) return [];
    const existing = await store.userAssignments(tenant, input.user_id);
    const covered = new Set(
      existing
        .filter((e) => e.status !== 'completed' || (e.valid_until && Date.parse(e.valid_until) >= now.getTime()))
        .map((e) => e.module_id),
    );
    const rows: AssignmentRecord[] = [];
    const audits = new Map<string, AuditRecord>();
    for (const w of wanted) {
      if (covered.has(w.module_id)) continue;
      covered.add(w.module_id);
      const id = this.ids.next();
      rows.push({
        id,
        tenant_id: tenant,
        module_id: w.module_id,
        user_id: input.user_id,
        user_name: input.user_name,
        user_email: input.user_email,
        manager_email: input.manager_email ?? null,
        role_code: w.role_code,
        status: 'pending',
        progress_percent: 0,
        deadline: addDays(now, input.deadline_days),
        escalation_level: 0,
        quiz_passed: false,
        certificate_id: null,
        started_at: null,
        completed_at: null,
        valid_until: null,
        created_at: nowIso,
        updated_at: nowIso,
      });
      const details = {
        user_id: input.user_id,
        module_id: w.module_id,
        role: w.role_code,
        trigger: input.trigger ?? 'manual',
      };
      audits.set(id, this.auditRecord(tenant, actor, 'assigned', 'assignment', id, details, nowIso));
    }
    return rows.length ? store.insertAssignments(rows, audits) : [];
  }

  async listAssignments(tenant: string, q: AssignmentQuery & { as_of?: string }): Promise<Assignment[]> {
    const now = q.as_of ? new Date(q.as_of) : this.now();
    const rows = await this.store.listAssignments(tenant, { ...q, at: isoZ(now) });
    return rows.map((r) => this.toAssignment(r, now));
  }

  updateAssignment(
    tenant: string,
    id: string,
    patch: { deadline?: string; user_name?: string; user_email?: string },
  ): Promise<Assignment> {
    return this.write(tenant, async (store) => {
      const a = await this.getAssignment(tenant, id, store);
      const now = this.now();
      const set: Partial<AssignmentRecord> = { updated_at: isoZ(now) };
      if (patch.deadline) {
        set.deadline = new Date(patch.deadline).toISOString();
        // a later deadline is a new situation: the level falls to what the new deadline reaches today
        const level = levelAfterDeadline(a.escalation_level, set.deadline, now);
        if (level < a.escalation_level) set.escalation_level = level;
      }
      if (patch.user_name) set.user_name = patch.user_name;
      if (patch.user_email) set.user_email = patch.user_email;
      await store.updateAssignment(tenant, id, set);
      return this.getAssignment(tenant, id, store);
    });
  }

  /**
   * Moves an assignment on from one of `from` (stored statuses) to `set`, once: the store's update is conditional on
   * the stored status, so of two concurrent calls one moves it and the other gets the conflict.
   */
  private async transition(
    store: TrainingStore,
    tenant: string,
    id: string,
    from: string[],
    set: Partial<AssignmentRecord>,
    refusal: (a: Assignment) => string,
  ): Promise<Assignment> {
    const a = await this.getAssignment(tenant, id, store);
    if (!from.includes(this.stored(a)) || !(await store.updateAssignment(tenant, id, set, from)))
      throw conflict(refusal(a));
    return a;
  }

  private stored(a: Assignment): string {
    if (a.status === 'overdue') return a.started_at ? 'in_progress' : 'pending';
    return a.status === 'expired' ? 'completed' : a.status;
  }

  start(tenant: string, actor: Actor, id: string): Promise<Assignment> {
    return this.write(tenant, async (store) => {
      const now = isoZ(this.now());
      await this.transition(
        store,
        tenant,
        id,
        ['pending'],
        { status: 'in_progress', started_at: now, updated_at: now },
        (a) => `assignment ${id} is ${a.status}; only a pending assignment can be started`,
      );
      await store.appendAudit([this.auditRecord(tenant, actor, 'started', 'assignment', id)]);
      return this.getAssignment(tenant, id, store);
    });
  }

  progress(tenant: string, actor: Actor, id: string, progress: number): Promise<Assignment> {
    return this.write(tenant, async (store) => {
      const a = await this.getAssignment(tenant, id, store);
      const refusal = () => conflict(`assignment ${id} is ${a.status}; progress can no longer change`);
      if (this.stored(a) === 'completed') throw refusal();
      const now = isoZ(this.now());
      const set: Partial<AssignmentRecord> = { progress_percent: progress, updated_at: now };
      // the first progress starts the assignment, once: a concurrent call that started it leaves it in progress
      const started = await store.updateAssignment(tenant, id, { ...set, status: 'in_progress', started_at: now }, [
        'pending',
      ]);
      if (started)
        await store.appendAudit([this.auditRecord(tenant, actor, 'started', 'assignment', id, { by: 'progress' })]);
      else if (!(await store.updateAssignment(tenant, id, set, ['in_progress']))) throw refusal();
      return this.getAssignment(tenant, id, store);
    });
  }

  complete(tenant: string, actor: Actor, id: string): Promise<Assignment> {
    return this.write(tenant, async (store) => {
      const found = await this.getAssignment(tenant, id, store);
      const m = await this.mustModule(store, tenant, found.module_id);
      const now = this.now();
      await this.transition(
        store,
        tenant,
        id,
        ['in_progress'],
        {
          status: 'completed',
          progress_percent: 100,
          completed_at: isoZ(now),
          valid_until: addDays(now, m.validity_days),
          updated_at: isoZ(now),
        },
        (a) => `assignment ${id} is ${a.status}; only an assignment in progress can be completed (start it first)`,
      );
      await store.appendAudit([this.auditRecord(tenant, actor, 'completed', 'assignment', id)]);
      return this.getAssignment(tenant, id, store);
    });
  }

  // ---------------------------------------------------------------- quiz
  async learnerQuiz(tenant: string, moduleId: string) {
    const m = await this.mustModule(this.store, tenant, moduleId);
    const qs = await this.store.questions(tenant, moduleId);
    return {
      module_id: moduleId,
      pass_threshold: m.pass_threshold,
      questions: qs.map(({ correct_index: _c, explanation: _e, ...q }) => q),
    };
  }

  submitQuiz(
    tenant: string,
    actor: Actor,
    moduleId: string,
    body: {
      assignment_id: string;
      answers: Array<{ question_id: string; selected_index: number }>;
      duration_seconds?: number;
    },
  ) {
    return this.write(tenant, async (store) => {
      const m = await this.mustModule(store, tenant, moduleId);
      const a = await this.getAssignment(tenant, body.assignment_id, store);
      if (a.module_id !== moduleId)
        throw new DomainError('validation', `assignment ${a.id} is for module ${a.module_id}, not ${moduleId}`, [
          { path: 'assignment_id', message: 'belongs to another module' },
        ]);
      const result = scoreQuiz(await store.questions(tenant, moduleId), body.answers, m.pass_threshold);
      const attempt_id = this.ids.next();
      const at = isoZ(this.now());
      await store.insertAttempt({
        id: attempt_id,
        tenant_id: tenant,
        assignment_id: a.id,
        module_id: moduleId,
        score: result.score,
        passed: result.passed,
        correct_count: result.correct_count,
        total_count: result.total_count,
        threshold: result.threshold,
        answers: body.answers,
        duration_seconds: body.duration_seconds ?? null,
        created_at: at,
      });
      if (result.passed) await store.updateAssignment(tenant, a.id, { quiz_passed: true, updated_at: at });
      await store.appendAudit([
        this.auditRecord(tenant, actor, 'quiz_submitted', 'quiz', attempt_id, {
          assignment_id: a.id,
          score: result.score,
          passed: result.passed,
        }),
      ]);
      return { attempt_id, ...result };
    });
  }

  async attempts(tenant: string, assignmentId: string) {
    await this.getAssignment(tenant, assignmentId);
    const rows = await this.store.attempts(tenant, assignmentId);
    return rows.map((r) => ({
      attempt_id: r.id,
      assignment_id: r.assignment_id,
      module_id: r.module_id,
      score: r.score,
      passed: r.passed,
      correct_count: r.correct_count,
      total_count: r.total_count,
      threshold: r.threshold,
      duration_seconds: r.duration_seconds,
      created_at: r.created_at,
    }));
  }

  // ---------------------------------------------------------------- deadlines and escalation
  async upcoming(tenant: string, limit: number, asOf?: string): Promise<Assignment[]> {
    const now = asOf ? new Date(asOf) : this.now();
    const rows = await this.store.openAssignments(tenant, isoZ(now), 'upcoming', limit);
    return rows.map((r) => this.toAssignment(r, now));
  }

  async overdue(tenant: string, asOf?: string): Promise<Array<Assignment & { days_overdue: number }>> {
    const now = asOf ? new Date(asOf) : this.now();
    const rows = await this.store.openAssignments(tenant, isoZ(now), 'overdue');
    // every row is overdue by the query itself; rows are converted in place because the CI gate reads tens of thousands
    return rows.map((r) =>
      Object.assign(r, { status: 'overdue' as const, days_overdue: daysOverdue(r.deadline, now) }),
    );
  }

  /**
   * Raises escalation levels of overdue assignments (never lowers them); one audit entry per escalation. The raise
   * is conditional on the level still being lower, so concurrent runs escalate each assignment once per level.
   */
  escalate(tenant: string, actor: Actor, opts: { as_of?: string; dry_run: boolean }) {
    const run = async ({ training: store, notifications }: Stores) => {
      const now = opts.as_of ? new Date(opts.as_of) : this.now();
      const rows = await store.escalationCandidates(tenant, isoZ(now));
      let results: EscalationItem[] = [];
      for (const r of rows) {
        const days = daysOverdue(r.deadline, now);
        const step = escalationStep(r.escalation_level, days);
        if (step)
          results.push({
            assignment_id: r.id,
            user_name: r.user_name,
            module_title: r.module_title,
            previous_level: r.escalation_level,
            new_level: step.level,
            days_overdue: days,
            escalation_label: step.label,
          });
      }
      if (!opts.dry_run && results.length) {
        const at = isoZ(this.now());
        const raised = new Set<string>();
        for (let level = 1; level <= 4; level++) {
          const ids = results.filter((r) => r.new_level === level).map((r) => r.assignment_id);
          if (ids.length) for (const id of await store.raiseEscalation(tenant, ids, level, at)) raised.add(id);
        }
        results = results.filter((r) => raised.has(r.assignment_id));
        await store.appendAudit(
          results.map((r) =>
            this.auditRecord(
              tenant,
              actor,
              'escalated',
              'assignment',
              r.assignment_id,
              {
                previous_level: r.previous_level,
                new_level: r.new_level,
                days_overdue: r.days_overdue,
                label: r.escalation_label,
              },
              at,
            ),
          ),
        );
      }
      // the e-mail of this run, queued in its transaction: a run that rolls back queues nothing
      const byId = new Map(rows.map((r) => [r.id, r]));
      const escalated: EscalatedAssignment[] = results.map((r) => {
        const row = byId.get(r.assignment_id)!;
        return {
          ...r,
          user_email: row.user_email,
          manager_email: row.manager_email ?? null,
          module_title_en: row.module_title_en ?? null,
          deadline: row.deadline,
        };
      });
      const settings = (await notifications.settings(tenant)) ?? DEFAULT_SETTINGS;
      const templates = await levelTemplates(notifications, tenant, settings.language);
      const sent = await notifications.sentKeys(
        tenant,
        results.map((r) => r.assignment_id),
      );
      const plan = planEscalationMail(escalated, settings, templates, tenant, sent);
      if (!opts.dry_run && plan.messages.length) {
        const at = isoZ(this.now());
        const runId = this.ids.next();
        await notifications.queue(
          plan.messages.map((m) => ({
            id: this.ids.next(),
            tenant_id: tenant,
            run_id: runId,
            recipient: m.to,
            language: m.language,
            subject: m.subject,
            body_text: m.body_text,
            body_html: m.body_html,
            created_at: at,
            assignments: m.assignments,
          })),
        );
      }
      return {
        results,
        total_checked: rows.length,
        escalated: results.length,
        dry_run: opts.dry_run,
        as_of: isoZ(now),
        notifications: {
          queued: opts.dry_run ? 0 : plan.messages.length,
          messages: opts.dry_run ? plan.messages : [],
          unaddressed: plan.unaddressed,
        },
      };
    };
    // a dry run only reads: it does not queue behind the tenant's writers
    return opts.dry_run ? run(this.uow.read) : this.uow.write(tenant, run);
  }

  // ---------------------------------------------------------------- certificates
  private async sign(store: TrainingStore, c: Record<string, unknown>): Promise<string> {
    const key = Buffer.from(await store.signingKey(this.newKey), 'hex');
    return createHmac('sha256', key).update(certificatePayload(c)).digest('hex');
  }

  private withCode = (c: CertificateRecord): Certificate => ({
    ...c,
    verification_code: verificationCode(c.signature),
  });

  /** Issues the assignment's certificate, once: the unique assignment of a certificate makes a second issue a no-op. */
  generateCertificate(tenant: string, actor: Actor, assignmentId: string) {
    return this.write(tenant, async (store) => {
      const a = await this.getAssignment(tenant, assignmentId, store);
      let issued = await store.certificateOfAssignment(tenant, assignmentId);
      if (!issued) {
        const problem = certificateProblem(a);
        if (problem) throw conflict(problem);
        const now = this.now();
        const cert = {
          id: this.ids.next(),
          tenant_id: tenant,
          assignment_id: a.id,
          user_id: a.user_id,
          user_name: a.user_name,
          module_id: a.module_id,
          module_code: a.module_code,
          module_title: a.module_title,
          score: await store.bestPassedScore(tenant, assignmentId),
          issued_at: isoZ(now),
          valid_until: a.valid_until ?? addDays(now, 365),
        };
        const signed = { ...cert, signature: await this.sign(store, cert) };
        if (await store.insertCertificate(signed)) {
          await store.updateAssignment(tenant, a.id, { certificate_id: cert.id, updated_at: isoZ(now) });
          await store.appendAudit([
            this.auditRecord(tenant, actor, 'certificate_issued', 'certificate', cert.id, { assignment_id: a.id }),
          ]);
          issued = signed;
        } else issued = (await store.certificateOfAssignment(tenant, assignmentId))!;
      }
      const id = issued.id;
      return {
        certificate_id: id,
        verification_code: verificationCode(issued.signature),
        assignment: {
          id: a.id,
          status: a.status,
          quiz_passed: a.quiz_passed,
          certificate_id: id,
          module_title: a.module_title,
        },
      };
    });
  }

  async certificates(tenant: string): Promise<Certificate[]> {
    return (await this.store.certificates(tenant)).map(this.withCode);
  }

  async certificate(tenant: string, id: string): Promise<Certificate> {
    const c = await this.store.certificate(tenant, id);
    if (!c) throw notFound('certificate', id);
    return this.withCode(c);
  }

  /** A certificate by its id or by the verification code printed on it. */
  private async certificateByIdOrCode(tenant: string, idOrCode: string): Promise<Certificate> {
    const byCode = VERIFICATION_CODE.test(idOrCode);
    const c = byCode
      ? await this.store.certificateByCode(tenant, idOrCode.replaceAll('-', '').toLowerCase())
      : await this.store.certificate(tenant, idOrCode);
    if (!c) throw notFound(byCode ? 'certificate with verification code' : 'certificate', idOrCode);
    return this.withCode(c);
  }

  private async signatureHolds(c: CertificateRecord): Promise<boolean> {
    const expected = Buffer.from(await this.sign(this.store, c), 'hex');
    const given = Buffer.from(c.signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A certificate holds when its signature matches its fields and its validity has not run out. */
  async verify(tenant: string, idOrCode: string) {
    const c = await this.certificateByIdOrCode(tenant, idOrCode);
    const signed = await this.signatureHolds(c);
    const expired = this.expired(c);
    const assignment = await this.getAssignment(tenant, c.assignment_id).catch(() => null);
    return { valid: signed && !expired, signature_valid: signed, expired, certificate: c, assignment };
  }

  private expired(c: CertificateRecord): boolean {
    return Date.parse(c.valid_until) < this.now().getTime();
  }

  /**
   * What anyone holding the printed certificate may learn from its code, without a key: whether it is valid (signature
   * and validity date), the module, the dates and the holder's initials. Nothing else leaves the store.
   */
  async publicVerification(tenant: string, code: string): Promise<PublicVerification> {
    const c = await this.certificateByIdOrCode(tenant, code);
    const signed = await this.signatureHolds(c);
    const expired = this.expired(c);
    return {
      valid: signed && !expired,
      signature_valid: signed,
      expired,
      module_code: c.module_code,
      module_title: c.module_title,
      issued_at: c.issued_at,
      valid_until: c.valid_until,
      holder_initials: initials(c.user_name),
    };
  }

  // ---------------------------------------------------------------- audit and statistics
  auditLog(
    tenant: string,
    q: { action?: string; entity_type?: string; limit: number; offset: number },
  ): Promise<AuditEntry[]> {
    return this.store.auditLog(tenant, q);
  }

  async stats(tenant: string): Promise<TrainingStats> {
    const now = this.now();
    const c = await this.store.counts(tenant, isoZ(now), addDays(now, 14));
    return {
      total_modules: c.modules,
      total_assignments: c.total,
      overdue_count: c.overdue,
      pending_count: c.pending,
      in_progress_count: c.in_progress,
      completed_count: c.completed,
      upcoming_deadlines: c.upcoming,
      completion_rate: c.total ? round1((100 * c.completed) / c.total) : 0,
      avg_quiz_score: round1(c.avg_quiz_score),
      avg_completion_days: round1(c.avg_completion_days),
    };
  }
}
