import { describe, expect, it } from 'vitest';
import { progressProblem, statusLeads } from '../../src/domain/training/training.row-rules.js';
import { refusal, refusals, rows, T0, T1, T2 } from '../support/sync-rows.js';

// Training records at the door: an assignment moves pending → in progress → completed and keeps what happened, its
// level falls only with a later deadline, a passed quiz needs a passed attempt scored as the API scores it, a
// certificate needs what the API's needs; attempts, certificates and the audit trail are written once.
const module = rows.training_module();
const held = { training_module: [module] };
const a = rows.training_assignment;
const started = (o: Record<string, unknown> = {}) => a({ status: 'in_progress', started_at: T1, updated_at: T1, ...o });
const completed = (o: Record<string, unknown> = {}) =>
  started({
    status: 'completed',
    progress_percent: 100,
    completed_at: T2,
    valid_until: '2027-05-20T10:00:00.000Z',
    updated_at: T2,
    ...o,
  });

describe('the progress of an assignment', () => {
  it('leads pending → in progress → completed, never back', () => {
    const to = (from: string) => ['pending', 'in_progress', 'completed'].filter((s) => statusLeads(from, s));
    expect(to('pending')).toEqual(['pending', 'in_progress', 'completed']);
    expect(to('in_progress')).toEqual(['in_progress', 'completed']);
    expect(to('completed')).toEqual(['completed']);
    expect(statusLeads('PENDING', 'pending')).toBe(false);
  });

  it('holds the facts of its status, in the order of time', () => {
    expect(progressProblem(a())).toBeNull();
    expect(progressProblem(started())).toBeNull();
    expect(progressProblem(completed())).toBeNull();
    expect(progressProblem(a({ status: 'in_progress' }))).toBe('it is in_progress but was never started');
    expect(progressProblem(a({ started_at: T1 }))).toBe('it is pending but carries started_at');
    expect(progressProblem(completed({ completed_at: null }))).toBe(
      'it is completed without completed_at and valid_until',
    );
    expect(progressProblem(completed({ valid_until: null }))).toBe(
      'it is completed without completed_at and valid_until',
    );
    expect(progressProblem(started({ completed_at: T2 }))).toBe('it is in_progress but carries a completion');
    expect(progressProblem(started({ valid_until: T2 }))).toBe('it is in_progress but carries a completion');
    expect(progressProblem(completed({ progress_percent: 99 }))).toBe('it is completed at less than 100 %');
    expect(progressProblem(started({ started_at: '2026-04-01T00:00:00.000Z' }))).toBe(
      `started_at lies before the assignment was made (${T0})`,
    );
    expect(progressProblem(completed({ completed_at: '2026-05-05T00:00:00.000Z' }))).toBe(
      `completed_at lies before it was started (${T1})`,
    );
    expect(progressProblem(completed({ valid_until: T2 }))).toBe('valid_until does not lie after completed_at');
    expect(progressProblem(a({ updated_at: '2026-04-01T00:00:00.000Z' }))).toBe('updated_at lies before created_at');
  });
});

