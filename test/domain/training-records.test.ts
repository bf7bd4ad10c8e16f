import { beforeAll, describe, expect, it } from 'vitest';
import type { ModuleCreate } from '../../src/domain/training/training.schema.js';
import { initials, TrainingService } from '../../src/domain/training/training.service.js';
import type { TrainingStore } from '../../src/domain/training/training-store.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import type { Store } from '../../src/store/store.js';
import { sqliteUnitOfWork, withStore, wrapWrites } from '../support/unit-of-work.js';
import { failure } from '../support/helpers.js';

// What the training service writes into the records a user reads (assignments, attempts, certificates, audit entries)
// and what its refusals say, on the SQLite store with a clock the tests move.
const DAY = 86_400_000;
const START = new Date('2026-03-02T08:00:00.000Z');
const at = (days: number) => new Date(START.getTime() + days * DAY).toISOString();
const KEY = 'ab'.repeat(32);

let store: Store;
let uow: UnitOfWork;
let now = START;
let n = 0;
// shaped like the store's UUIDs: the tail of one looks like a verification code without dashes
const ids = { next: () => `0190a1b2-c3d4-7e5f-8a9b-${String(++n).padStart(12, '0')}` };
const clock = { now: () => new Date(now) };
const svc = () => new TrainingService(uow, clock, ids, () => KEY);
const T = 'records';

const QUESTIONS = [
  { question: 'Eins?', options: ['a', 'b'], correct_index: 0, explanation: 'weil' },
  { question: 'Zwei?', options: ['a', 'b', 'c'], correct_index: 2, explanation: 'darum' },
  { question: 'Drei?', options: ['a', 'b'], correct_index: 1, explanation: '' },
];
const module = (code: string, extra: Partial<ModuleCreate> = {}): ModuleCreate => ({
  module_code: code,
  title: `Modul ${code}`,
  description: '',
  regulation_area: 'dsgvo',
  frequency_type: 'annual',
  duration_minutes: 30,
  pass_threshold: 60,
  validity_days: 200,
  questions: QUESTIONS,
  ...extra,
});
const user = (id: string, roles: string[], extra = {}) => ({
  user_id: id,
  user_name: `Name ${id}`,
  user_email: `${id}@example.com`,
  roles: roles as never,
  deadline_days: 30,
  ...extra,
});
const audit = async (action: string, tenant = T) =>
  (await svc().auditLog(tenant, { action, limit: 500, offset: 0 })).map(({ id: _id, tenant_id: _t, ...e }) => e);

beforeAll(async () => {
  ({ store, uow } = await sqliteUnitOfWork(clock, ids));
});

