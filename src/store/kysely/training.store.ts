import { sql, type Kysely } from 'kysely';
import type { AuditEntry, MatrixEntry, Question } from '../../domain/training/training.schema.js';
import type {
  AssignmentFilter,
  AssignmentRecord,
  AssignmentView,
  AuditRecord,
  CertificateRecord,
  ModuleRecord,
  QuestionRecord,
  QuizAttemptRecord,
  TrainingCounts,
  TrainingStore,
} from '../../domain/training/training-store.port.js';
import { engineFor } from '../engine.js';
import type { DB } from '../db-types.js';
import type { TrainingTables } from '../db-types-training.js';
import { compositeId, readOnly, type Recorder } from '../journal/journal-writer.js';

type AssignmentRow = TrainingTables['training_assignment'];

// multi-row statements of 500 rows at most, so 18 columns stay below SQLite's limit of bound variables
const BATCH = 500;
const OPEN = ['pending', 'in_progress'];

/** Converted in place: the overdue gate reads tens of thousands of rows. */
const assignmentFromRow = <T extends { quiz_passed: number }>(r: T) =>
  Object.assign(r, { quiz_passed: r.quiz_passed === 1 }) as unknown as Omit<T, 'quiz_passed'> & {
    quiz_passed: boolean;
  };

const assignmentToRow = (a: Partial<AssignmentRecord>): Partial<AssignmentRow> => {
  const { quiz_passed, ...rest } = a;
  return quiz_passed === undefined ? rest : { ...rest, quiz_passed: quiz_passed ? 1 : 0 };
};

/** Converted in place, the records being the caller's to give away: a staff list writes hundreds of thousands. */
const newAssignmentRow = (a: AssignmentRecord): AssignmentRow =>
  Object.assign(a as unknown as AssignmentRow, { quiz_passed: a.quiz_passed ? 1 : 0 });

const auditToRow = (e: AuditRecord): TrainingTables['training_audit'] =>
  Object.assign(e as unknown as TrainingTables['training_audit'], { details: JSON.stringify(e.details) });

const attemptFromRow = (r: TrainingTables['training_quiz_attempt']): QuizAttemptRecord => ({
  ...r,
  passed: r.passed === 1,
  answers: JSON.parse(r.answers),
});

/** The journal's id of a matrix entry: its key within the tenant. */
export const matrixId = (r: { role_code: string; module_id: string }) => compositeId(r.role_code, r.module_id);

/** The journal's id of a control link: its key (the tenant is its block's). */
export const linkId = (r: { block_id: string; control_id: string }) => compositeId(r.block_id, r.control_id);

/**
 * TrainingStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. Every write tells the
 * journal the rows it wrote as the database returned them (RETURNING), so a conditional or set-based write records
 * exactly the rows it changed, and one that changed nothing records nothing.
 */