describe('an assignment at the door', () => {
  it('completed offline (started, then completed) arrives at once; a step back does not', async () => {
    expect(await refusal(held, { entity: 'training_assignment', before: a(), after: completed() })).toBeUndefined();
    expect(await refusal(held, { entity: 'training_assignment', before: completed(), after: started() })).toBe(
      'assignment as1: it is completed: an assignment moves pending → in_progress → completed, never back',
    );
  });

  it('refuses a status spelled otherwise, a back-dated completion and a changed past', async () => {
    expect(
      await refusal(held, { entity: 'training_assignment', before: null, after: a({ id: 'as2', status: 'PENDING' }) }),
    ).toMatch(
      /^training_assignment as2 does not fit its table: status: "PENDING" is not allowed; allowed values: pending, in_progress, completed$/,
    );
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: started(),
        after: completed({ completed_at: '2023-01-01T00:00:00.000Z' }),
      }),
    ).toBe(`assignment as1: completed_at lies before it was started (${T1})`);
    expect(
      await refusal(held, { entity: 'training_assignment', before: started(), after: completed({ started_at: T0 }) }),
    ).toBe(`assignment as1: started_at was ${T1}: it no longer changes`);
    expect(await refusal(held, { entity: 'training_assignment', before: a(), after: a({ module_id: 'm2' }) })).toBe(
      'training_assignment as1 cannot change module_id: it is fixed once the record is written',
    );
  });

  it('lowers its escalation level only with a later deadline, to what that deadline reaches', async () => {
    const escalated = a({ escalation_level: 3, deadline: '2026-04-01T10:00:00.000Z' });
    // the case: 3 → 0 with nothing else changed
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: escalated,
        after: a({ escalation_level: 0, deadline: '2026-04-01T10:00:00.000Z' }),
      }),
    ).toBe('assignment as1: the escalation level never goes down but with a later deadline (it is 3, not 0)');
    // a deadline moved later on 2026-05-20 to 2026-05-10: 10 days overdue then, level 1
    const moved = { deadline: '2026-05-10T10:00:00.000Z', updated_at: T2 };
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: escalated,
        after: a({ ...moved, escalation_level: 1 }),
      }),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: escalated,
        after: a({ ...moved, escalation_level: 0 }),
      }),
    ).toBe('assignment as1: the escalation level never goes down but with a later deadline (it is 3, not 0)');
    // an earlier deadline never lowers it
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: escalated,
        after: a({ deadline: '2026-03-01T10:00:00.000Z', escalation_level: 0, updated_at: T2 }),
      }),
    ).toBe('assignment as1: the escalation level never goes down but with a later deadline (it is 3, not 0)');
    // raising is escalation's, any level
    expect(
      await refusal(held, { entity: 'training_assignment', before: a(), after: a({ escalation_level: 4 }) }),
    ).toBeUndefined();
  });

  it('a passed quiz needs a passed attempt and stays passed', async () => {
    expect(
      await refusal(held, { entity: 'training_assignment', before: started(), after: started({ quiz_passed: 1 }) }),
    ).toBe('assignment as1: its quiz is marked passed without a passed attempt');
    const failed = rows.training_quiz_attempt({
      passed: 0,
      score: 0,
      correct_count: 0,
      answers: '[{"question_id":"q1","selected_index":1}]',
    });
    expect(
      await refusal(
        { ...held, training_quiz_attempt: [failed] },
        { entity: 'training_assignment', before: started(), after: started({ quiz_passed: 1 }) },
      ),
    ).toBe('assignment as1: its quiz is marked passed without a passed attempt');
    expect(
      await refusals({ ...held, training_assignment: [started()] }, [
        { entity: 'training_assignment', before: started(), after: started({ quiz_passed: 1 }) },
        { entity: 'training_quiz_attempt', before: null, after: rows.training_quiz_attempt() },
      ]),
    ).toStrictEqual({});
    expect(
      await refusal(held, { entity: 'training_assignment', before: started({ quiz_passed: 1 }), after: started() }),
    ).toBe('assignment as1: its quiz is passed and stays passed');
  });

  it('names a certificate of its own, and keeps it', async () => {
    const cert = rows.training_certificate();
    const withCert = { ...held, training_certificate: [cert] };
    const done = completed({ quiz_passed: 1 });
    expect(
      await refusal(withCert, {
        entity: 'training_assignment',
        before: done,
        after: { ...done, certificate_id: 'cert1' },
      }),
    ).toBeUndefined();
    const theirs = { ...withCert, training_certificate: [rows.training_certificate({ assignment_id: 'as9' })] };
    expect(
      await refusal(theirs, {
        entity: 'training_assignment',
        before: done,
        after: { ...done, certificate_id: 'cert1' },
      }),
    ).toBe("assignment as1: certificate cert1 is not this assignment's");
  });
});

describe('what happened to an assignment stays as it happened', () => {
  const cert = rows.training_certificate;
  const done = completed({ quiz_passed: 1, certificate_id: 'cert1' });
  const base = { ...held, training_certificate: [cert(), cert({ id: 'cert2' })] };
  it('its completion, validity and certificate once set', async () => {
    for (const [column, value] of [
      ['completed_at', '2026-05-21T10:00:00.000Z'],
      ['valid_until', '2027-06-01T10:00:00.000Z'],
      ['certificate_id', 'cert2'],
    ] as const)
      expect(
        await refusal(base, { entity: 'training_assignment', before: done, after: { ...done, [column]: value } }),
        column,
      ).toBe(`assignment as1: ${column} was ${String(done[column])}: it no longer changes`);
    expect(
      await refusal(base, { entity: 'training_assignment', before: done, after: { ...done, user_name: 'E. M.' } }),
    ).toBeUndefined();
  });

  it('an escalated assignment keeps its level through any other change', async () => {
    const escalated = a({ escalation_level: 3, deadline: '2026-04-01T10:00:00.000Z' });
    expect(
      await refusal(held, {
        entity: 'training_assignment',
        before: escalated,
        after: { ...escalated, status: 'in_progress', started_at: T1, progress_percent: 20, updated_at: T1 },
      }),
    ).toBeUndefined();
  });
});