describe('initials: enough to match a certificate to its holder', () => {
  it.each([
    ['Erika Mustermann', 'E. M.'],
    ['  erika   von  mustermann ', 'E. V. M.'],
    ['Ömer', 'Ö.'],
    ['', ''],
  ])('%j -> %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe('modules and the role matrix', () => {
  it('orders the matrix by role number, then priority, then module code', async () => {
    const t = svc();
    const tenant = 'matrix';
    const ids: Record<string, string> = {};
    for (const code of ['B', 'A', 'C']) ids[code] = (await t.createModule(tenant, 'hr', module(code))).id;
    for (const [role, code, priority] of [
      ['R10', 'A', 1],
      ['R2', 'C', 5],
      ['R2', 'B', 5],
      ['R2', 'A', 9],
      ['R1', 'C', 3],
    ] as const) {
      const set = await t.setMatrix(tenant, { role_code: role, module_id: ids[code]!, is_mandatory: false, priority });
      expect(set).toMatchObject({ role_code: role, module_code: code, priority }); // the row set, not the role's first
    }
    expect((await t.matrix(tenant)).map((e) => `${e.role_code}:${e.priority}:${e.module_code}`)).toEqual([
      'R1:3:C',
      'R2:5:B',
      'R2:5:C',
      'R2:9:A',
      'R10:1:A',
    ]);
    expect(
      await t.setMatrix(tenant, { role_code: 'R2', module_id: ids['A']!, is_mandatory: true, priority: 2 }),
    ).toEqual({
      role_code: 'R2',
      module_id: ids['A'],
      module_code: 'A',
      module_title: 'Modul A',
      is_mandatory: true,
      priority: 2,
    });
    expect(await t.unsetMatrix(tenant, 'R2', ids['A']!)).toEqual({
      success: true,
      message: `R2 no longer assigned module ${ids['A']}`,
    });
    const e = await failure(t.unsetMatrix(tenant, 'R2', ids['A']!));
    expect(e).toMatchObject({ code: 'not_found', message: `matrix entry R2/${ids['A']} not found` });
  });

  it('says which module holds a code and why a module cannot be deleted', async () => {
    const t = svc();
    const tenant = 'modules';
    const a = await t.createModule(tenant, 'hr', module('X-1'));
    const b = await t.createModule(tenant, 'hr', module('X-2', { questions: undefined }));
    expect(b.question_count).toBe(0);
    expect(a.questions.map((q) => [q.position, q.question])).toEqual([
      [0, 'Eins?'],
      [1, 'Zwei?'],
      [2, 'Drei?'],
    ]);
    const clash = await failure(t.updateModule(tenant, b.id, { module_code: 'X-1' }));
    expect(clash).toMatchObject({
      code: 'conflict',
      message: `module_code X-1 is already used by module ${a.id}`,
      details: [{ path: 'module_code', message: 'already used' }],
    });
    // a module keeps its own code
    now = new Date(START.getTime() + 60_000);
    const same = await t.updateModule(tenant, a.id, { module_code: 'X-1', title: 'Neu' });
    expect(same).toMatchObject({ title: 'Neu', created_at: START.toISOString(), updated_at: now.toISOString() });
    expect(same.question_count).toBe(3); // questions untouched when not given
    now = START;
    await t.setMatrix(tenant, { role_code: 'R9', module_id: a.id, is_mandatory: true, priority: 1 });
    await t.compute(tenant, 'hr', user('u', ['R9']));
    const refused = await failure(t.deleteModule(tenant, a.id));
    expect(refused).toMatchObject({
      code: 'conflict',
      message: `module ${a.id} has 1 assignment(s) and cannot be deleted`,
    });
    expect(await t.deleteModule(tenant, b.id)).toEqual({ success: true, message: `module ${b.id} deleted` });
    expect((await failure(t.deleteModule(tenant, b.id))).code).toBe('not_found');
  });
});

describe('assignments', () => {
  let a1 = '';
  let a2 = '';
  beforeAll(async () => {
    const t = svc();
    a1 = (await t.createModule(T, 'hr', module('A-1'))).id;
    a2 = (await t.createModule(T, 'hr', module('A-2', { validity_days: 10 }))).id;
    await t.setMatrix(T, { role_code: 'R9', module_id: a1, is_mandatory: true, priority: 1 });
    await t.setMatrix(T, { role_code: 'R8', module_id: a1, is_mandatory: true, priority: 2 });
    await t.setMatrix(T, { role_code: 'R8', module_id: a2, is_mandatory: false, priority: 3 });
  });

  it('writes a pending assignment per module, deadline days from now, and one audit entry each', async () => {
    now = START;
    const r = await svc().compute(T, 'hr', user('anna', ['R9', 'R8'], { deadline_days: 14, trigger: 'onboarding' }));
    expect(r.created).toBe(2);
    const byModule = new Map(r.assignments.map((a) => [a.module_id, a]));
    expect(byModule.get(a1)).toEqual({
      id: expect.any(String),
      tenant_id: T,
      module_id: a1,
      module_code: 'A-1',
      module_title: 'Modul A-1',
      user_id: 'anna',
      user_name: 'Name anna',
      manager_email: null,
      user_email: 'anna@example.com',
      role_code: 'R9', // the matrix row of higher priority
      status: 'pending',
      progress_percent: 0,
      deadline: at(14),
      escalation_level: 0,
      quiz_passed: false,
      certificate_id: null,
      started_at: null,
      completed_at: null,
      valid_until: null,
      created_at: START.toISOString(),
      updated_at: START.toISOString(),
    });
    expect(byModule.get(a2)).toMatchObject({ role_code: 'R8', deadline: at(14) });
    const entries = await audit('assigned');
    expect(entries).toHaveLength(2);
    expect(entries).toContainEqual({
      action: 'assigned',
      entity_type: 'assignment',
      entity_id: byModule.get(a1)!.id,
      actor: 'hr',
      details: { user_id: 'anna', module_id: a1, role: 'R9', trigger: 'onboarding' },
      created_at: START.toISOString(),
    });
  });

  it('audits a computation without trigger as manual, by "system" when no actor is known', async () => {
    const r = await svc().compute(T, undefined, user('bert', ['R9']));
    const [entry] = (await audit('assigned')).filter((e) => e.entity_id === r.assignments[0]!.id);
    expect(entry).toMatchObject({ actor: 'system', details: { trigger: 'manual', role: 'R9', user_id: 'bert' } });
  });

  it('lists assignments with their status as of a given moment', async () => {
    const [a] = await svc().listAssignments(T, { user_id: 'anna', module_id: a1, limit: 50, offset: 0 });
    const asOf = (ms: number) => new Date(Date.parse(a!.deadline) + ms).toISOString();
    expect(
      (await svc().listAssignments(T, { user_id: 'anna', module_id: a1, limit: 50, offset: 0, as_of: asOf(0) }))[0]!
        .status,
    ).toBe('pending');
    expect(
      (await svc().listAssignments(T, { user_id: 'anna', module_id: a1, limit: 50, offset: 0, as_of: asOf(1) }))[0]!
        .status,
    ).toBe('overdue');
  });

  it('assigns nothing for roles without matrix rows', async () => {
    expect(await svc().compute(T, 'hr', user('carl', ['R1']))).toEqual({ assignments: [], created: 0 });
  });

  it('computes a staff list in one go and answers counts', async () => {
    expect(
      await svc().computeMany(T, 'hr', [user('dora', ['R8']), user('emil', ['R9']), user('dora', ['R9', 'R8'])]),
    ).toEqual({ users: 3, created: 3 });
    expect(
      (await svc().listAssignments(T, { user_id: 'dora', limit: 50, offset: 0 })).map((a) => a.module_id).sort(),
    ).toEqual([a1, a2].sort());
  });

  it('keeps a completed assignment until its validity ends, then assigns the module again', async () => {
    const t = svc();
    now = START;
    const [a] = (await t.compute(T, 'hr', user('fred', ['R8']))).assignments.filter((x) => x.module_id === a2);
    await t.start(T, 'hr', a!.id);
    const done = await t.complete(T, 'hr', a!.id);
    expect(done.valid_until).toBe(at(10));
    now = new Date(at(10)); // valid until this very moment: still covered
    expect((await t.compute(T, 'hr', user('fred', ['R8']))).created).toBe(0);
    now = new Date(Date.parse(at(10)) + 1);
    const again = await t.compute(T, 'hr', user('fred', ['R8']));
    expect(again.assignments.map((x) => x.module_id)).toEqual([a2]);
    now = START;
  });

  it('moves a deadline: a later one lowers the escalation level to what it reaches today, an earlier one never raises it', async () => {
    const t = svc();
    now = START;
    const [a] = (await t.compute(T, 'hr', user('gina', ['R9'], { deadline_days: 1 }))).assignments;
    now = new Date(Date.parse(at(1)) + 31 * DAY);
    await t.escalate(T, 'ci', { dry_run: false });
    expect((await t.getAssignment(T, a!.id)).escalation_level).toBe(3);
    // 8 days overdue after the move: level 1
    const moved = await t.updateAssignment(T, a!.id, { deadline: new Date(now.getTime() - 8 * DAY).toISOString() });
    expect(moved).toMatchObject({ escalation_level: 1, updated_at: now.toISOString() });
    // an earlier deadline again: the level stays
    const earlier = await t.updateAssignment(T, a!.id, { deadline: new Date(now.getTime() - 40 * DAY).toISOString() });
    expect(earlier.escalation_level).toBe(1);
    const renamed = await t.updateAssignment(T, a!.id, { user_name: 'Gina Neu', user_email: 'neu@example.com' });
    expect(renamed).toMatchObject({ user_name: 'Gina Neu', user_email: 'neu@example.com', escalation_level: 1 });
    expect(renamed.deadline).toBe(earlier.deadline);
    now = START;
  });
});

describe('the way of an assignment: start, progress, complete', () => {
  let mod = '';
  beforeAll(async () => {
    mod = (await svc().createModule('way', 'hr', module('W-1', { validity_days: 100 }))).id;
    await svc().setMatrix('way', { role_code: 'R9', module_id: mod, is_mandatory: true, priority: 1 });
  });
  const assign = async (id: string) => (await svc().compute('way', 'hr', user(id, ['R9']))).assignments[0]!;
  const entries = async (id: string) =>
    (await svc().auditLog('way', { entity_type: 'assignment', limit: 500, offset: 0 }))
      .filter((e) => e.entity_id === id)
      .map((e) => [e.action, e.actor, e.details, e.created_at]);

  it('starts a pending assignment once and says why a second start is refused', async () => {
    now = START;
    const a = await assign('s1');
    now = new Date(at(1));
    const started = await svc().start('way', 'lea', a.id);
    expect(started).toMatchObject({ status: 'in_progress', started_at: at(1), updated_at: at(1) });
    const e = await failure(svc().start('way', 'lea', a.id));
    expect(e).toMatchObject({
      code: 'conflict',
      message: `assignment ${a.id} is in_progress; only a pending assignment can be started`,
    });
    now = new Date(at(3));
    const done = await svc().complete('way', 'lea', a.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress_percent: 100,
      completed_at: at(3),
      valid_until: at(103),
      updated_at: at(3),
    });
    expect((await failure(svc().start('way', 'lea', a.id))).message).toBe(
      `assignment ${a.id} is completed; only a pending assignment can be started`,
    );
    expect(await entries(a.id)).toEqual([
      ['completed', 'lea', {}, at(3)],
      ['started', 'lea', {}, at(1)],
      ['assigned', 'hr', expect.any(Object), START.toISOString()],
    ]);
    now = START;
  });

  it('the first progress starts a pending assignment; later progress only moves the percentage', async () => {
    now = START;
    const a = await assign('p1');
    now = new Date(at(2));
    expect(await svc().progress('way', 'lea', a.id, 25)).toMatchObject({
      status: 'in_progress',
      progress_percent: 25,
      started_at: at(2),
      updated_at: at(2),
    });
    now = new Date(at(4));
    expect(await svc().progress('way', 'lea', a.id, 60)).toMatchObject({
      status: 'in_progress',
      progress_percent: 60,
      started_at: at(2),
      updated_at: at(4),
    });
    expect(await entries(a.id)).toEqual([
      ['started', 'lea', { by: 'progress' }, at(2)],
      ['assigned', 'hr', expect.any(Object), START.toISOString()],
    ]);
    await svc().complete('way', 'lea', a.id);
    const e = await failure(svc().progress('way', 'lea', a.id, 70));
    expect(e).toMatchObject({
      code: 'conflict',
      message: `assignment ${a.id} is completed; progress can no longer change`,
    });
    now = new Date(at(200)); // expired: still completed underneath
    expect((await failure(svc().progress('way', 'lea', a.id, 70))).message).toBe(
      `assignment ${a.id} is expired; progress can no longer change`,
    );
    now = START;
  });

  it('completes only an assignment in progress, overdue ones included', async () => {
    now = START;
    const a = await assign('c1');
    const e = await failure(svc().complete('way', 'lea', a.id));
    expect(e).toMatchObject({
      code: 'conflict',
      message: `assignment ${a.id} is pending; only an assignment in progress can be completed (start it first)`,
    });
    now = new Date(at(40)); // deadline was 30 days after START
    expect((await svc().start('way', 'lea', a.id)).status).toBe('overdue');
    expect((await svc().progress('way', 'lea', a.id, 50)).progress_percent).toBe(50);
    expect(await svc().complete('way', 'lea', a.id)).toMatchObject({ status: 'completed', valid_until: at(140) });
    now = START;
  });
});

