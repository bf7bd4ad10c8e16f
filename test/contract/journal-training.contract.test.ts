import { describe, expect, it } from 'vitest';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';
import { expectChainIntact, journalled, lastState, tally } from '../support/journal.js';

// Every write of the training core leaves exactly its entries in the tenant's journal, in the transaction of the
// change: each row it inserted or changed, as stored, each row it deleted as a tombstone, and the training_audit rows
// written with them, with the actor the request named. Conditional and set-based writes leave the rows they changed
// and no others; reads and refused writes leave nothing.
const DAY = 86_400_000;
const questions = [
  { question: 'Eins?', options: ['a', 'b'], correct_index: 0, explanation: 'weil' },
  { question: 'Zwei?', options: ['a', 'b', 'c'], correct_index: 2, explanation: 'darum' },
];
const user = (id: string, extra: object = {}) => ({
  user_id: id,
  user_name: `Name ${id}`,
  user_email: `${id}@example.com`,
  roles: ['R9' as const],
  ...extra,
});

describe.each(BACKEND_NAMES)('the journal of training writes on the %s backend', (name) => {
  const start = new Date('2026-03-02T08:00:00.000Z');
  let now = start;
  const T = { tenant: 'journal-training', actor: 'hr@example.com' };
  const api = () => b.backend.training;
  const refused = (p: Promise<unknown>) => failure(p).then(() => undefined);
  const run = <R>(op: () => Promise<R>) => journalled(b.backend, T.tenant, op);
  const newModule = async (code: string, extra: object = {}) =>
    (
      await api().createModule({
        ...T,
        body: {
          module_code: code,
          title: `Modul ${code}`,
          regulation_area: 'dsgvo',
          frequency_type: 'annual',
          ...extra,
        },
      })
    ).id;
  const b = useBackend(name, { clock: { now: () => new Date(now) } });

  it('modules: create, update with new questions and delete leave the module and each question, or tombstones', async () => {
    const created = await run(() =>
      api().createModule({
        ...T,
        body: { module_code: 'J-1', title: 'Eins', regulation_area: 'dsgvo', frequency_type: 'annual', questions },
      }),
    );
    const m = created.result;
    expect(created.pairs).toEqual(['training_module insert', 'training_question insert', 'training_question insert']);
    expect(created.entries.every((e) => e.actor === T.actor)).toBe(true);
    expect(lastState(created.entries, 'training_module', m.id)).toMatchObject({
      id: m.id,
      tenant_id: T.tenant,
      module_code: 'J-1',
      title: 'Eins',
      pass_threshold: 70,
    });
    const [q1, q2] = m.questions;
    expect(lastState(created.entries, 'training_question', q2!.id)).toMatchObject({
      module_id: m.id,
      position: 1,
      options: JSON.stringify(['a', 'b', 'c']),
    });

    const updated = await run(() =>
      api().updateModule({ ...T, params: { id: m.id }, body: { title: 'Eins neu', questions: [questions[1]!] } }),
    );
    expect(updated.pairs).toEqual([
      'training_module update',
      'training_question delete',
      'training_question delete',
      'training_question insert',
    ]);
    expect(lastState(updated.entries, 'training_module', m.id)).toMatchObject({
      title: 'Eins neu',
      module_code: 'J-1',
    });
    expect(lastState(updated.entries, 'training_question', q1!.id)).toBeNull();
    expect(lastState(updated.entries, 'training_question', q2!.id)).toBeNull();
    const [q3] = updated.result.questions;
    expect(lastState(updated.entries, 'training_question', q3!.id)).toMatchObject({ question: 'Zwei?', position: 0 });

    // the rows the schema would delete with the module each leave a tombstone, the module's last
    await api().setMatrix({ ...T, body: { role_code: 'R3', module_id: m.id } });
    const deleted = await run(() => api().deleteModule({ ...T, params: { id: m.id } }));
    expect(deleted.pairs).toEqual(['training_question delete', 'training_matrix delete', 'training_module delete']);
    expect(deleted.entries.map((e) => [e.entity_id, e.data])).toEqual([
      [q3!.id, null],
      [compositeId('R3', m.id), null],
      [m.id, null],
    ]);
  });

  it('the matrix: an entry set, changed and removed leaves its row keyed by role and module, or a tombstone', async () => {
    const id = await newModule('J-2');
    const key = compositeId('R7', id);
    const set = await run(() => api().setMatrix({ ...T, body: { role_code: 'R7', module_id: id, priority: 3 } }));
    expect(set.pairs).toEqual(['training_matrix insert']);
    expect(set.entries[0]).toMatchObject({ entity_id: key, actor: T.actor });
    expect(set.entries[0]!.data).toMatchObject({ tenant_id: T.tenant, role_code: 'R7', module_id: id, priority: 3 });
    const changed = await run(() =>
      api().setMatrix({ ...T, body: { role_code: 'R7', module_id: id, priority: 1, is_mandatory: true } }),
    );
    expect(changed.pairs).toEqual(['training_matrix update']);
    expect(lastState(changed.entries, 'training_matrix', key)).toMatchObject({ priority: 1, is_mandatory: 1 });
    const unset = await run(() => api().unsetMatrix({ ...T, params: { role: 'R7', moduleId: id } }));
    expect(unset.pairs).toEqual(['training_matrix delete']);
    expect(lastState(unset.entries, 'training_matrix', key)).toBeNull();
  });

  it('assignments: compute and compute-bulk leave the created assignments and their audit rows, nothing else', async () => {
    const a = await newModule('J-3');
    const c = await newModule('J-4');
    await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: a } });
    await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: c } });
    const one = await run(() => api().compute({ ...T, body: user('anna', { trigger: 'onboarding' }) }));
    const created = one.result.assignments.map((x) => x.id);
    expect(one.pairs).toEqual([
      'training_assignment insert',
      'training_assignment insert',
      'training_audit insert',
      'training_audit insert',
    ]);
    // the answer and RETURNING list rows in no set order
    expect(
      one.entries
        .slice(0, 2)
        .map((e) => e.entity_id)
        .sort(),
    ).toEqual(created.sort());
    expect(lastState(one.entries, 'training_assignment', created[0]!)).toMatchObject({
      user_id: 'anna',
      status: 'pending',
      quiz_passed: 0,
      escalation_level: 0,
    });
    expect(
      one.entries
        .slice(2)
        .map((e) => (e.data as { entity_id: string }).entity_id)
        .sort(),
    ).toEqual(created);
    expect(one.entries[2]!.data).toMatchObject({ action: 'assigned', entity_type: 'assignment', actor: T.actor });
    // everything anna needs exists: nothing is written, nothing journaled
    expect((await run(() => api().compute({ ...T, body: user('anna') }))).pairs).toEqual([]);

    // anna is covered, ben twice in the list: three users, two new assignments each at most once
    const bulk = await run(() =>
      api().computeMany({ ...T, body: { users: [user('anna'), user('ben'), user('ben'), user('cleo')] } }),
    );
    expect(bulk.result).toEqual({ users: 4, created: 4 });
    expect(tally(bulk.pairs)).toEqual({ 'training_assignment insert': 4, 'training_audit insert': 4 });
    const listed = (await api().listAssignments({ ...T, query: {} })).filter((x) => x.user_id !== 'anna');
    const inserted = bulk.entries.filter((e) => e.entity === 'training_assignment');
    expect(inserted.map((e) => e.entity_id).sort()).toEqual(listed.map((x) => x.id).sort());
    const audited = bulk.entries
      .filter((e) => e.entity === 'training_audit')
      .map((e) => e.data as { entity_id: string });
    expect(audited.map((d) => d.entity_id).sort()).toEqual(listed.map((x) => x.id).sort());
  });

  it('an assignment moved through its life leaves each change and its audit row; refused moves leave nothing', async () => {
    const m = await newModule('J-5', { questions, pass_threshold: 50 });
    await api().setMatrix({ ...T, body: { role_code: 'R9', module_id: m } });
    const [a] = (await api().compute({ ...T, body: user('dora', { roles: ['R9'] }) })).assignments.filter(
      (x) => x.module_id === m,
    );
    const id = a!.id;
    const moved = await run(() =>
      api().updateAssignment({ ...T, params: { id }, body: { deadline: '2026-05-01T00:00:00.000Z' } }),
    );
    expect(moved.pairs).toEqual(['training_assignment update']);
    expect(lastState(moved.entries, 'training_assignment', id)).toMatchObject({ deadline: '2026-05-01T00:00:00.000Z' });

    const started = await run(() => api().start({ ...T, params: { id }, body: {} }));
    expect(started.pairs).toEqual(['training_assignment update', 'training_audit insert']);
    expect(lastState(started.entries, 'training_assignment', id)).toMatchObject({ status: 'in_progress' });
    expect(started.entries[1]!.data).toMatchObject({ action: 'started', entity_id: id });
    const nothing = await run(async () => {
      await refused(api().start({ ...T, params: { id }, body: {} }));
      await refused(api().complete({ ...T, params: { id: 'missing' }, body: {} }));
    });
    expect(nothing.pairs).toEqual([]);

    const progress = await run(() => api().progress({ ...T, params: { id }, body: { progress: 40 } }));
    expect(progress.pairs).toEqual(['training_assignment update']);
    expect(lastState(progress.entries, 'training_assignment', id)).toMatchObject({ progress_percent: 40 });

    const quiz = await api().quiz({ ...T, params: { moduleId: m } });
    const answer = (right: boolean) => ({
      ...T,
      params: { moduleId: m },
      body: {
        assignment_id: id,
        answers: quiz.questions.map((q, i) => ({ question_id: q.id, selected_index: right ? [0, 2][i]! : 1 })),
      },
    });
    const failed = await run(() => api().submitQuiz(answer(false)));
    expect(failed.pairs).toEqual(['training_quiz_attempt insert', 'training_audit insert']);
    expect(lastState(failed.entries, 'training_quiz_attempt', failed.result.attempt_id)).toMatchObject({
      assignment_id: id,
      passed: 0,
    });
    const passed = await run(() => api().submitQuiz(answer(true)));
    expect(passed.pairs).toEqual([
      'training_quiz_attempt insert',
      'training_assignment update',
      'training_audit insert',
    ]);
    expect(lastState(passed.entries, 'training_assignment', id)).toMatchObject({ quiz_passed: 1 });

    now = new Date(start.getTime() + 2 * DAY);
    const done = await run(() => api().complete({ ...T, params: { id }, body: {} }));
    expect(done.pairs).toEqual(['training_assignment update', 'training_audit insert']);
    expect(lastState(done.entries, 'training_assignment', id)).toMatchObject({
      status: 'completed',
      progress_percent: 100,
      completed_at: now.toISOString(),
    });
    expect(
      (
        await run(async () => {
          await refused(api().complete({ ...T, params: { id }, body: {} }));
          await refused(api().progress({ ...T, params: { id }, body: { progress: 50 } }));
        })
      ).pairs,
    ).toEqual([]);

    const issued = await run(() => api().generateCertificate({ ...T, params: { assignmentId: id }, body: {} }));
    const cert = issued.result.certificate_id;
    expect(issued.pairs).toEqual([
      'training_certificate insert',
      'training_assignment update',
      'training_audit insert',
    ]);
    expect(lastState(issued.entries, 'training_certificate', cert)).toMatchObject({ assignment_id: id, score: 100 });
    expect(lastState(issued.entries, 'training_assignment', id)).toMatchObject({ certificate_id: cert });
    // issued once: asking again answers the same certificate and writes nothing
    expect(
      (await run(() => api().generateCertificate({ ...T, params: { assignmentId: id }, body: {} }))).pairs,
    ).toEqual([]);
    now = start;
  });

  it('escalation leaves exactly the assignments it raised and their audit rows', async () => {
    const m = await newModule('J-6');
    await api().setMatrix({ ...T, body: { role_code: 'R5', module_id: m } });
    const assign = async (who: string, deadline_days: number) =>
      (await api().compute({ ...T, body: user(who, { roles: ['R5'], deadline_days }) })).assignments.find(
        (x) => x.module_id === m,
      )!.id;
    const e1 = await assign('e1', 1);
    const e2 = await assign('e2', 5);
    await assign('e3', 60);
    const e4 = await assign('e4', 1);
    await api().start({ ...T, params: { id: e4 }, body: {} });
    await api().complete({ ...T, params: { id: e4 }, body: {} }); // completed: never a candidate
    const asOf = (days: number) => new Date(start.getTime() + days * DAY + 1000).toISOString();
    // day 9: e1 is 8 days over (level 1), e2 4 days (no level yet)
    const first = await run(() => api().escalate({ ...T, body: { as_of: asOf(9) } }));
    expect(first.result.escalated).toBe(1);
    expect(first.pairs).toEqual(['training_assignment update', 'training_audit insert']);
    expect(lastState(first.entries, 'training_assignment', e1)).toMatchObject({ escalation_level: 1 });

    // day 16: e1 reaches level 2, e2 level 1; e3 is not due, e4 done; a dry run first, which writes nothing
    expect((await run(() => api().escalate({ ...T, body: { as_of: asOf(16), dry_run: true } }))).pairs).toEqual([]);
    const second = await run(() => api().escalate({ ...T, body: { as_of: asOf(16) } }));
    expect(second.result).toMatchObject({ escalated: 2 });
    expect(tally(second.pairs)).toEqual({ 'training_assignment update': 2, 'training_audit insert': 2 });
    const raised = second.entries.filter((e) => e.entity === 'training_assignment');
    expect(raised.map((e) => [e.entity_id, (e.data as { escalation_level: number }).escalation_level]).sort()).toEqual(
      [
        [e1, 2],
        [e2, 1],
      ].sort(),
    );
    const audited = second.entries.filter((e) => e.entity === 'training_audit').map((e) => e.data);
    expect(audited.map((d) => (d as { entity_id: string }).entity_id).sort()).toEqual([e1, e2].sort());
    expect(audited[0]).toMatchObject({ action: 'escalated', actor: T.actor });
    // checked again: both are where they belong, nothing raised, nothing journaled
    const again = await run(() => api().escalate({ ...T, body: { as_of: asOf(17) } }));
    expect(again.result).toMatchObject({ total_checked: 2, escalated: 0 });
    expect(again.pairs).toEqual([]);
  });

  it('reads leave nothing, and the chain of every write above verifies', async () => {
    const [a] = await api().listAssignments({ ...T, query: { status: 'completed' } });
    const [c] = await api().certificates(T);
    const nothing = await run(async () => {
      await api().listModules({ ...T, query: {} });
      await api().getModule({ ...T, params: { id: a!.module_id } });
      await api().matrix(T);
      await api().matrixByRole({ ...T, params: { role: 'R9' } });
      await api().listAssignments({ ...T, query: {} });
      await api().getAssignment({ ...T, params: { id: a!.id } });
      await api().attempts({ ...T, params: { assignmentId: a!.id } });
      await api().quiz({ ...T, params: { moduleId: a!.module_id } });
      await api().deadlines({ ...T, query: {} });
      await api().overdue(T);
      await api().certificates(T);
      await api().verify({ ...T, params: { id: c!.id } });
      await api().publicVerify({ ...T, params: { code: c!.verification_code } });
      await api().auditLog({ ...T, query: {} });
      await api().stats(T);
      // refused: a module with assignments stays, a code stays unique, an unknown matrix entry is not there
      await refused(api().deleteModule({ ...T, params: { id: a!.module_id } }));
      await refused(
        api().createModule({
          ...T,
          body: { module_code: 'J-5', title: 'Doppelt', regulation_area: 'dsgvo', frequency_type: 'annual' },
        }),
      );
      await refused(api().unsetMatrix({ ...T, params: { role: 'R1', moduleId: a!.module_id } }));
    });
    expect(nothing.pairs).toEqual([]);
    await expectChainIntact(b.local, T.tenant);
  });
});