describe('a quiz attempt at the door', () => {
  const question = rows.training_question();
  const base = { ...held, training_assignment: [started()], training_question: [question] };
  const attempt = rows.training_quiz_attempt;
  it('is scored as the API scores it on the module’s quiz', async () => {
    expect(await refusal(base, { entity: 'training_quiz_attempt', before: null, after: attempt() })).toBeUndefined();
    // a wrong answer claimed right
    expect(
      await refusal(base, {
        entity: 'training_quiz_attempt',
        before: null,
        after: attempt({ answers: '[{"question_id":"q1","selected_index":1}]' }),
      }),
    ).toBe('quiz attempt qa1: it is not what its answers score: 0 of 1 correct at threshold 70');
    // fewer questions answered than it counts
    expect(
      await refusal(base, {
        entity: 'training_quiz_attempt',
        before: null,
        after: attempt({ score: 50, passed: 0, correct_count: 1, total_count: 2 }),
      }),
    ).toBe('quiz attempt qa1: it is not what its answers score: 1 of 1 correct at threshold 70');
    // a lower threshold than the module's
    expect(
      await refusal(base, { entity: 'training_quiz_attempt', before: null, after: attempt({ threshold: 10 }) }),
    ).toBe('quiz attempt qa1: it is not what its answers score: 1 of 1 correct at threshold 70');
    // an answer outside the options
    expect(
      await refusal(base, {
        entity: 'training_quiz_attempt',
        before: null,
        after: attempt({ answers: '[{"question_id":"q1","selected_index":5}]' }),
      }),
    ).toBe('quiz attempt qa1: invalid answers: answers.0.selected_index: must be 0 to 1');
    // on questions the module has since replaced: held to its own counts
    const replaced = { ...base, training_question: [rows.training_question({ id: 'q9' })] };
    expect(
      await refusal(replaced, { entity: 'training_quiz_attempt', before: null, after: attempt() }),
    ).toBeUndefined();
  });

  it('its score and result follow from its counts', async () => {
    for (const o of [{ score: 90 }, { passed: 0 }, { correct_count: 2 }, { score: 0, passed: 1, correct_count: 0 }])
      expect(
        await refusal(base, { entity: 'training_quiz_attempt', before: null, after: attempt(o) }),
        JSON.stringify(o),
      ).toMatch(/^quiz attempt qa1: its score and result do not follow from \d of 1 correct at threshold 70$/);
    const half = attempt({ score: 50, passed: 0, correct_count: 1, total_count: 2 });
    expect(
      await refusal(
        { ...held, training_assignment: [started()] },
        { entity: 'training_quiz_attempt', before: null, after: half },
      ),
    ).toBeUndefined();
  });

  it('belongs to its assignment’s module, is dated after it was made, and is never changed', async () => {
    const other = { ...base, training_module: [module, rows.training_module({ id: 'm2', module_code: 'X-2' })] };
    expect(
      await refusal(other, { entity: 'training_quiz_attempt', before: null, after: attempt({ module_id: 'm2' }) }),
    ).toBe('quiz attempt qa1: it names module m2, its assignment module m1');
    expect(
      await refusal(base, {
        entity: 'training_quiz_attempt',
        before: null,
        after: attempt({ created_at: '2025-01-01T00:00:00.000Z' }),
      }),
    ).toBe(`quiz attempt qa1: it is dated before its assignment was made (${T0})`);
    expect(
      await refusal(base, {
        entity: 'training_quiz_attempt',
        before: attempt(),
        after: attempt({ duration_seconds: 5 }),
      }),
    ).toBe(
      'training_quiz_attempt qa1 cannot be changed: training_quiz_attempt is history, written once and never changed',
    );
  });
});

describe('a certificate at the door', () => {
  const cert = rows.training_certificate;
  const done = { ...held, training_assignment: [completed({ quiz_passed: 1 })] };
  it('needs a completed assignment with a passed quiz, as the API does', async () => {
    expect(await refusal(done, { entity: 'training_certificate', before: null, after: cert() })).toBeUndefined();
    expect(
      await refusal(
        { ...held, training_assignment: [completed()] },
        { entity: 'training_certificate', before: null, after: cert() },
      ),
    ).toBe(
      'certificate cert1: assignment as1 is completed and its quiz is not passed; a certificate needs a completed assignment with a passed quiz',
    );
    expect(
      await refusal(
        { ...held, training_assignment: [started({ quiz_passed: 1 })] },
        { entity: 'training_certificate', before: null, after: cert() },
      ),
    ).toBe(
      'certificate cert1: assignment as1 is in_progress; a certificate needs a completed assignment with a passed quiz',
    );
  });

  it("names its assignment's holder and module, is dated after the completion, once per assignment", async () => {
    expect(await refusal(done, { entity: 'training_certificate', before: null, after: cert({ user_id: 'u-9' }) })).toBe(
      "certificate cert1: its user_id is not its assignment's",
    );
    const m2 = { ...done, training_module: [module, rows.training_module({ id: 'm2', module_code: 'X-2' })] };
    expect(await refusal(m2, { entity: 'training_certificate', before: null, after: cert({ module_id: 'm2' }) })).toBe(
      "certificate cert1: its module_id is not its assignment's",
    );
    expect(await refusal(done, { entity: 'training_certificate', before: null, after: cert({ issued_at: T1 }) })).toBe(
      `certificate cert1: it is dated before its assignment was completed (${T2})`,
    );
    expect(
      await refusal(
        { ...done, training_certificate: [cert()] },
        { entity: 'training_certificate', before: null, after: cert({ id: 'cert2' }) },
      ),
    ).toBe('certificate cert2: assignment as1 already has certificate cert1');
  });
});