describe('quizzes', () => {
  let mod = '';
  let assignment = '';
  let qids: string[] = [];
  beforeAll(async () => {
    now = START;
    mod = (await svc().createModule('quiz', 'hr', module('Q-1'))).id;
    await svc().setMatrix('quiz', { role_code: 'R9', module_id: mod, is_mandatory: true, priority: 1 });
    assignment = (await svc().compute('quiz', 'hr', user('q', ['R9']))).assignments[0]!.id;
  });

  it('shows a learner the questions and the pass mark, never the answers', async () => {
    const quiz = await svc().learnerQuiz('quiz', mod);
    expect(quiz).toEqual({
      module_id: mod,
      pass_threshold: 60,
      questions: QUESTIONS.map((q, position) => ({
        id: expect.any(String),
        module_id: mod,
        position,
        question: q.question,
        options: q.options,
      })),
    });
    qids = quiz.questions.map((q) => q.id);
  });

  it('records each attempt, marks the assignment only when passed, and audits the score', async () => {
    now = new Date(at(1));
    const failed = await svc().submitQuiz('quiz', 'lea', mod, {
      assignment_id: assignment,
      answers: [{ question_id: qids[0]!, selected_index: 0 }],
    });
    expect(failed).toEqual({
      attempt_id: expect.any(String),
      score: 33.3,
      passed: false,
      correct_count: 1,
      total_count: 3,
      threshold: 60,
    });
    expect((await svc().getAssignment('quiz', assignment)).quiz_passed).toBe(false);
    now = new Date(at(2));
    const passed = await svc().submitQuiz('quiz', 'lea', mod, {
      assignment_id: assignment,
      answers: [
        { question_id: qids[0]!, selected_index: 0 },
        { question_id: qids[1]!, selected_index: 2 },
      ],
      duration_seconds: 95,
    });
    expect(passed).toMatchObject({ score: 66.7, passed: true, correct_count: 2 });
    expect(await svc().getAssignment('quiz', assignment)).toMatchObject({ quiz_passed: true, updated_at: at(2) });
    expect(await svc().attempts('quiz', assignment)).toEqual([
      {
        attempt_id: passed.attempt_id,
        assignment_id: assignment,
        module_id: mod,
        score: 66.7,
        passed: true,
        correct_count: 2,
        total_count: 3,
        threshold: 60,
        duration_seconds: 95,
        created_at: at(2),
      },
      expect.objectContaining({ attempt_id: failed.attempt_id, duration_seconds: null, created_at: at(1) }),
    ]);
    expect(await audit('quiz_submitted', 'quiz')).toEqual([
      {
        action: 'quiz_submitted',
        entity_type: 'quiz',
        entity_id: passed.attempt_id,
        actor: 'lea',
        details: { assignment_id: assignment, score: 66.7, passed: true },
        created_at: at(2),
      },
      expect.objectContaining({
        entity_id: failed.attempt_id,
        details: { assignment_id: assignment, score: 33.3, passed: false },
      }),
    ]);
    now = START;
  });

  it('refuses an assignment of another module, naming both', async () => {
    const other = (await svc().createModule('quiz', 'hr', module('Q-2'))).id;
    const e = await failure(svc().submitQuiz('quiz', 'lea', other, { assignment_id: assignment, answers: [] }));
    expect(e).toMatchObject({
      code: 'validation',
      message: `assignment ${assignment} is for module ${mod}, not ${other}`,
      details: [{ path: 'assignment_id', message: 'belongs to another module' }],
    });
  });
});