export class KyselyTrainingStore implements TrainingStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  /** Records rows written to `entity` (keyed by `id`). */
  private put(entity: string, rows: Array<{ id: string }>, op: 'insert' | 'update'): void {
    for (const r of rows) this.journal.put(entity, r.id, r, op);
  }

  // ---------------------------------------------------------------- modules
  async listModules(tenant: string, q: { regulation_area?: string; frequency_type?: string; search?: string }) {
    let s = this.db.selectFrom('training_module').selectAll().where('tenant_id', '=', tenant);
    if (q.regulation_area) s = s.where('regulation_area', '=', q.regulation_area);
    if (q.frequency_type) s = s.where('frequency_type', '=', q.frequency_type);
    for (const w of (q.search ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
      const like = `%${w.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      s = s.where((eb) =>
        eb.or([
          sql<boolean>`lower(title) like ${like} escape '\\'`,
          sql<boolean>`lower(description) like ${like} escape '\\'`,
        ]),
      );
    }
    const rows = await s.orderBy('regulation_area').orderBy('module_code').execute();
    const counts = await this.questionCounts(
      tenant,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...(r as ModuleRecord), question_count: counts.get(r.id) ?? 0 }));
  }

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

  async getModule(tenant: string, id: string) {
    const m = await this.db
      .selectFrom('training_module')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return m as ModuleRecord | undefined;
  }

  async moduleIdByCode(tenant: string, code: string, exceptId?: string) {
    let q = this.db
      .selectFrom('training_module')
      .select('id')
      .where('tenant_id', '=', tenant)
      .where('module_code', '=', code);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst())?.id;
  }

  async insertModule(m: ModuleRecord) {
    this.put(
      'training_module',
      await this.db.insertInto('training_module').values(m).returningAll().execute(),
      'insert',
    );
  }

  async updateModule(tenant: string, id: string, fields: Partial<ModuleRecord>) {
    const rows = await this.db
      .updateTable('training_module')
      .set(fields)
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .execute();
    this.put('training_module', rows, 'update');
  }

  /**
   * Deletes a module and what the schema would delete with it (ON DELETE CASCADE: questions, content versions,
   * matrix entries, media records, control links), each explicitly, so that every row deleted leaves its tombstone.
   */
  async deleteModule(tenant: string, id: string) {
    const gone = (entity: string, ids: string[]) => ids.forEach((x) => this.journal.remove(entity, x));
    for (const table of ['training_question', 'training_content', 'training_media'] as const)
      gone(
        table,
        (
          await this.db
            .deleteFrom(table)
            .where('tenant_id', '=', tenant)
            .where('module_id', '=', id)
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
    const matrix = await this.db
      .deleteFrom('training_matrix')
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', id)
      .returning(['role_code', 'module_id'])
      .execute();
    gone('training_matrix', matrix.map(matrixId));
    // links carry no tenant: the module's decides
    const own = this.db.selectFrom('training_module').select('id').where('tenant_id', '=', tenant).where('id', '=', id);
    const links = await this.db
      .deleteFrom('training_block_control')
      .where('module_id', 'in', own)
      .returning(['block_id', 'control_id'])
      .execute();
    gone('training_block_control', links.map(linkId));
    const module = await this.db
      .deleteFrom('training_module')
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returning('id')
      .execute();
    gone(
      'training_module',
      module.map((r) => r.id),
    );
  }

  async questions(tenant: string, moduleId: string): Promise<Question[]> {
    const rows = await this.db
      .selectFrom('training_question')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .orderBy('position')
      .execute();
    return rows.map(({ tenant_id: _t, ...q }) => ({ ...q, options: JSON.parse(q.options) }));
  }

  async replaceQuestions(tenant: string, moduleId: string, questions: QuestionRecord[]) {
    const old = await this.db
      .deleteFrom('training_question')
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .returning('id')
      .execute();
    for (const q of old) this.journal.remove('training_question', q.id);
    if (!questions.length) return;
    const rows = await this.db
      .insertInto('training_question')
      .values(
        questions.map((q) => ({
          id: q.id,
          tenant_id: tenant,
          module_id: moduleId,
          position: q.position,
          question: q.question,
          options: JSON.stringify(q.options),
          correct_index: q.correct_index,
          explanation: q.explanation,
        })),
      )
      .returningAll()
      .execute();
    this.put('training_question', rows, 'insert');
  }

  async publishedContent(tenant: string, moduleId: string) {
    const content = await this.db
      .selectFrom('training_content')
      .select(['id', 'version', 'language', 'markdown', 'published_at'])
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .where('status', '=', 'published')
      .orderBy('version', 'desc')
      .executeTakeFirst();
    return content ?? null;
  }

  async countAssignmentsOfModule(tenant: string, moduleId: string) {
    const n = await this.db
      .selectFrom('training_assignment')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .executeTakeFirstOrThrow();
    return Number(n.n);
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
    return rows.map((r) => ({ ...r, is_mandatory: r.is_mandatory === 1 }) as MatrixEntry);
  }

  matrixRows(tenant: string) {
    return this.db
      .selectFrom('training_matrix')
      .select(['module_id', 'role_code', 'priority'])
      .where('tenant_id', '=', tenant)
      .orderBy('priority')
      .orderBy('role_code')
      .execute();
  }

  async upsertMatrix(e: Parameters<TrainingStore['upsertMatrix']>[0]) {
    const row = { ...e, is_mandatory: e.is_mandatory ? 1 : 0 };
    // whether the entry is new, for the journal's operation (the unit of work holds the tenant's writers off meanwhile)
    const existed = await this.db
      .selectFrom('training_matrix')
      .select('module_id')
      .where('tenant_id', '=', e.tenant_id)
      .where('role_code', '=', e.role_code)
      .where('module_id', '=', e.module_id)
      .executeTakeFirst();
    const written = await this.db
      .insertInto('training_matrix')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'role_code', 'module_id'])
          .doUpdateSet({ is_mandatory: row.is_mandatory, priority: row.priority }),
      )
      .returningAll()
      .execute();
    for (const r of written) this.journal.put('training_matrix', matrixId(r), r, existed ? 'update' : 'insert');
  }

  async deleteMatrix(tenant: string, role: string, moduleId: string) {
    const rows = await this.db
      .deleteFrom('training_matrix')
      .where('tenant_id', '=', tenant)
      .where('role_code', '=', role)
      .where('module_id', '=', moduleId)
      .returning(['role_code', 'module_id'])
      .execute();
    for (const r of rows) this.journal.remove('training_matrix', matrixId(r));
    return rows.length;
  }

  // ---------------------------------------------------------------- assignments
  private assignments() {
    return this.db
      .selectFrom('training_assignment as a')
      .innerJoin('training_module as m', 'm.id', 'a.module_id')
      .selectAll('a')
      .select(['m.module_code', 'm.title as module_title']);
  }

  userAssignments(tenant: string, userId: string) {
    return this.db
      .selectFrom('training_assignment')
      .select(['module_id', 'status', 'valid_until'])
      .where('tenant_id', '=', tenant)
      .where('user_id', '=', userId)
      .execute();
  }

  /**
   * The bulk path of compute (a staff list writes hundreds of thousands of rows) records the rows as it built them
   * rather than as RETURNING answers them: it gives every column, so they are the rows stored, and RETURNING on every
   * batch doubled SQLite's time for the statement. Which were written is asked only after a race (see below).
   */
  async insertAssignments(rows: AssignmentRecord[], audits: Map<string, AuditRecord>) {
    const written: string[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      let batch = rows.slice(i, i + BATCH).map(newAssignmentRow);
      // the unique index on open assignments (PostgreSQL) turns a concurrent compute's duplicate into nothing written
      const r = await this.db
        .insertInto('training_assignment')
        .values(batch)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      // only after such a race: which were written (the ids are new, so each one found is one of ours)
      if (Number(r.numInsertedOrUpdatedRows ?? batch.length) !== batch.length) {
        const found = await this.db
          .selectFrom('training_assignment')
          .select('id')
          .where(
            'id',
            'in',
            batch.map((a) => a.id),
          )
          .execute();
        const ids = new Set(found.map((x) => x.id));
        batch = batch.filter((a) => ids.has(a.id));
      }
      this.put('training_assignment', batch, 'insert');
      const entries = batch.map((a) => audits.get(a.id)).filter((e): e is AuditRecord => !!e);
      if (entries.length) await this.appendAudit(entries);
      for (const a of batch) written.push(a.id);
    }
    return written;
  }

  async getAssignment(tenant: string, id: string) {
    const r = await this.assignments().where('a.tenant_id', '=', tenant).where('a.id', '=', id).executeTakeFirst();
    return r && (assignmentFromRow(r) as AssignmentView);
  }

  async assignmentsByIds(ids: string[]) {
    if (!ids.length) return [];
    // only ids just created for this tenant: no tenant filter, which would steer SQLite onto a tenant-wide index scan
    const rows = await this.assignments().where('a.id', 'in', ids).execute();
    return rows.map((r) => assignmentFromRow(r) as AssignmentView);
  }

  async listAssignments(tenant: string, f: AssignmentFilter) {
    const at = f.at;
    let s = this.assignments().where('a.tenant_id', '=', tenant);
    if (f.user_id) s = s.where('a.user_id', '=', f.user_id);
    if (f.module_id) s = s.where('a.module_id', '=', f.module_id);
    if (f.role) s = s.where('a.role_code', '=', f.role);
    switch (f.status) {
      case 'pending':
      case 'in_progress':
        s = s.where('a.status', '=', f.status).where('a.deadline', '>=', at);
        break;
      case 'overdue':
        s = s.where('a.status', 'in', OPEN).where('a.deadline', '<', at);
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
    const rows = await s.orderBy('a.id', 'desc').limit(f.limit).offset(f.offset).execute();
    return rows.map((r) => assignmentFromRow(r) as AssignmentView);
  }

  async openAssignments(tenant: string, at: string, which: 'overdue' | 'upcoming', limit?: number) {
    let s = this.assignments()
      .where('a.tenant_id', '=', tenant)
      .where('a.status', 'in', OPEN)
      .where('a.deadline', which === 'overdue' ? '<' : '>=', at)
      .orderBy('a.deadline');
    if (limit !== undefined) s = s.limit(limit);
    const rows = await s.execute();
    return rows.map((r) => assignmentFromRow(r) as AssignmentView);
  }

  escalationCandidates(tenant: string, at: string) {
    return this.db
      .selectFrom('training_assignment as a')
      .innerJoin('training_module as m', 'm.id', 'a.module_id')
      .select([
        'a.id',
        'a.user_name',
        'a.user_email',
        'a.manager_email',
        'a.deadline',
        'a.escalation_level',
        'm.title as module_title',
        'm.title_en as module_title_en',
      ])
      .where('a.tenant_id', '=', tenant)
      .where('a.status', 'in', OPEN)
      .where('a.deadline', '<', at)
      .execute();
  }

  async updateAssignment(tenant: string, id: string, set: Partial<AssignmentRecord>, fromStatus?: string[]) {
    let q = this.db
      .updateTable('training_assignment')
      .set(assignmentToRow(set))
      .where('tenant_id', '=', tenant)
      .where('id', '=', id);
    if (fromStatus) q = q.where('status', 'in', fromStatus);
    // a conditional update that found its row in another status changed nothing, and records nothing
    const rows = await q.returningAll().execute();
    this.put('training_assignment', rows, 'update');
    return rows.length > 0;
  }

  async raiseEscalation(tenant: string, ids: string[], level: number, at: string) {
    const raised: string[] = [];
    for (let i = 0; i < ids.length; i += BATCH) {
      // conditional: a replica that escalated the same assignment meanwhile leaves nothing to raise here. The tenant
      // is named, as in every statement that changes a row, in a form no index serves: a plain filter on it would
      // steer SQLite off the primary key
      const rows = await this.db
        .updateTable('training_assignment')
        .set({ escalation_level: level, updated_at: at })
        .where('id', 'in', ids.slice(i, i + BATCH))
        .where(sql<string>`${sql.ref('tenant_id')} || ''`, '=', tenant)
        .where('escalation_level', '<', level)
        .returningAll()
        .execute();
      this.put('training_assignment', rows, 'update');
      for (const r of rows) raised.push(r.id);
    }
    return raised;
  }

  // ---------------------------------------------------------------- quiz
  async insertAttempt(a: QuizAttemptRecord) {
    const rows = await this.db
      .insertInto('training_quiz_attempt')
      .values({ ...a, passed: a.passed ? 1 : 0, answers: JSON.stringify(a.answers) })
      .returningAll()
      .execute();
    this.put('training_quiz_attempt', rows, 'insert');
  }

  async attempts(tenant: string, assignmentId: string) {
    const rows = await this.db
      .selectFrom('training_quiz_attempt')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('assignment_id', '=', assignmentId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(attemptFromRow);
  }

  async bestPassedScore(tenant: string, assignmentId: string) {
    const best = await this.db
      .selectFrom('training_quiz_attempt')
      .select((eb) => eb.fn.max('score').as('s'))
      .where('tenant_id', '=', tenant)
      .where('assignment_id', '=', assignmentId)
      .where('passed', '=', 1)
      .executeTakeFirst();
    return Number(best?.s ?? 0);
  }

  // ---------------------------------------------------------------- certificates
  certificateOfAssignment(tenant: string, assignmentId: string) {
    return this.db
      .selectFrom('training_certificate')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('assignment_id', '=', assignmentId)
      .executeTakeFirst();
  }

  async insertCertificate(c: CertificateRecord) {
    const rows = await this.db
      .insertInto('training_certificate')
      .values(c)
      .onConflict((oc) => oc.column('assignment_id').doNothing())
      .returningAll()
      .execute();
    this.put('training_certificate', rows, 'insert');
    return rows.length > 0;
  }

  certificates(tenant: string) {
    return this.db
      .selectFrom('training_certificate')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('id', 'desc')
      .execute();
  }

  certificate(tenant: string, id: string) {
    return this.db
      .selectFrom('training_certificate')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The certificate whose signature starts with the printed verification code (its first 16 hex digits). */
  certificateByCode(tenant: string, code: string) {
    return this.db
      .selectFrom('training_certificate')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('signature', 'like', `${code.toLowerCase()}%`)
      .executeTakeFirst();
  }

  /**
   * Not journaled, like every row of `setting`: the key is the store's, not a tenant's (a tenant's journal would hand
   * it to whoever reads that journal, and verifying every other tenant's certificates needs it), and it is a secret
   * that must not be copied into a change feed. Which key signed is evidence enough: certificates verify against it.
   */
  async signingKey(generate: () => string): Promise<string> {
    const read = () =>
      this.db.selectFrom('setting').select('value').where('key', '=', 'certificate_key').executeTakeFirst();
    const row = await read();
    if (row) return row.value;
    await this.db
      .insertInto('setting')
      .values({ key: 'certificate_key', value: generate() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await read())!.value;
  }

  // ---------------------------------------------------------------- audit and statistics
  /** Audit rows are written whole (every column given) and all or none: the rows built are the rows stored. */
  async appendAudit(entries: AuditRecord[]) {
    for (let i = 0; i < entries.length; i += BATCH) {
      const rows = entries.slice(i, i + BATCH).map(auditToRow);
      await this.db.insertInto('training_audit').values(rows).execute();
      this.put('training_audit', rows, 'insert');
    }
  }

  async auditLog(tenant: string, q: { action?: string; entity_type?: string; limit: number; offset: number }) {
    let s = this.db.selectFrom('training_audit').selectAll().where('tenant_id', '=', tenant);
    if (q.action) s = s.where('action', '=', q.action);
    if (q.entity_type) s = s.where('entity_type', '=', q.entity_type);
    const rows = await s.orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    return rows.map((r) => ({ ...r, details: JSON.parse(r.details) }) as AuditEntry);
  }

  async counts(tenant: string, at: string, soon: string): Promise<TrainingCounts> {
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
        sql<number | null>`avg(case when status = 'completed' then ${engineFor(this.db).daysBetween(
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
    return {
      modules: Number(modules.n),
      total: Number(a.total),
      overdue: Number(a.overdue ?? 0),
      pending: Number(a.pending ?? 0),
      in_progress: Number(a.in_progress ?? 0),
      completed: Number(a.completed ?? 0),
      upcoming: Number(a.upcoming ?? 0),
      avg_completion_days: Number(a.days ?? 0),
      avg_quiz_score: Number(quiz.s ?? 0),
    };
  }
}
