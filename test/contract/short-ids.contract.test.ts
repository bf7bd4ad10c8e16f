import { describe, expect, it } from 'vitest';
import type { IdSource } from '../../src/domain/clock.js';
import { shortId } from '../../src/domain/short-id.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';

/** Time-ordered ids, of which the test may give the next ones an end of its choosing (null: leave one as it is). */
function idsWithEnds(): IdSource & { end(...tails: Array<string | null>): void } {
  const real = uuidv7Source();
  const tails: Array<string | null> = [];
  return {
    next: () => {
      const id = real.next();
      const tail = tails.shift();
      return tail ? id.slice(0, 36 - tail.length) + tail : id;
    },
    end: (...t) => tails.push(...t),
  };
}

const questions = [
  { question: 'Frist für eine Meldung?', options: ['24 h', '72 h'], correct_index: 1 },
  { question: 'Passwörter teilen?', options: ['Ja', 'Nein'], correct_index: 1 },
];

// Every id a route takes may be given short: its last 8 characters (what tables show) or more of its end, or its
// first 8 or more; resolved per tenant, on an index, the same on every face.
describe.each(BACKEND_NAMES)('short ids on the %s backend', (name) => {
  const ids = idsWithEnds();
  const A = { tenant: `short-a-${Math.random()}`, actor: 'tester' };
  const B = { tenant: `short-b-${Math.random()}`, actor: 'tester' };
  const b = useBackend(name, { ids });

  it('consents: revoke, renew and history by the short id; two that share it are listed; another tenant has none', async () => {
    const c = b.backend.consents;
    // a person of their own each: a second grant of one person renews the consent in force
    const grant = (t: typeof A, user = 'u1') =>
      c.create({ ...t, body: { user_id: user, data_point_id: 'newsletter', granted: true } });
    const first = await grant(A);
    expect((await c.history({ ...A, params: { id: shortId(first.id) } }))[0]).toMatchObject({ consent_id: first.id });
    expect((await c.renew({ ...A, params: { id: first.id.slice(-12) }, body: {} })).id).toBe(first.id);
    expect((await c.revoke({ ...A, params: { id: shortId(first.id).toUpperCase() } })).id).toBe(first.id);
    // the consent, its history entry, then the journal's transaction: two consents ending alike
    ids.end('aaaa1111', null, null, 'aaaa1111', null, null, 'cccc3333', null, null, 'cccc3333', null, null);
    const [x, y, mine, theirs] = [
      await grant(A, 'u2'),
      await grant(A, 'u3'),
      await grant(A, 'u4'),
      await grant(B, 'u5'),
    ];
    const twins = await failure(c.history({ ...A, params: { id: 'aaaa1111' } }));
    expect(twins).toMatchObject({
      code: 'bad_request',
      message: `consent id aaaa1111 is ambiguous: it fits ${[x.id, y.id].sort().join(', ')}; give more of it`,
    });
    expect(twins.details.map((d) => d.message)).toEqual([x.id, y.id].sort().map((id) => `candidate ${id}`));
    expect((await c.revoke({ ...A, params: { id: x.id.slice(-13) } })).id).toBe(x.id);
    // a record of another tenant with the same end neither answers nor makes this tenant's ambiguous
    expect((await c.revoke({ ...A, params: { id: 'cccc3333' } })).id).toBe(mine.id);
    expect((await c.revoke({ ...B, params: { id: 'cccc3333' } })).id).toBe(theirs.id);
    expect((await failure(c.history({ ...B, params: { id: shortId(first.id) } }))).code).toBe('not_found');
    expect((await failure(c.history({ ...A, params: { id: 'ffffffff' } }))).message).toBe('consent ffffffff not found');
  });

  it('DSFA: every route by the short id, and the audit log of one, also after it was deleted', async () => {
    const d = b.backend.dsfa;
    const one = await d.create({ ...A, body: { title: 'Kurz' } });
    const s = shortId(one.id);
    expect((await d.get({ ...A, params: { id: s } })).id).toBe(one.id);
    await d.update({ ...A, params: { id: s }, body: { description: 'neu' } });
    await d.setStatus({ ...A, params: { id: s }, body: { status: 'in-review' } });
    expect((await d.auditLog({ ...A, query: { dsfa_id: s } })).map((e) => e.action)).toEqual([
      'STATUS_CHANGE',
      'UPDATE',
      'CREATE',
    ]);
    await d.delete({ ...A, params: { id: s } });
    expect((await failure(d.get({ ...A, params: { id: s } }))).code).toBe('not_found');
    const trail = await d.auditLog({ ...A, query: { dsfa_id: s } });
    expect(trail.map((e) => [e.action, e.dsfa_id])).toContainEqual(['DELETE', one.id]);
    expect(await d.auditLog({ ...B, query: { dsfa_id: s } })).toEqual([]);
  });

  it('legal documents and versions by their short ids', async () => {
    const l = b.backend.legalDocuments;
    const doc = await l.create({ ...A, body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' } });
    expect((await l.get({ ...A, params: { id: shortId(doc.id) } })).id).toBe(doc.id);
    const v = await l.addVersion({ ...A, params: { id: shortId(doc.id) }, body: { title: 'v1', content: '# A' } });
    expect(v.document_id).toBe(doc.id);
    expect((await l.versions({ ...A, params: { id: shortId(doc.id) } })).map((x) => x.id)).toEqual([v.id]);
    expect((await l.version({ ...A, params: { id: shortId(v.id) } })).id).toBe(v.id);
    await l.submit({ ...A, params: { id: shortId(v.id) } });
    await l.approve({ ...A, params: { id: shortId(v.id) }, body: { approved_by: 'dpo' } });
    expect((await l.publish({ ...A, params: { id: v.id.slice(0, 30) } })).status).toBe('published');
    expect((await failure(l.get({ ...B, params: { id: shortId(doc.id) } }))).code).toBe('not_found');
  });

  it('training: modules, the matrix, assignments, quiz and certificates by their short ids', async () => {
    const t = b.backend.training;
    const m = await t.createModule({
      ...A,
      body: { module_code: 'KURZ-01', title: 'Kurz', regulation_area: 'dsgvo', frequency_type: 'annual', questions },
    });
    const mod = shortId(m.id);
    expect((await t.getModule({ ...A, params: { id: mod } })).id).toBe(m.id);
    await t.updateModule({ ...A, params: { id: mod }, body: { pass_threshold: 50 } });
    expect((await t.setMatrix({ ...A, body: { role_code: 'R9', module_id: mod } })).module_id).toBe(m.id);
    const [a] = (
      await t.compute({
        ...A,
        body: { user_id: 'u1', user_name: 'Erika Muster', user_email: 'e@example.com', roles: ['R9'] },
      })
    ).assignments;
    const asg = shortId(a!.id);
    expect((await t.listAssignments({ ...A, query: { module_id: mod } })).map((x) => x.id)).toEqual([a!.id]);
    expect((await t.getAssignment({ ...A, params: { id: asg } })).id).toBe(a!.id);
    await t.start({ ...A, params: { id: asg }, body: {} });
    await t.progress({ ...A, params: { id: asg }, body: { progress: 50 } });
    const quiz = await t.quiz({ ...A, params: { moduleId: mod } });
    const answers = quiz.questions.map((q) => ({ question_id: q.id, selected_index: 1 }));
    const passed = await t.submitQuiz({ ...A, params: { moduleId: mod }, body: { assignment_id: asg, answers } });
    expect(passed.passed).toBe(true);
    expect(await t.attempts({ ...A, params: { assignmentId: asg } })).toHaveLength(1);
    await t.complete({ ...A, params: { id: asg }, body: {} });
    const cert = await t.generateCertificate({ ...A, params: { assignmentId: asg }, body: {} });
    const crt = shortId(cert.certificate_id);
    expect((await t.verify({ ...A, params: { id: crt } })).certificate.id).toBe(cert.certificate_id);
    expect((await t.certificatePdf({ ...A, params: { id: crt } })).content_type).toBe('application/pdf');
    await t.unsetMatrix({ ...A, params: { role: 'R9', moduleId: mod } });
    expect((await failure(t.getAssignment({ ...B, params: { id: asg } }))).code).toBe('not_found');
    expect((await failure(t.verify({ ...B, params: { id: crt } }))).code).toBe('not_found');
  });

  it('training blocks by their short ids', async () => {
    const k = b.backend.trainingBlocks;
    const block = await k.create({
      ...A,
      body: { name: 'Zugang', regulation_area: 'nis2', module_code_prefix: 'SEC-KURZ', domain_filter: 'AUTH' },
    });
    const s = shortId(block.id);
    expect((await k.get({ ...A, params: { id: s } })).id).toBe(block.id);
    expect((await k.update({ ...A, params: { id: s }, body: { name: 'Zugänge' } })).name).toBe('Zugänge');
    expect((await k.preview({ ...A, params: { id: s }, body: {} })).block_id).toBe(block.id);
    expect(await k.controls({ ...A, params: { id: s } })).toEqual([]);
    expect((await failure(k.get({ ...B, params: { id: s } }))).code).toBe('not_found');
    await k.delete({ ...A, params: { id: s } });
  });
});