describe('escalation', () => {
  const E = 'escalation';
  let ids: string[] = [];
  beforeAll(async () => {
    now = START;
    const mod = (await svc().createModule(E, 'hr', module('E-1'))).id;
    await svc().setMatrix(E, { role_code: 'R9', module_id: mod, is_mandatory: true, priority: 1 });
    ids = [];
    // deadlines 1, 2, 3 and 4 days after START
    for (const d of [1, 2, 3, 4])
      ids.push((await svc().compute(E, 'hr', user(`e${d}`, ['R9'], { deadline_days: d }))).assignments[0]!.id);
  });

  it('raises each overdue assignment to the level its days reach, audits each raise, and reports the step', async () => {
    // as of 4 + 45 days: 48, 47, 46, 45 days overdue -> all level 4; as of 1 + 14: 14, 13, 12, 11 -> 2, 1, 1, 1
    now = new Date(at(30));
    const asOf = new Date(Date.parse(at(1)) + 14 * DAY).toISOString();
    const dry = await svc().escalate(E, 'ci', { as_of: asOf, dry_run: true });
    expect(dry).toEqual({
      notifications: expect.objectContaining({ queued: 0 }),
      results: [
        {
          assignment_id: ids[0],
          user_name: 'Name e1',
          module_title: 'Modul E-1',
          previous_level: 0,
          new_level: 2,
          days_overdue: 14,
          escalation_label: 'notify_team_lead',
        },
        ...[13, 12, 11].map((days, i) =>
          expect.objectContaining({ assignment_id: ids[i + 1], new_level: 1, days_overdue: days }),
        ),
      ],
      total_checked: 4,
      escalated: 4,
      dry_run: true,
      as_of: asOf,
    });
    expect(await audit('escalated', E)).toEqual([]);
    const real = await svc().escalate(E, 'ci', { as_of: asOf, dry_run: false });
    expect(real).toMatchObject({ escalated: 4, dry_run: false, as_of: asOf });
    expect(
      (await svc().listAssignments(E, { limit: 50, offset: 0 })).map((a) => [a.id, a.escalation_level]).sort(),
    ).toEqual(
      [
        [ids[0], 2],
        [ids[1], 1],
        [ids[2], 1],
        [ids[3], 1],
      ].sort(),
    );
    const entries = await audit('escalated', E);
    expect(entries).toHaveLength(4);
    expect(entries).toContainEqual({
      action: 'escalated',
      entity_type: 'assignment',
      entity_id: ids[0],
      actor: 'ci',
      details: { previous_level: 0, new_level: 2, days_overdue: 14, label: 'notify_team_lead' },
      created_at: at(30), // when it ran, not the as_of it was asked for
    });
    // the clock's now when no as_of is given: 29, 28, 27, 26 days -> 2 for all; level 2 already reached by the first
    const later = await svc().escalate(E, undefined, { dry_run: false });
    expect(later).toMatchObject({ total_checked: 4, escalated: 3, as_of: at(30) });
    expect(later.results.map((r) => [r.assignment_id, r.previous_level, r.new_level])).toEqual([
      [ids[1], 1, 2],
      [ids[2], 1, 2],
      [ids[3], 1, 2],
    ]);
    expect((await audit('escalated', E)).filter((e) => e.actor === 'system')).toHaveLength(3);
    now = new Date(at(50)); // 49..46 days: level 4 for all, skipping 3
    expect(
      (await svc().escalate(E, 'ci', { dry_run: false })).results.map((r) => [r.new_level, r.escalation_label]),
    ).toEqual(Array(4).fill([4, 'notify_compliance_officer']));
    expect((await svc().escalate(E, 'ci', { dry_run: false })).escalated).toBe(0);
    now = START;
  });

  it('lists overdue assignments with their days and upcoming ones soonest first', async () => {
    const asOf = new Date(Date.parse(at(2)) + 3 * DAY + 1).toISOString(); // e1 4 days, e2 3 days overdue
    const overdue = await svc().overdue(E, asOf);
    expect(overdue.map((a) => [a.id, a.status, a.days_overdue]).sort()).toEqual(
      [
        [ids[0], 'overdue', 4],
        [ids[1], 'overdue', 3],
        [ids[2], 'overdue', 2],
        [ids[3], 'overdue', 1],
      ].sort(),
    );
    const upcoming = await svc().upcoming(E, 2, at(2));
    expect(upcoming.map((a) => [a.id, a.status])).toEqual([
      [ids[1], 'pending'],
      [ids[2], 'pending'],
    ]);
    now = new Date(at(3));
    expect((await svc().upcoming(E, 10)).map((a) => a.id)).toEqual([ids[2], ids[3]]);
    expect((await svc().overdue(E)).map((a) => a.id).sort()).toEqual([ids[0], ids[1]].sort());
    now = START;
  });
});

