import { beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';

// What training.contract.test.ts leaves out: module updates and deletes, list filters and paging, expiry and
// re-assignment, upcoming deadlines, tenant isolation of every id, and statistics with fixed clocks.
const DAY = 86_400_000;
const questions = [
  { question: 'Eins?', options: ['a', 'b'], correct_index: 0, explanation: 'weil' },
  { question: 'Zwei?', options: ['a', 'b', 'c'], correct_index: 2, explanation: 'darum' },
];

describe.each(BACKEND_NAMES)('training lifecycle on the %s backend', (name) => {
  const start = new Date('2026-01-10T08:00:00.000Z');
  let now = start;
  const clock = { now: () => new Date(now) };
  const T = { tenant: 'lifecycle', actor: 'hr' };
  const api = () => b.backend.training;
  const ids: Record<string, string> = {};
  const b = useBackend(name, { clock });
  beforeAll(async () => {
    for (const [code, area, validity] of [
      ['A-1', 'dsgvo', 30],
      ['B-1', 'nis2', 365],
      ['C-1', 'iso27001', 365],
    ] as const) {
      ids[code] = (
        await api().createModule({
          ...T,
          body: {
            module_code: code,
            title: `Modul ${code}`,
            description: `Beschreibung ${code}`,
            regulation_area: area,
            frequency_type: 'annual',
            validity_days: validity,
            questions,
          },
        })
      ).id;
    }
    await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: ids['A-1']!, is_mandatory: true, priority: 1 } });
    await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: ids['B-1']! } });
    await api().setMatrix({ ...T, body: { role_code: 'R8', module_id: ids['B-1']! } }); // reached twice: assigned once
    await api().setMatrix({ ...T, body: { role_code: 'R8', module_id: ids['C-1']! } });
  });

  it('updates modules: range checks (422), code clash (409), questions replaced', async () => {
    expect(
      (await failure(api().updateModule({ ...T, params: { id: ids['A-1']! }, body: { pass_threshold: 101 } }))).code,
    ).toBe('validation');
    expect(
      (await failure(api().updateModule({ ...T, params: { id: ids['A-1']! }, body: { pass_threshold: -1 } }))).code,
    ).toBe('validation');
    expect(
      (await failure(api().updateModule({ ...T, params: { id: ids['A-1']! }, body: { module_code: 'B-1' } }))).code,
    ).toBe('conflict');
    const m = await api().updateModule({
      ...T,
      params: { id: ids['C-1']! },
      body: { pass_threshold: 50, questions: [questions[0]!] },
    });
    expect(m).toMatchObject({ pass_threshold: 50, question_count: 1, module_code: 'C-1' });
    expect(m.questions.map((q) => q.question)).toEqual(['Eins?']);
    expect((await api().getModule({ ...T, params: { id: ids['C-1']! } })).pass_threshold).toBe(50);
  });

  it('deletes a module without assignments (404 afterwards), cascading its matrix entries', async () => {
    const m = await api().createModule({
      ...T,
      body: { module_code: 'TMP', title: 'Temp', regulation_area: 'hinschg', frequency_type: 'micro' },
    });
    await api().setMatrix({ ...T, body: { role_code: 'R1', module_id: m.id } });
    expect((await api().deleteModule({ ...T, params: { id: m.id } })).success).toBe(true);
    expect((await failure(api().getModule({ ...T, params: { id: m.id } }))).code).toBe('not_found');
    expect(await api().matrixByRole({ ...T, params: { role: 'R1' } })).toEqual([]);
  });

  it('computes per role without duplicates, lists with filters and paging, newest first', async () => {
    const anna = await api().compute({
      ...T,
      body: {
        user_id: 'anna',
        user_name: 'Anna',
        user_email: 'anna@example.com',
        roles: ['R9', 'R8'],
        trigger: 'onboarding',
      },
    });
    expect(anna.created).toBe(3);
    expect(anna.assignments.map((a) => a.module_code).sort()).toEqual(['A-1', 'B-1', 'C-1']);
    const ben = await api().compute({
      ...T,
      body: { user_id: 'ben', user_name: 'Ben', user_email: 'ben@example.com', roles: ['R9'], deadline_days: 5 },
    });
    expect(ben.assignments.map((a) => a.deadline)).toEqual([
      new Date(start.getTime() + 5 * DAY).toISOString(),
      new Date(start.getTime() + 5 * DAY).toISOString(),
    ]);
    expect((await api().listAssignments({ ...T, query: { user_id: 'anna' } })).length).toBe(3);
    expect(
      (await api().listAssignments({ ...T, query: { module_id: ids['B-1'] } })).map((a) => a.user_id).sort(),
    ).toEqual(['anna', 'ben']);
    expect((await api().listAssignments({ ...T, query: { role: 'R8' } })).every((a) => a.role_code === 'R8')).toBe(
      true,
    );
    const all = await api().listAssignments({ ...T, query: { limit: '2' } });
    const rest = await api().listAssignments({ ...T, query: { limit: '2', offset: '2' } });
    expect([...all, ...rest].map((a) => a.id)).toEqual((await api().listAssignments(T)).map((a) => a.id).slice(0, 4));
    expect(all[0]!.id > all[1]!.id).toBe(true);
    expect((await failure(api().listAssignments({ ...T, query: { limit: 'abc' } }))).code).toBe('bad_request');
    expect((await failure(api().listAssignments({ ...T, query: { status: 'late' } }))).code).toBe('validation');
    expect(
      (
        await failure(
          api().compute({ ...T, body: { user_id: 'x', user_name: 'X', user_email: 'x@example.com', roles: ['R0'] } }),
        )
      ).details[0]!.path,
    ).toBe('roles.0');
  });

  it('lists upcoming deadlines soonest first with a limit, and moves a deadline by update', async () => {
    const up = await api().deadlines({ ...T, query: {} });
    expect(up.map((a) => a.user_id).slice(0, 2)).toEqual(['ben', 'ben']);
    expect(up.map((a) => a.deadline)).toEqual([...up.map((a) => a.deadline)].sort());
    expect(await api().deadlines({ ...T, query: { limit: '1' } })).toHaveLength(1);
    expect((await failure(api().deadlines({ ...T, query: { limit: '501' } }))).code).toBe('validation');
    const first = up.find((a) => a.user_id === 'ben' && a.module_code === 'B-1');
    const moved = await api().updateAssignment({
      ...T,
      params: { id: first!.id },
      body: { deadline: '2026-12-31T23:59:59+01:00' },
    });
    expect(moved.deadline).toBe('2026-12-31T22:59:59.000Z');
    expect(
      (await failure(api().updateAssignment({ ...T, params: { id: first!.id }, body: { deadline: 'tomorrow' } }))).code,
    ).toBe('validation');
    // a year before 1000 is a typo or a two-digit year (issue 22)
    const early = await failure(
      api().updateAssignment({ ...T, params: { id: first!.id }, body: { deadline: '0027-12-31T23:59:59Z' } }),
    );
    expect(early.code).toBe('validation');
    expect(early.details).toEqual([{ path: 'deadline', message: expect.stringMatching(/year must be 1000 or later/) }]);
  });

  it('walks an overdue assignment to completion, then reads it expired and assigns it again', async () => {
    const [a] = await api().listAssignments({ ...T, query: { user_id: 'ben', module_id: ids['A-1'] } });
    now = new Date(start.getTime() + 6 * DAY); // ben's deadline was 5 days after start
    expect((await api().getAssignment({ ...T, params: { id: a!.id } })).status).toBe('overdue');
    expect(
      (await api().listAssignments({ ...T, query: { status: 'pending', user_id: 'ben' } })).map((x) => x.id),
    ).not.toContain(a!.id);
    const started = await api().start({ ...T, params: { id: a!.id }, body: {} });
    expect(started).toMatchObject({ status: 'overdue', started_at: expect.any(String) }); // still late, now in progress underneath
    expect((await failure(api().start({ ...T, params: { id: a!.id }, body: {} }))).code).toBe('conflict');
    expect((await api().progress({ ...T, params: { id: a!.id }, body: { progress: 100 } })).status).toBe('overdue'); // progress never completes
    const done = await api().complete({ ...T, params: { id: a!.id }, body: {} });
    expect(done).toMatchObject({ status: 'completed', progress_percent: 100, completed_at: now.toISOString() });
    expect((await failure(api().complete({ ...T, params: { id: a!.id }, body: {} }))).code).toBe('conflict');
    expect((await failure(api().progress({ ...T, params: { id: a!.id }, body: { progress: 10 } }))).code).toBe(
      'conflict',
    );
    expect(
      (
        await api().compute({
          ...T,
          body: { user_id: 'ben', user_name: 'Ben', user_email: 'ben@example.com', roles: ['R9'] },
        })
      ).created,
    ).toBe(0);

    now = new Date(start.getTime() + 37 * DAY); // validity of A-1 is 30 days
    expect((await api().getAssignment({ ...T, params: { id: a!.id } })).status).toBe('expired');
    expect((await api().listAssignments({ ...T, query: { status: 'expired' } })).map((x) => x.id)).toEqual([a!.id]);
    expect((await api().listAssignments({ ...T, query: { status: 'completed' } })).map((x) => x.id)).not.toContain(
      a!.id,
    );
    const again = await api().compute({
      ...T,
      body: { user_id: 'ben', user_name: 'Ben', user_email: 'ben@example.com', roles: ['R9'] },
    });
    expect(again.assignments.map((x) => x.module_code)).toEqual(['A-1']);
    const stats = await api().stats(T);
    expect(stats).toMatchObject({
      total_modules: 3,
      total_assignments: 6,
      completed_count: 1,
      completion_rate: 16.7,
      avg_completion_days: 6,
    });
    expect(stats.overdue_count + stats.pending_count + stats.in_progress_count + stats.completed_count).toBe(6);
    now = start;
  });

  it('keeps every id of another tenant out of reach (404) and a quiz tied to its module (422)', async () => {
    const O = { tenant: 'other', actor: 'x' };
    const [a] = await api().listAssignments({ ...T, query: { user_id: 'anna', module_id: ids['B-1'] } });
    for (const call of [
      () => api().getAssignment({ ...O, params: { id: a!.id } }),
      () => api().updateAssignment({ ...O, params: { id: a!.id }, body: { user_name: 'Mallory' } }),
      () => api().start({ ...O, params: { id: a!.id }, body: {} }),
      () => api().progress({ ...O, params: { id: a!.id }, body: { progress: 5 } }),
      () => api().complete({ ...O, params: { id: a!.id }, body: {} }),
      () => api().attempts({ ...O, params: { assignmentId: a!.id } }),
      () => api().generateCertificate({ ...O, params: { assignmentId: a!.id }, body: {} }),
      () => api().updateModule({ ...O, params: { id: ids['A-1']! }, body: { title: 'x' } }),
      () => api().deleteModule({ ...O, params: { id: ids['A-1']! } }),
      () => api().quiz({ ...O, params: { moduleId: ids['A-1']! } }),
      () => api().setMatrix({ ...O, body: { role_code: 'R1', module_id: ids['A-1']! } }),
    ])
      expect((await failure(call())).code).toBe('not_found');
    const quiz = await api().quiz({ ...T, params: { moduleId: ids['A-1']! } });
    const e = await failure(
      api().submitQuiz({
        ...T,
        params: { moduleId: ids['A-1']! },
        body: { assignment_id: a!.id, answers: [{ question_id: quiz.questions[0]!.id, selected_index: 0 }] },
      }),
    );
    expect(e.code).toBe('validation');
    expect(e.details[0]!.path).toBe('assignment_id');
    expect(await api().stats({ tenant: 'other' })).toMatchObject({
      total_modules: 0,
      total_assignments: 0,
      completion_rate: 0,
      avg_quiz_score: 0,
      avg_completion_days: 0,
    });
  });

  it('pages the audit log and filters it', async () => {
    const assigned = await api().auditLog({ ...T, query: { action: 'assigned' } });
    expect(assigned).toHaveLength(6);
    expect(assigned.every((e) => e.entity_type === 'assignment' && e.actor === 'hr')).toBe(true);
    const page = await api().auditLog({ ...T, query: { limit: '2', offset: '1' } });
    expect(page.map((e) => e.id)).toEqual((await api().auditLog(T)).slice(1, 3).map((e) => e.id));
    expect((await failure(api().auditLog({ ...T, query: { action: 'created' } }))).code).toBe('validation');
    expect((await failure(api().auditLog({ ...T, query: { entity_type: 'user' } }))).code).toBe('validation');
  });
});
