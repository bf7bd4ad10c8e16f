import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { conflict, DomainError, notFound } from '../../domain/errors.js';
import {
  addDays,
  certificatePayload,
  daysOverdue,
  derivedStatus,
  escalationStep,
  scoreQuiz,
  verificationCode,
} from '../../domain/training/training.rules.js';
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
  Question,
  QuestionInput,
  TrainingStats,
} from '../../domain/training/training.schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { daysBetween } from '../../store/dialect.js';
import type { DB } from '../../store/db-types.js';
import type { TrainingTables } from '../../store/db-types-training.js';

type AssignmentRow = TrainingTables['training_assignment'];
type Actor = string | undefined;

/**
 * The training area on SQLite: modules, matrix, assignments, quizzes, escalation, certificates, audit and statistics.
 * The rules (derived status, escalation levels, scoring, signatures' payload) live in domain/training/training.rules.ts.
 */
export class TrainingService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  private now = () => this.clock.now();

  private async audit(
    db: Kysely<DB>,
    tenant: string,
    actor: Actor,
    action: AuditEntry['action'],
    entity_type: AuditEntry['entity_type'],
    entity_id: string,
    details: Record<string, unknown> = {},
  ) {
    await db
      .insertInto('training_audit')
      .values({
        id: this.ids.next(),
        tenant_id: tenant,
        action,
        entity_type,
        entity_id,
        actor: actor ?? 'system',
        details: JSON.stringify(details),
        created_at: isoZ(this.now()),
      })
      .execute();
  }

  // ---------------------------------------------------------------- modules
  private async questionCounts(tenant: string, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('training_question')
      .select((eb) => ['module_id', eb.fn.countAll<number>().as('n')])
      .where('tenant_id', '=', tenant)
      .where('module_id', 'in', ids)
      .groupBy('module_id')
      .execute();
    return new Map(rows.map((r) => [r.module_id, Number(r.n)]));
  }

  async listModules(
    tenant: string,
    q: { regulation_area?: string; frequency_type?: string; search?: string },
  ): Promise<Module[]> {
    let s = this.db.selectFrom('training_module').selectAll().where('tenant_id', '=', tenant);
    if (q.regulation_area) s = s.where('regulation_area', '=', q.regulation_area);
    if (q.frequency_type) s = s.where('frequency_type', '=', q.frequency_type);
    if (q.search) {
      const words = q.search.toLowerCase().split(/\s+/).filter(Boolean);
      for (const w of words) {
        const like = `%${w.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
        s = s.where((eb) =>
          eb.or([
            sql<boolean>`lower(title) like ${like} escape '\\'`,
            sql<boolean>`lower(description) like ${like} escape '\\'`,
          ]),
        );
      }
    }
    const rows = await s.orderBy('regulation_area').orderBy('module_code').execute();
    const counts = await this.questionCounts(
      tenant,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, question_count: counts.get(r.id) ?? 0 }) as Module);
  }

  private async mustModule(db: Kysely<DB>, tenant: string, id: string) {
    const m = await db
      .selectFrom('training_module')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!m) throw notFound('training module', id);
    return m;
  }

  async questions(tenant: string, moduleId: string, db: Kysely<DB> = this.db): Promise<Question[]> {
    const rows = await db
      .selectFrom('training_question')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .orderBy('position')
      .execute();
    return rows.map(({ tenant_id: _t, ...q }) => ({ ...q, options: JSON.parse(q.options) }));
  }

  async getModule(tenant: string, id: string): Promise<ModuleDetail> {
    const m = await this.mustModule(this.db, tenant, id);
    const questions = await this.questions(tenant, id);
    const content = await this.db
      .selectFrom('training_content')
      .select(['id', 'version', 'language', 'markdown', 'published_at'])
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', id)
      .where('status', '=', 'published')
      .orderBy('version', 'desc')
      .executeTakeFirst();
    return {
      ...(m as Omit<Module, 'question_count'>),
      question_count: questions.length,
      content: content ?? null,
      questions,
    };
  }

  private async replaceQuestions(db: Kysely<DB>, tenant: string, moduleId: string, qs: QuestionInput[]) {
    await db
      .deleteFrom('training_question')
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .execute();
    let position = 0;
    for (const q of qs) {
      await db
        .insertInto('training_question')
        .values({
          id: this.ids.next(),
          tenant_id: tenant,
          module_id: moduleId,
          position: position++,
          question: q.question,
          options: JSON.stringify(q.options),
          correct_index: q.correct_index,
          explanation: q.explanation,
        })
        .execute();
    }
  }

  createModule(tenant: string, actor: Actor, input: ModuleCreate): Promise<ModuleDetail> {
    return writeTransaction(this.db, async (db) => {
      const taken = await db
        .selectFrom('training_module')
        .select('id')
        .where('tenant_id', '=', tenant)
        .where('module_code', '=', input.module_code)
        .executeTakeFirst();
      if (taken)
        throw conflict(`module_code ${input.module_code} is already used by module ${taken.id}`, [
          { path: 'module_code', message: 'already used' },
        ]);
      const now = isoZ(this.now());
      const { questions, ...fields } = input;
      const id = this.ids.next();
      await db
        .insertInto('training_module')
        .values({ id, tenant_id: tenant, ...fields, created_at: now, updated_at: now })
        .execute();
      if (questions) await this.replaceQuestions(db, tenant, id, questions);
      void actor;
      return id;
    }).then((id) => this.getModule(tenant, id));
  }

  updateModule(tenant: string, id: string, patch: ModuleUpdate): Promise<ModuleDetail> {
    return writeTransaction(this.db, async (db) => {
      await this.mustModule(db, tenant, id);
      const { questions, ...fields } = patch;
      if (fields.module_code) {
        const taken = await db
          .selectFrom('training_module')
          .select('id')
          .where('tenant_id', '=', tenant)
          .where('module_code', '=', fields.module_code)
          .where('id', '!=', id)
          .executeTakeFirst();
        if (taken)
          throw conflict(`module_code ${fields.module_code} is already used by module ${taken.id}`, [
            { path: 'module_code', message: 'already used' },
          ]);
      }
      await db
        .updateTable('training_module')
        .set({ ...fields, updated_at: isoZ(this.now()) })
        .where('tenant_id', '=', tenant)
        .where('id', '=', id)
        .execute();
      if (questions) await this.replaceQuestions(db, tenant, id, questions);
    }).then(() => this.getModule(tenant, id));
  }

  deleteModule(tenant: string, id: string): Promise<{ success: boolean; message: string }> {
    return writeTransaction(this.db, async (db) => {
      await this.mustModule(db, tenant, id);
      const n = await db
        .selectFrom('training_assignment')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenant)
        .where('module_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(n.n) > 0) throw conflict(`module ${id} has ${n.n} assignment(s) and cannot be deleted`);
      await db.deleteFrom('training_module').where('tenant_id', '=', tenant).where('id', '=', id).execute();
      return { success: true, message: `module ${id} deleted` };
    });
  }

  // ---------------------------------------------------------------- matrix
  async matrix(tenant: string, role?: string): Promise<MatrixEntry[]> {
    let q = this.db
      .selectFrom('training_matrix as x')
      .innerJoin('training_module as m', 'm.id', 'x.module_id')
      .select([
        'x.role_code',
        'x.module_id',
        'm.module_code',
        'm.title as module_title',
        'x.is_mandatory',
        'x.priority',
      ])
      .where('x.tenant_id', '=', tenant);
    if (role) q = q.where('x.role_code', '=', role);
    const rows = await q.execute();
    const order = (r: string) => Number(r.slice(1));
    return rows
      .map((r) => ({ ...r, is_mandatory: r.is_mandatory === 1 }) as MatrixEntry)
      .sort(
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
    await this.mustModule(this.db, tenant, e.module_id);
    const row = {
      tenant_id: tenant,
      role_code: e.role_code,
      module_id: e.module_id,
      is_mandatory: e.is_mandatory ? 1 : 0,
      priority: e.priority,
      created_at: isoZ(this.now()),
    };
    await this.db
      .insertInto('training_matrix')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'role_code', 'module_id'])
          .doUpdateSet({ is_mandatory: row.is_mandatory, priority: row.priority }),
      )
      .execute();
    return (await this.matrix(tenant, e.role_code)).find((x) => x.module_id === e.module_id)!;
  }

  async unsetMatrix(tenant: string, role: string, moduleId: string): Promise<{ success: boolean; message: string }> {
    const r = await this.db
      .deleteFrom('training_matrix')
      .where('tenant_id', '=', tenant)
      .where('role_code', '=', role)
      .where('module_id', '=', moduleId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound('matrix entry', `${role}/${moduleId}`);
    return { success: true, message: `${role} no longer assigned module ${moduleId}` };
  }

  // ---------------------------------------------------------------- assignments
  private toAssignment(r: AssignmentRow & { module_code: string; module_title: string }, now: Date): Assignment {
    return { ...r, status: derivedStatus(r, now), quiz_passed: r.quiz_passed === 1 } as Assignment;
  }

  private assignments(db: Kysely<DB> = this.db) {
    return db
      .selectFrom('training_assignment as a')
      .innerJoin('training_module as m', 'm.id', 'a.module_id')
      .selectAll('a')
      .select(['m.module_code', 'm.title as module_title']);
  }

  async getAssignment(tenant: string, id: string, db: Kysely<DB> = this.db): Promise<Assignment> {
    const r = await this.assignments(db).where('a.tenant_id', '=', tenant).where('a.id', '=', id).executeTakeFirst();
    if (!r) throw notFound('assignment', id);
    return this.toAssignment(r, this.now());
  }

  /** Creates the assignments a user's roles call for, unless an open one, or a completed one still valid, exists. */
  compute(tenant: string, actor: Actor, input: ComputeInput): Promise<{ assignments: Assignment[]; created: number }> {
    return writeTransaction(this.db, async (trx) => {
      const now = this.now();
      const ids = await this.computeIn(trx, tenant, actor, input, await this.matrixRows(trx, tenant), now);
      // only the ids just created for this tenant: no tenant filter, which would steer SQLite onto a tenant-wide index scan
      const created = ids.length ? await this.assignments(trx).where('a.id', 'in', ids).execute() : [];
      return { assignments: created.map((r) => this.toAssignment(r, now)), created: ids.length };
    });
  }

  /** The tenant's matrix once per compute, ordered by priority, so a staff list does not re-read it per user. */
  private async matrixRows(trx: Kysely<DB>, tenant: string) {
    return trx
      .selectFrom('training_matrix')
      .select(['module_id', 'role_code', 'priority'])
      .where('tenant_id', '=', tenant)
      .orderBy('priority')
      .orderBy('role_code')
      .execute();
  }

  /** Writes one user's new assignments and their audit entries; returns the new ids. */
  private async computeIn(
    trx: Kysely<DB>,
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
    const existing = await trx
      .selectFrom('training_assignment')
      .select(['module_id', 'status', 'valid_until'])
      .where('tenant_id', '=', tenant)
      .where('user_id', '=', input.user_id)
      .execute();
    const covered = new Set(
      existing
        .filter((e) => e.status !== 'completed' || (e.valid_until && Date.parse(e.valid_until) >= now.getTime()))
        .map((e) => e.module_id),
    );
    const ids: string[] = [];
    const rows: AssignmentRow[] = [];
    const audits: Array<TrainingTables['training_audit']> = [];
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
        role_code: w.role_code,
        status: 'pending',
        progress_percent: 0,
        deadline: addDays(now, input.deadline_days),
        escalation_level: 0,
        quiz_passed: 0,
        certificate_id: null,
        started_at: null,
        completed_at: null,
        valid_until: null,
        created_at: nowIso,
        updated_at: nowIso,
      });
      audits.push({
        id: this.ids.next(),
        tenant_id: tenant,
        action: 'assigned',
        entity_type: 'assignment',
        entity_id: id,
        actor: actor ?? 'system',
        details: JSON.stringify({
          user_id: input.user_id,
          module_id: w.module_id,
          role: w.role_code,
          trigger: input.trigger ?? 'manual',
        }),
        created_at: nowIso,
      });
      ids.push(id);
    }
    // multi-row statements, 500 rows at most so 18 columns stay below SQLite's limit of bound variables
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('training_assignment')
        .values(rows.slice(i, i + 500))
        .execute();
      await trx
        .insertInto('training_audit')
        .values(audits.slice(i, i + 500))
        .execute();
    }
    return ids;
  }

  /** Many users in one transaction (a staff list); answers counts only, not the created rows. */
  computeMany(tenant: string, actor: Actor, users: ComputeInput[]): Promise<{ users: number; created: number }> {
    return writeTransaction(this.db, async (trx) => {
      const matrix = await this.matrixRows(trx, tenant);
      const now = this.now();
      let created = 0;
      for (const u of users) created += (await this.computeIn(trx, tenant, actor, u, matrix, now)).length;
      return { users: users.length, created };
    });
  }

  async listAssignments(tenant: string, q: AssignmentQuery & { as_of?: string }): Promise<Assignment[]> {
    const now = q.as_of ? new Date(q.as_of) : this.now();
    const at = isoZ(now);
    let s = this.assignments().where('a.tenant_id', '=', tenant);
    if (q.user_id) s = s.where('a.user_id', '=', q.user_id);
    if (q.module_id) s = s.where('a.module_id', '=', q.module_id);
    if (q.role) s = s.where('a.role_code', '=', q.role);
    switch (q.status) {
      case 'pending':
      case 'in_progress':
        s = s.where('a.status', '=', q.status).where('a.deadline', '>=', at);
        break;
      case 'overdue':
        s = s.where('a.status', 'in', ['pending', 'in_progress']).where('a.deadline', '<', at);
        break;
      case 'completed':
        s = s
          .where('a.status', '=', 'completed')
          .where((eb) => eb.or([eb('a.valid_until', 'is', null), eb('a.valid_until', '>=', at)]));
        break;
      case 'expired':
        s = s.where('a.status', '=', 'completed').where('a.valid_until', '<', at);
        break;
    }
    const rows = await s.orderBy('a.id', 'desc').limit(q.limit).offset(q.offset).execute();
    return rows.map((r) => this.toAssignment(r, now));
  }

  updateAssignment(
    tenant: string,
    id: string,
    patch: { deadline?: string; user_name?: string; user_email?: string },
  ): Promise<Assignment> {
    return writeTransaction(this.db, async (db) => {
      await this.getAssignment(tenant, id, db);
      const set: Partial<AssignmentRow> = { updated_at: isoZ(this.now()) };
      if (patch.deadline) set.deadline = new Date(patch.deadline).toISOString();
      if (patch.user_name) set.user_name = patch.user_name;
      if (patch.user_email) set.user_email = patch.user_email;
      await db
        .updateTable('training_assignment')
        .set(set)
        .where('tenant_id', '=', tenant)
        .where('id', '=', id)
        .execute();
      return this.getAssignment(tenant, id, db);
    });
  }

  private stored(a: Assignment): string {
    return a.status === 'overdue'
      ? a.started_at
        ? 'in_progress'
        : 'pending'
      : a.status === 'expired'
        ? 'completed'
        : a.status;
  }

  start(tenant: string, actor: Actor, id: string): Promise<Assignment> {
    return writeTransaction(this.db, async (db) => {
      const a = await this.getAssignment(tenant, id, db);
      const st = this.stored(a);
      if (st !== 'pending') throw conflict(`assignment ${id} is ${a.status}; only a pending assignment can be started`);
      const now = isoZ(this.now());
      await db
        .updateTable('training_assignment')
        .set({ status: 'in_progress', started_at: now, updated_at: now })
        .where('id', '=', id)
        .execute();
      await this.audit(db, tenant, actor, 'started', 'assignment', id);
      return this.getAssignment(tenant, id, db);
    });
  }

  progress(tenant: string, actor: Actor, id: string, progress: number): Promise<Assignment> {
    return writeTransaction(this.db, async (db) => {
      const a = await this.getAssignment(tenant, id, db);
      const st = this.stored(a);
      if (st === 'completed') throw conflict(`assignment ${id} is ${a.status}; progress can no longer change`);
      const now = isoZ(this.now());
      const set: Partial<AssignmentRow> = { progress_percent: progress, updated_at: now };
      if (st === 'pending') {
        set.status = 'in_progress';
        set.started_at = now;
        await this.audit(db, tenant, actor, 'started', 'assignment', id, { by: 'progress' });
      }
      await db.updateTable('training_assignment').set(set).where('id', '=', id).execute();
      return this.getAssignment(tenant, id, db);
    });
  }

  complete(tenant: string, actor: Actor, id: string): Promise<Assignment> {
    return writeTransaction(this.db, async (db) => {
      const a = await this.getAssignment(tenant, id, db);
      const st = this.stored(a);
      if (st !== 'in_progress')
        throw conflict(
          `assignment ${id} is ${a.status}; only an assignment in progress can be completed (start it first)`,
        );
      const m = await this.mustModule(db, tenant, a.module_id);
      const now = this.now();
      await db
        .updateTable('training_assignment')
        .set({
          status: 'completed',
          progress_percent: 100,
          completed_at: isoZ(now),
          valid_until: addDays(now, m.validity_days),
          updated_at: isoZ(now),
        })
        .where('id', '=', id)
        .execute();
      await this.audit(db, tenant, actor, 'completed', 'assignment', id);
      return this.getAssignment(tenant, id, db);
    });
  }

  // ---------------------------------------------------------------- quiz
  async learnerQuiz(tenant: string, moduleId: string) {
    const m = await this.mustModule(this.db, tenant, moduleId);
    const qs = await this.questions(tenant, moduleId);
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
    return writeTransaction(this.db, async (db) => {
      const m = await this.mustModule(db, tenant, moduleId);
      const a = await this.getAssignment(tenant, body.assignment_id, db);
      if (a.module_id !== moduleId)
        throw new DomainError('validation', `assignment ${a.id} is for module ${a.module_id}, not ${moduleId}`, [
          { path: 'assignment_id', message: 'belongs to another module' },
        ]);
      const result = scoreQuiz(await this.questions(tenant, moduleId, db), body.answers, m.pass_threshold);
      const attempt_id = this.ids.next();
      await db
        .insertInto('training_quiz_attempt')
        .values({
          id: attempt_id,
          tenant_id: tenant,
          assignment_id: a.id,
          module_id: moduleId,
          score: result.score,
          passed: result.passed ? 1 : 0,
          correct_count: result.correct_count,
          total_count: result.total_count,
          threshold: result.threshold,
          answers: JSON.stringify(body.answers),
          duration_seconds: body.duration_seconds ?? null,
          created_at: isoZ(this.now()),
        })
        .execute();
      if (result.passed)
        await db
          .updateTable('training_assignment')
          .set({ quiz_passed: 1, updated_at: isoZ(this.now()) })
          .where('id', '=', a.id)
          .execute();
      await this.audit(db, tenant, actor, 'quiz_submitted', 'quiz', attempt_id, {
        assignment_id: a.id,
        score: result.score,
        passed: result.passed,
      });
      return { attempt_id, ...result };
    });
  }

  async attempts(tenant: string, assignmentId: string) {
    await this.getAssignment(tenant, assignmentId);
    const rows = await this.db
      .selectFrom('training_quiz_attempt')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('assignment_id', '=', assignmentId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({
      attempt_id: r.id,
      assignment_id: r.assignment_id,
      module_id: r.module_id,
      score: r.score,
      passed: r.passed === 1,
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
    const rows = await this.assignments()
      .where('a.tenant_id', '=', tenant)
      .where('a.status', 'in', ['pending', 'in_progress'])
      .where('a.deadline', '>=', isoZ(now))
      .orderBy('a.deadline')
      .limit(limit)
      .execute();
    return rows.map((r) => this.toAssignment(r, now));
  }

  async overdue(tenant: string, asOf?: string): Promise<Array<Assignment & { days_overdue: number }>> {
    const now = asOf ? new Date(asOf) : this.now();
    const rows = await this.assignments()
      .where('a.tenant_id', '=', tenant)
      .where('a.status', 'in', ['pending', 'in_progress'])
      .where('a.deadline', '<', isoZ(now))
      .orderBy('a.deadline')
      .execute();
    // every row is overdue by the query itself; rows are converted in place because the CI gate reads tens of thousands
    return rows.map((r) =>
      Object.assign(r, {
        status: 'overdue' as const,
        quiz_passed: r.quiz_passed === 1,
        days_overdue: daysOverdue(r.deadline, now),
      }),
    );
  }

  /** Raises escalation levels of overdue assignments (never lowers them); one audit entry per escalation. */
  escalate(tenant: string, actor: Actor, opts: { as_of?: string; dry_run: boolean }) {
    return writeTransaction(this.db, async (db) => {
      const now = opts.as_of ? new Date(opts.as_of) : this.now();
      const rows = await db
        .selectFrom('training_assignment as a')
        .innerJoin('training_module as m', 'm.id', 'a.module_id')
        .select(['a.id', 'a.user_name', 'a.deadline', 'a.escalation_level', 'm.title'])
        .where('a.tenant_id', '=', tenant)
        .where('a.status', 'in', ['pending', 'in_progress'])
        .where('a.deadline', '<', isoZ(now))
        .execute();
      const results: EscalationItem[] = [];
      for (const r of rows) {
        const days = daysOverdue(r.deadline, now);
        const step = escalationStep(r.escalation_level, days);
        if (step)
          results.push({
            assignment_id: r.id,
            user_name: r.user_name,
            module_title: r.title,
            previous_level: r.escalation_level,
            new_level: step.level,
            days_overdue: days,
            escalation_label: step.label,
          });
      }
      if (!opts.dry_run && results.length) {
        const at = isoZ(this.now());
        for (let level = 1; level <= 4; level++) {
          const ids = results.filter((r) => r.new_level === level).map((r) => r.assignment_id);
          for (let i = 0; i < ids.length; i += 500)
            await db
              .updateTable('training_assignment')
              .set({ escalation_level: level, updated_at: at })
              .where('id', 'in', ids.slice(i, i + 500))
              .execute();
        }
        for (let i = 0; i < results.length; i += 500) {
          await db
            .insertInto('training_audit')
            .values(
              results.slice(i, i + 500).map((r) => ({
                id: this.ids.next(),
                tenant_id: tenant,
                action: 'escalated',
                entity_type: 'assignment',
                entity_id: r.assignment_id,
                actor: actor ?? 'system',
                details: JSON.stringify({
                  previous_level: r.previous_level,
                  new_level: r.new_level,
                  days_overdue: r.days_overdue,
                  label: r.escalation_label,
                }),
                created_at: at,
              })),
            )
            .execute();
        }
      }
      return {
        results,
        total_checked: rows.length,
        escalated: results.length,
        dry_run: opts.dry_run,
        as_of: isoZ(now),
      };
    });
  }

  // ---------------------------------------------------------------- certificates
  private async signingKey(db: Kysely<DB>): Promise<Buffer> {
    const row = await db.selectFrom('setting').select('value').where('key', '=', 'certificate_key').executeTakeFirst();
    if (row) return Buffer.from(row.value, 'hex');
    const key = randomBytes(32);
    await db
      .insertInto('setting')
      .values({ key: 'certificate_key', value: key.toString('hex') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return this.signingKey(db);
  }

  private sign(key: Buffer, c: Record<string, unknown>): string {
    return createHmac('sha256', key).update(certificatePayload(c)).digest('hex');
  }

  private withCode = (c: TrainingTables['training_certificate']): Certificate => ({
    ...c,
    verification_code: verificationCode(c.signature),
  });

  generateCertificate(tenant: string, actor: Actor, assignmentId: string) {
    return writeTransaction(this.db, async (db) => {
      const a = await this.getAssignment(tenant, assignmentId, db);
      const existing = await db
        .selectFrom('training_certificate')
        .selectAll()
        .where('tenant_id', '=', tenant)
        .where('assignment_id', '=', assignmentId)
        .executeTakeFirst();
      let id = existing?.id;
      if (!existing) {
        if (a.status !== 'completed' || !a.quiz_passed)
          throw conflict(
            `assignment ${assignmentId} is ${a.status}${a.quiz_passed ? '' : ' and its quiz is not passed'}; a certificate needs a completed assignment with a passed quiz`,
          );
        const best = await db
          .selectFrom('training_quiz_attempt')
          .select((eb) => eb.fn.max('score').as('s'))
          .where('assignment_id', '=', assignmentId)
          .where('passed', '=', 1)
          .executeTakeFirst();
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
          score: Number(best?.s ?? 0),
          issued_at: isoZ(now),
          valid_until: a.valid_until ?? addDays(now, 365),
        };
        const signature = this.sign(await this.signingKey(db), cert);
        await db
          .insertInto('training_certificate')
          .values({ ...cert, signature })
          .execute();
        await db
          .updateTable('training_assignment')
          .set({ certificate_id: cert.id, updated_at: isoZ(now) })
          .where('id', '=', a.id)
          .execute();
        await this.audit(db, tenant, actor, 'certificate_issued', 'certificate', cert.id, { assignment_id: a.id });
        id = cert.id;
      }
      return {
        certificate_id: id!,
        assignment: {
          id: a.id,
          status: a.status,
          quiz_passed: a.quiz_passed,
          certificate_id: id!,
          module_title: a.module_title,
        },
      };
    });
  }

  async certificates(tenant: string): Promise<Certificate[]> {
    return (
      await this.db
        .selectFrom('training_certificate')
        .selectAll()
        .where('tenant_id', '=', tenant)
        .orderBy('id', 'desc')
        .execute()
    ).map(this.withCode);
  }

  async certificate(tenant: string, id: string): Promise<Certificate> {
    const c = await this.db
      .selectFrom('training_certificate')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!c) throw notFound('certificate', id);
    return this.withCode(c);
  }

  async verify(tenant: string, id: string) {
    const c = await this.certificate(tenant, id);
    const expected = Buffer.from(this.sign(await this.signingKey(this.db), c), 'hex');
    const given = Buffer.from(c.signature, 'hex');
    const valid = given.length === expected.length && timingSafeEqual(given, expected);
    const assignment = await this.getAssignment(tenant, c.assignment_id).catch(() => null);
    return { valid, certificate: c, assignment };
  }

  // ---------------------------------------------------------------- audit and statistics
  async auditLog(
    tenant: string,
    q: { action?: string; entity_type?: string; limit: number; offset: number },
  ): Promise<AuditEntry[]> {
    let s = this.db.selectFrom('training_audit').selectAll().where('tenant_id', '=', tenant);
    if (q.action) s = s.where('action', '=', q.action);
    if (q.entity_type) s = s.where('entity_type', '=', q.entity_type);
    const rows = await s.orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    return rows.map((r) => ({ ...r, details: JSON.parse(r.details) }) as AuditEntry);
  }

  async stats(tenant: string): Promise<TrainingStats> {
    const now = this.now();
    const at = isoZ(now);
    const soon = addDays(now, 14);
    const a = await this.db
      .selectFrom('training_assignment')
      .where('tenant_id', '=', tenant)
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        sql<number>`sum(case when status in ('pending','in_progress') and deadline < ${at} then 1 else 0 end)`.as(
          'overdue',
        ),
        sql<number>`sum(case when status = 'pending' and deadline >= ${at} then 1 else 0 end)`.as('pending'),
        sql<number>`sum(case when status = 'in_progress' and deadline >= ${at} then 1 else 0 end)`.as('in_progress'),
        sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed'),
        sql<number>`sum(case when status in ('pending','in_progress') and deadline >= ${at} and deadline <= ${soon} then 1 else 0 end)`.as(
          'upcoming',
        ),
        sql<number | null>`avg(case when status = 'completed' then ${daysBetween(
          this.db,
          sql.ref('created_at'),
          sql.ref('completed_at'),
        )} end)`.as('days'),
      ])
      .executeTakeFirstOrThrow();
    const modules = await this.db
      .selectFrom('training_module')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenant)
      .executeTakeFirstOrThrow();
    const quiz = await this.db
      .selectFrom('training_quiz_attempt')
      .select((eb) => eb.fn.avg<number>('score').as('s'))
      .where('tenant_id', '=', tenant)
      .executeTakeFirstOrThrow();
    const total = Number(a.total);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    return {
      total_modules: Number(modules.n),
      total_assignments: total,
      overdue_count: Number(a.overdue ?? 0),
      pending_count: Number(a.pending ?? 0),
      in_progress_count: Number(a.in_progress ?? 0),
      completed_count: Number(a.completed ?? 0),
      upcoming_deadlines: Number(a.upcoming ?? 0),
      completion_rate: total ? round1((100 * Number(a.completed ?? 0)) / total) : 0,
      avg_quiz_score: round1(Number(quiz.s ?? 0)),
      avg_completion_days: round1(Number(a.days ?? 0)),
    };
  }
}
