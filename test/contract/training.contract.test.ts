import { beforeAll, describe, expect, it } from 'vitest';
import { forTenant } from '../../src/store/tenant-scope.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';

const questions = [
  {
    question: 'Innerhalb welcher Frist ist eine Datenpanne zu melden?',
    options: ['24 h', '72 h', '7 Tage'],
    correct_index: 1,
    explanation: 'Art. 33 DSGVO',
  },
  {
    question: 'Wer ist Ansprechpartner für Datenschutz?',
    options: ['DSB', 'Pförtner'],
    correct_index: 0,
    explanation: 'Art. 37 ff.',
  },
  { question: 'Darf man Passwörter teilen?', options: ['Ja', 'Nein'], correct_index: 1, explanation: 'Nie.' },
];

describe.each(BACKEND_NAMES)('training on the %s backend', (name) => {
  let now = new Date('2026-03-01T09:00:00Z');
  const clock = { now: () => new Date(now) };
  const T = { tenant: 'firma', actor: 'trainer' };
  const api = () => b.backend.training;
  let moduleId = '';
  const b = useBackend(name, { clock });
  beforeAll(async () => {
    const m = await api().createModule({
      ...T,
      body: {
        module_code: 'DSGVO-01',
        title: 'DSGVO-Grundlagen',
        description: 'Pflichten im Alltag mit personenbezogenen Daten',
        regulation_area: 'dsgvo',
        frequency_type: 'annual',
        questions,
      },
    });
    moduleId = m.id;
  });

  it('creates modules with defaults, refuses duplicate codes and bad values', async () => {
    const m = await api().getModule({ ...T, params: { id: moduleId } });
    expect(m).toMatchObject({
      duration_minutes: 30,
      pass_threshold: 70,
      validity_days: 365,
      question_count: 3,
      content: null,
    });
    expect(m.questions[0]).toMatchObject({ position: 0, correct_index: 1 });
    expect(
      (
        await failure(
          api().createModule({
            ...T,
            body: { module_code: 'DSGVO-01', title: 'x', regulation_area: 'dsgvo', frequency_type: 'annual' },
          }),
        )
      ).code,
    ).toBe('conflict');
    const e = await failure(
      api().createModule({
        ...T,
        body: { module_code: 'X', title: 'x', regulation_area: 'gdpr', frequency_type: 'annual', pass_threshold: 101 },
      }),
    );
    expect(e.code).toBe('validation');
    expect(e.details.map((d) => d.path).sort()).toEqual(['pass_threshold', 'regulation_area']);
    expect(e.message).toContain('');
    expect(
      (
        await failure(
          api().createModule({
            ...T,
            body: {
              module_code: 'Q',
              title: 'q',
              regulation_area: 'nis2',
              frequency_type: 'micro',
              questions: [{ question: 'q', options: ['a', 'b'], correct_index: 2 }],
            },
          }),
        )
      ).details[0]!.path,
    ).toBe('questions.0.correct_index');
  });

  it('lists with filters and full-text search', async () => {
    await api().createModule({
      ...T,
      body: {
        module_code: 'NIS2-01',
        title: 'NIS2 für die Geschäftsleitung',
        description: 'Risikomanagement und Meldepflichten',
        regulation_area: 'nis2',
        frequency_type: 'onboarding',
      },
    });
    expect((await api().listModules({ ...T, query: { regulation_area: 'nis2' } })).map((m) => m.module_code)).toEqual([
      'NIS2-01',
    ]);
    expect((await api().listModules({ ...T, query: { search: 'meldepflichten' } })).map((m) => m.module_code)).toEqual([
      'NIS2-01',
    ]);
    expect((await api().listModules({ ...T, query: { search: 'alltag daten' } })).map((m) => m.module_code)).toEqual([
      'DSGVO-01',
    ]);
    expect(await api().listModules({ ...T, query: { search: '100%' } })).toEqual([]);
    expect((await failure(api().listModules({ ...T, query: { frequency_type: 'weekly' } }))).message).toContain(
      'onboarding, annual, event_trigger, micro',
    );
  });

  it('sets, reads and removes matrix entries; roles outside R1-R10 are refused', async () => {
    const e = await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: moduleId } });
    expect(e).toMatchObject({ role_code: 'R9', is_mandatory: false, priority: 5, module_code: 'DSGVO-01' });
    expect(
      (await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: moduleId, is_mandatory: true, priority: 1 } }))
        .priority,
    ).toBe(1);
    expect(await api().matrix(T)).toHaveLength(1);
    expect(await api().matrixByRole({ ...T, params: { role: 'R3' } })).toEqual([]);
    expect(
      (await failure(api().setMatrix({ ...T, body: { role_code: 'R11', module_id: moduleId } }))).message,
    ).toContain('R1, R2');
    expect((await failure(api().matrixByRole({ ...T, params: { role: 'R0' } }))).code).toBe('bad_request');
    await api().setMatrix({ ...T, body: { role_code: 'R3', module_id: moduleId } });
    expect((await api().unsetMatrix({ ...T, params: { role: 'R3', moduleId } })).success).toBe(true);
    expect((await failure(api().unsetMatrix({ ...T, params: { role: 'R3', moduleId } }))).code).toBe('not_found');
  });

  it('computes assignments idempotently and walks them to a verified certificate', async () => {
    const user = { user_id: 'u-1', user_name: 'Erika Mustermann', user_email: 'erika@example.com', roles: ['R9'] };
    const first = await api().compute({ ...T, body: user });
    expect(first.created).toBe(1);
    const a = first.assignments[0]!;
    expect(a).toMatchObject({
      status: 'pending',
      progress_percent: 0,
      escalation_level: 0,
      quiz_passed: false,
      module_title: 'DSGVO-Grundlagen',
      deadline: '2026-03-31T09:00:00.000Z',
    });
    expect((await api().compute({ ...T, body: user })).created).toBe(0);
    expect((await failure(api().complete({ ...T, params: { id: a.id }, body: {} }))).code).toBe('conflict');
    expect((await failure(api().generateCertificate({ ...T, params: { assignmentId: a.id }, body: {} }))).code).toBe(
      'conflict',
    );
    const p = await api().progress({ ...T, params: { id: a.id }, body: { progress: 40 } });
    expect(p).toMatchObject({ status: 'in_progress', progress_percent: 40 });
    expect((await failure(api().progress({ ...T, params: { id: a.id }, body: { progress: 101 } }))).code).toBe(
      'validation',
    );
    expect((await failure(api().progress({ ...T, params: { id: a.id }, body: { progress: 4.5 } }))).code).toBe(
      'validation',
    );

    const quiz = await api().quiz({ ...T, params: { moduleId } });
    expect(quiz.questions).toHaveLength(3);
    expect(JSON.stringify(quiz)).not.toContain('correct_index');
    const ids = quiz.questions.map((q) => q.id);
    expect(
      (
        await failure(
          api().submitQuiz({
            ...T,
            params: { moduleId },
            body: { assignment_id: a.id, answers: [{ question_id: 'nope', selected_index: 0 }] },
          }),
        )
      ).code,
    ).toBe('validation');
    expect(
      (
        await failure(
          api().submitQuiz({
            ...T,
            params: { moduleId },
            body: { assignment_id: a.id, answers: [{ question_id: ids[0]!, selected_index: 7 }] },
          }),
        )
      ).details[0]!.path,
    ).toBe('answers.0.selected_index');
    const fail = await api().submitQuiz({
      ...T,
      params: { moduleId },
      body: {
        assignment_id: a.id,
        answers: [
          { question_id: ids[0]!, selected_index: 1 },
          { question_id: ids[1]!, selected_index: 1 },
        ],
      },
    });
    expect(fail).toMatchObject({ score: 33.3, passed: false, correct_count: 1, total_count: 3, threshold: 70 });
    const pass = await api().submitQuiz({
      ...T,
      params: { moduleId },
      body: {
        assignment_id: a.id,
        answers: [
          { question_id: ids[0]!, selected_index: 1 },
          { question_id: ids[1]!, selected_index: 0 },
          { question_id: ids[2]!, selected_index: 1 },
        ],
        duration_seconds: 120,
      },
    });
    expect(pass).toMatchObject({ score: 100, passed: true });
    expect((await api().attempts({ ...T, params: { assignmentId: a.id } })).map((x) => x.passed)).toEqual([
      true,
      false,
    ]);

    const done = await api().complete({ ...T, params: { id: a.id }, body: {} });
    expect(done).toMatchObject({ status: 'completed', progress_percent: 100, quiz_passed: true });
    const cert = await api().generateCertificate({ ...T, params: { assignmentId: a.id }, body: {} });
    expect(cert.assignment).toMatchObject({
      id: a.id,
      status: 'completed',
      quiz_passed: true,
      certificate_id: cert.certificate_id,
    });
    expect((await api().generateCertificate({ ...T, params: { assignmentId: a.id }, body: {} })).certificate_id).toBe(
      cert.certificate_id,
    );
    const v = await api().verify({ ...T, params: { id: cert.certificate_id } });
    expect(v).toMatchObject({ valid: true, signature_valid: true, expired: false });
    expect(v.assignment!.id).toBe(a.id);
    expect(v.certificate).toMatchObject({ user_name: 'Erika Mustermann', module_code: 'DSGVO-01', score: 100 });
    // generating answers the code printed on the certificate, the first time and every time after
    expect(cert.verification_code).toBe(v.certificate.verification_code);
    expect(cert.verification_code).toMatch(/^[0-9A-F]{4}(-[0-9A-F]{4}){3}$/);
    // the public check of the printed code tells validity, module, dates and initials, and nothing more
    const printed = await api().publicVerify({ ...T, params: { code: v.certificate!.verification_code } });
    expect(Object.keys(printed).sort()).toEqual([
      'expired',
      'holder_initials',
      'issued_at',
      'module_code',
      'module_title',
      'signature_valid',
      'valid',
      'valid_until',
    ]);
    expect(printed).toMatchObject({ valid: true, signature_valid: true, expired: false, module_code: 'DSGVO-01' });
    expect(printed.holder_initials).not.toMatch(/Erika|Mustermann/);
    // an edited stored field breaks the signature
    await forTenant(T.tenant, () =>
      b.local.store.db
        .updateTable('training_certificate')
        .set({ score: 55 })
        .where('id', '=', cert.certificate_id)
        .execute(),
    );
    expect(await api().verify({ ...T, params: { id: cert.certificate_id } })).toMatchObject({
      valid: false,
      signature_valid: false,
      expired: false,
    });
    expect((await failure(api().verify({ ...T, params: { id: 'missing' } }))).code).toBe('not_found');
    const pdf = await api().certificatePdf({ ...T, params: { id: cert.certificate_id } });
    expect(pdf.content_type).toBe('application/pdf');
    const lang = await failure(
      api().certificatePdf({ ...T, params: { id: cert.certificate_id }, query: { lang: 'fr' } } as never),
    );
    expect([lang.code, lang.details?.[0]?.path]).toEqual(['validation', 'lang']);
    expect(Buffer.from(pdf.data).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await failure(api().deleteModule({ ...T, params: { id: moduleId } }))).code).toBe('conflict');
    const actions = (await api().auditLog({ ...T, query: { entity_type: 'assignment' } })).map((e) => e.action);
    expect(actions).toEqual(['completed', 'started', 'assigned']);
    expect(await api().auditLog({ ...T, query: { action: 'certificate_issued' } })).toHaveLength(1);
  });

  it('derives overdue from the clock and escalates in four stages, never down', async () => {
    const m = await api().createModule({
      ...T,
      body: {
        module_code: 'HINSCHG-01',
        title: 'Hinweisgeberschutz',
        regulation_area: 'hinschg',
        frequency_type: 'annual',
      },
    });
    await api().setMatrix({ ...T, body: { role_code: 'R5', module_id: m.id } });
    const {
      assignments: [a],
    } = await api().compute({
      ...T,
      body: { user_id: 'u-2', user_name: 'Max', user_email: 'max@example.com', roles: ['R5'], deadline_days: 10 },
    });
    expect(await api().overdue(T)).toEqual([]);
    const asOf = (days: number) => new Date(Date.parse(a!.deadline) + days * 86_400_000 + 1000).toISOString();
    expect(
      (await api().overdue({ ...T, query: { as_of: asOf(3) } })).map((x) => [x.id, x.days_overdue, x.status]),
    ).toEqual([[a!.id, 3, 'overdue']]);
    const dry = await api().escalate({ ...T, body: { as_of: asOf(15), dry_run: true } });
    expect(dry.results).toEqual([
      expect.objectContaining({
        assignment_id: a!.id,
        previous_level: 0,
        new_level: 2,
        days_overdue: 15,
        escalation_label: 'notify_team_lead',
      }),
    ]);
    expect((await api().getAssignment({ ...T, params: { id: a!.id } })).escalation_level).toBe(0);
    const real = await api().escalate({ ...T, body: { as_of: asOf(30) } });
    expect(real).toMatchObject({ total_checked: 1, escalated: 1 });
    expect(real.results[0]).toMatchObject({ new_level: 3, escalation_label: 'notify_management' });
    expect((await api().escalate({ ...T, body: { as_of: asOf(20) } })).escalated).toBe(0);
    expect((await api().escalate({ ...T, body: { as_of: asOf(45) } })).results[0]!.new_level).toBe(4);
    now = new Date(asOf(46));
    expect((await api().getAssignment({ ...T, params: { id: a!.id } })).status).toBe('overdue');
    expect((await api().listAssignments({ ...T, query: { status: 'overdue' } })).map((x) => x.id)).toEqual([a!.id]);
    expect(await api().auditLog({ ...T, query: { action: 'escalated' } })).toHaveLength(2);
    const stats = await api().stats(T);
    expect(stats).toMatchObject({
      total_modules: 3,
      total_assignments: 2,
      overdue_count: 1,
      completed_count: 1,
      completion_rate: 50,
      avg_quiz_score: 66.7,
    });
    now = new Date('2026-03-01T09:00:00Z');
  });

  it('keeps tenants apart and requires a valid body', async () => {
    const other = { tenant: 'andere' };
    expect((await failure(api().getModule({ ...other, params: { id: moduleId } }))).code).toBe('not_found');
    expect(await api().listModules(other)).toEqual([]);
    expect(
      (
        await failure(
          api().compute({ ...T, body: { user_id: 'x', user_name: 'x', user_email: 'not-an-email', roles: ['R9'] } }),
        )
      ).details[0]!.path,
    ).toBe('user_email');
    expect((await failure(api().listAssignments({ ...T, query: { limit: 501 } }))).code).toBe('validation');
  });
});