describe('the training audit trail at the door', () => {
  const entry = rows.training_audit;
  const base = { ...held, training_assignment: [started()] };
  it('names a subject of the tenant and is dated after it was made', async () => {
    expect(await refusal(base, { entity: 'training_audit', before: null, after: entry() })).toBeUndefined();
    expect(
      await refusal(base, {
        entity: 'training_audit',
        before: null,
        after: entry({ created_at: '2025-01-01T00:00:00.000Z' }),
      }),
    ).toBe(`training_audit ta1 is dated 2025-01-01T00:00:00.000Z, before its assignment was made (${T0})`);
    expect(await refusal(base, { entity: 'training_audit', before: null, after: entry({ entity_id: 'as9' }) })).toBe(
      'training_audit ta1 names assignment as9, which this tenant does not hold',
    );
    const certHeld = { ...base, training_certificate: [rows.training_certificate()] };
    expect(
      await refusal(certHeld, {
        entity: 'training_audit',
        before: null,
        after: entry({ action: 'certificate_issued', entity_type: 'certificate', entity_id: 'cert1', created_at: T1 }),
      }),
    ).toBe(`training_audit ta1 is dated ${T1}, before its certificate was made (${T2})`);
    // a quiz's entry names an attempt of the tenant, dated after it
    const quiz = { action: 'quiz_submitted', entity_type: 'quiz', entity_id: 'qa1' };
    expect(await refusal(base, { entity: 'training_audit', before: null, after: entry(quiz) })).toBe(
      'training_audit ta1 names quiz qa1, which this tenant does not hold',
    );
    const attemptHeld = { ...base, training_quiz_attempt: [rows.training_quiz_attempt({ created_at: T2 })] };
    expect(await refusal(attemptHeld, { entity: 'training_audit', before: null, after: entry(quiz) })).toBe(
      `training_audit ta1 is dated ${T1}, before its quiz was made (${T2})`,
    );
    expect(
      await refusal(attemptHeld, { entity: 'training_audit', before: null, after: entry({ ...quiz, created_at: T2 }) }),
    ).toBeUndefined();
    // a module's entry may outlive its module
    expect(
      await refusal(
        {},
        {
          entity: 'training_audit',
          before: null,
          after: entry({ action: 'content_generated', entity_type: 'module', entity_id: 'gone' }),
        },
      ),
    ).toBeUndefined();
    expect(await refusal(base, { entity: 'training_audit', before: entry(), after: null })).toBe(
      'training_audit ta1 cannot be deleted: training_audit records are never deleted',
    );
  });
});

describe('a module, its questions and its matrix at the door', () => {
  it('one module per code; deleted only without assignments', async () => {
    expect(
      await refusal(held, { entity: 'training_module', before: null, after: rows.training_module({ id: 'm2' }) }),
    ).toBe('module_code DSGVO-01 is already used by module m1');
    expect(
      await refusal(held, {
        entity: 'training_module',
        before: module,
        after: { ...module, title: 'Neu', updated_at: T1 },
      }),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'training_module',
        before: null,
        after: rows.training_module({ id: 'm2', module_code: 'X', updated_at: '2026-04-01T00:00:00.000Z' }),
      }),
    ).toBe('training module m2: updated_at lies before created_at');
    expect(await refusal(held, { entity: 'training_module', before: module, after: null })).toBeUndefined();
  });

  it('a question points at one of its options, and names a module of the tenant', async () => {
    expect(
      await refusal(held, {
        entity: 'training_question',
        before: null,
        after: rows.training_question({ correct_index: 2 }),
      }),
    ).toMatch(/^training_question q1 does not fit its table: correct_index: must point at one of the options$/);
    expect(
      await refusal(held, {
        entity: 'training_question',
        before: null,
        after: rows.training_question({ options: 'nope' }),
      }),
    ).toMatch(/does not fit its table: options: /);
    expect(
      await refusal(held, { entity: 'training_question', before: rows.training_question(), after: null }),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'training_matrix',
        before: null,
        after: rows.training_matrix({ role_code: 'R11' }),
      }),
    ).toMatch(/role_code/);
    expect(
      await refusal(held, { entity: 'training_matrix', before: rows.training_matrix(), after: null }),
    ).toBeUndefined();
  });
});