describe('certificates', () => {
  const C = 'certs';
  let mod = '';
  let qids: string[] = [];
  beforeAll(async () => {
    now = START;
    mod = (await svc().createModule(C, 'hr', module('Z-1', { validity_days: 100 }))).id;
    await svc().setMatrix(C, { role_code: 'R9', module_id: mod, is_mandatory: true, priority: 1 });
    qids = (await svc().learnerQuiz(C, mod)).questions.map((q) => q.id);
  });
  const assign = async (id: string, name = `Name ${id}`) =>
    (await svc().compute(C, 'hr', user(id, ['R9'], { user_name: name }))).assignments[0]!.id;
  const answer = (assignment_id: string, right: number) =>
    svc().submitQuiz(C, 'lea', mod, {
      assignment_id,
      answers: [0, 2, 1].slice(0, right).map((selected_index, i) => ({ question_id: qids[i]!, selected_index })),
    });

  it('says what a certificate still needs', async () => {
    const a = await assign('k1');
    expect((await failure(svc().generateCertificate(C, 'lea', a))).message).toBe(
      `assignment ${a} is pending and its quiz is not passed; a certificate needs a completed assignment with a passed quiz`,
    );
    await answer(a, 3);
    expect((await failure(svc().generateCertificate(C, 'lea', a))).message).toBe(
      `assignment ${a} is pending; a certificate needs a completed assignment with a passed quiz`,
    );
    const b = await assign('k2');
    await svc().start(C, 'lea', b);
    await svc().complete(C, 'lea', b);
    expect(await failure(svc().generateCertificate(C, 'lea', b))).toMatchObject({
      code: 'conflict',
      message: `assignment ${b} is completed and its quiz is not passed; a certificate needs a completed assignment with a passed quiz`,
    });
  });

  it('issues a signed certificate with the best passed score and the assignment validity, once', async () => {
    now = START;
    const a = await assign('k3', 'Erika Mustermann');
    await svc().start(C, 'lea', a);
    await answer(a, 2); // 66.7, passed
    await answer(a, 3); // 100
    await answer(a, 1); // 33.3, failed
    now = new Date(at(5));
    await svc().complete(C, 'lea', a);
    now = new Date(at(6));
    const issued = await svc().generateCertificate(C, 'lea', a);
    expect(issued).toEqual({
      certificate_id: expect.any(String),
      verification_code: expect.stringMatching(/^[0-9A-F]{4}(-[0-9A-F]{4}){3}$/),
      assignment: {
        id: a,
        status: 'completed',
        quiz_passed: true,
        certificate_id: issued.certificate_id,
        module_title: 'Modul Z-1',
      },
    });
    const cert = await svc().certificate(C, issued.certificate_id);
    expect(cert.verification_code).toBe(issued.verification_code);
    expect(cert).toEqual({
      id: issued.certificate_id,
      tenant_id: C,
      assignment_id: a,
      user_id: 'k3',
      user_name: 'Erika Mustermann',
      module_id: mod,
      module_code: 'Z-1',
      module_title: 'Modul Z-1',
      score: 100,
      issued_at: at(6),
      valid_until: at(105),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      verification_code: cert.signature.slice(0, 16).toUpperCase().match(/.{4}/g)!.join('-'),
    });
    expect(await svc().getAssignment(C, a)).toMatchObject({ certificate_id: cert.id, updated_at: at(6) });
    expect(await audit('certificate_issued', C)).toEqual([
      {
        action: 'certificate_issued',
        entity_type: 'certificate',
        entity_id: cert.id,
        actor: 'lea',
        details: { assignment_id: a },
        created_at: at(6),
      },
    ]);
    now = new Date(at(7));
    expect((await svc().generateCertificate(C, 'lea', a)).certificate_id).toBe(cert.id);
    expect(await audit('certificate_issued', C)).toHaveLength(1);
    expect((await svc().certificates(C)).map((c) => [c.id, c.verification_code])).toEqual([
      [cert.id, cert.verification_code],
    ]);

    // verified by id or by the printed code, with or without dashes, in either case
    for (const ref of [cert.id, cert.verification_code, cert.verification_code.replaceAll('-', '').toLowerCase()])
      expect(await svc().verify(C, ref)).toMatchObject({
        valid: true,
        certificate: { id: cert.id },
        assignment: { id: a },
      });
    const pub = await svc().publicVerification(C, cert.verification_code);
    expect(pub).toEqual({
      valid: true,
      signature_valid: true,
      expired: false,
      module_code: 'Z-1',
      module_title: 'Modul Z-1',
      issued_at: at(6),
      valid_until: at(105),
      holder_initials: 'E. M.',
    });
    now = new Date(at(105)); // valid to the end of that moment
    expect((await svc().publicVerification(C, cert.verification_code)).valid).toBe(true);
    now = new Date(Date.parse(at(105)) + 1);
    expect(await svc().publicVerification(C, cert.verification_code)).toMatchObject({
      valid: false,
      signature_valid: true,
      expired: true,
    });
    now = START;
  });

  it('answers the certificate another replica issued for the assignment a moment earlier', async () => {
    // the store of a replica that loses the race: the rival's certificate is written just before ours
    const losing = (inner: TrainingStore): TrainingStore =>
      new Proxy(inner, {
        get(target, key: keyof TrainingStore) {
          if (key === 'insertCertificate')
            return async (c: Parameters<TrainingStore['insertCertificate']>[0]) =>
              (await target.insertCertificate({ ...c, id: `rival-of-${c.id}` })) && target.insertCertificate(c);
          const v = target[key];
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    now = START;
    const a = await assign('k5');
    await svc().start(C, 'lea', a);
    await answer(a, 3);
    await svc().complete(C, 'lea', a);
    const before = (await audit('certificate_issued', C)).length;
    const t = new TrainingService(
      wrapWrites(uow, (tx) => withStore(tx, 'training', losing(tx.training))),
      clock,
      ids,
      () => KEY,
    );
    const r = await t.generateCertificate(C, 'lea', a);
    expect(r.certificate_id).toMatch(/^rival-of-/);
    expect(r.assignment.certificate_id).toBe(r.certificate_id);
    expect(await audit('certificate_issued', C)).toHaveLength(before);
  });

  it('reads a certificate whose stored signature was cut short as not valid', async () => {
    now = START;
    const a = await assign('k4');
    await svc().start(C, 'lea', a);
    await answer(a, 3);
    await svc().complete(C, 'lea', a);
    const { certificate_id } = await svc().generateCertificate(C, 'lea', a);
    await store.db
      .updateTable('training_certificate')
      .set({ signature: 'abcd' })
      .where('id', '=', certificate_id)
      .execute();
    expect((await svc().verify(C, certificate_id)).valid).toBe(false);
  });

  it('answers 404 for an unknown certificate, naming what was looked for', async () => {
    const byCode = await failure(svc().verify(C, '0000-0000-0000-0000'));
    expect(byCode.code).toBe('not_found');
    expect(byCode.message).toContain('certificate with verification code 0000-0000-0000-0000');
    const byId = await failure(svc().certificate(C, 'nope'));
    expect(byId).toMatchObject({ code: 'not_found', message: 'certificate nope not found' });
    expect((await failure(svc().publicVerification(C, 'nope'))).message).not.toContain('verification code');
  });
});

describe('statistics', () => {
  it('rounds rates and averages to one decimal and answers 0 without assignments', async () => {
    const S = 'stats';
    now = START;
    expect(await svc().stats(S)).toEqual({
      total_modules: 0,
      total_assignments: 0,
      overdue_count: 0,
      pending_count: 0,
      in_progress_count: 0,
      completed_count: 0,
      upcoming_deadlines: 0,
      completion_rate: 0,
      avg_quiz_score: 0,
      avg_completion_days: 0,
    });
    const mod = (await svc().createModule(S, 'hr', module('S-1'))).id;
    await svc().setMatrix(S, { role_code: 'R9', module_id: mod, is_mandatory: true, priority: 1 });
    const ids = [];
    for (const [u, days] of [
      ['s1', 10],
      ['s2', 15],
      ['s3', 30],
    ] as const)
      ids.push((await svc().compute(S, 'hr', user(u, ['R9'], { deadline_days: days }))).assignments[0]!.id);
    await svc().start(S, 'hr', ids[0]!);
    now = new Date(at(2));
    await svc().complete(S, 'hr', ids[0]!);
    await svc().start(S, 'hr', ids[1]!);
    expect(await svc().stats(S)).toEqual({
      total_modules: 1,
      total_assignments: 3,
      overdue_count: 0,
      pending_count: 1,
      in_progress_count: 1,
      completed_count: 1,
      upcoming_deadlines: 1, // s2, due within 14 days from now
      completion_rate: 33.3,
      avg_quiz_score: 0,
      avg_completion_days: 2,
    });
    now = START;
  });
});
