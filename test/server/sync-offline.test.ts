import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, cli, tmpDb } from '../support/helpers.js';
import { expectChainIntact } from '../support/journal.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// The door refuses what breaks a rule, never a laptop's legitimate offline work: a legal version submitted, approved
// and published; a consent revoked; an assignment started, its quiz passed, completed and certified; a DSFA taken
// through the strict workflow with four eyes. Each arrives in one sync, both ways, without a conflict.

describe.each(ENGINE_NAMES)('offline work through the door of a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, tenant: string) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);

  /** The tenant's work of a day on one side: every kind of change the door checks, through the API of that side. */
  async function work(b: LocalBackend, tenant: string, tag: string) {
    const t = (actor: string) => ({ tenant, actor });
    const doc = await b.legalDocuments.create({
      ...t('sam'),
      body: { title: `DSE ${tag}`, document_type: 'privacy_policy' },
    });
    const v = await b.legalDocuments.addVersion({
      ...t('lea'),
      params: { id: doc.id },
      body: { title: 'DSE', content: tag },
    });
    for (const step of ['submit', 'approve', 'publish'] as const)
      await b.legalDocuments[step]({ ...t('bob'), params: { id: v.id }, body: {} });
    const c = await b.consents.create({
      ...t('web'),
      body: { user_id: `u-${tag}`, data_point_id: 'news', granted: true },
    });
    await b.consents.revoke({ ...t('lea'), params: { id: c.id } });
    const [module] = await b.training.listModules({ tenant, query: {} });
    const user = { user_id: `user-${tag}`, user_name: 'Erika', user_email: 'erika@example.com', roles: ['R9'] };
    await b.training.compute({ ...t('sam'), body: user });
    const [a] = await b.training.listAssignments({ tenant, query: { user_id: `user-${tag}` } });
    await b.training.start({ ...t('erika'), params: { id: a!.id } });
    const detail = await b.training.getModule({ tenant, params: { id: module!.id } });
    const answers = detail.questions.map((q) => ({ question_id: q.id, selected_index: q.correct_index }));
    expect(
      (
        await b.training.submitQuiz({
          ...t('erika'),
          params: { moduleId: module!.id },
          body: { assignment_id: a!.id, answers },
        })
      ).passed,
    ).toBe(true);
    await b.training.complete({ ...t('erika'), params: { id: a!.id } });
    await b.training.generateCertificate({ ...t('sam'), params: { assignmentId: a!.id }, body: {} });
    const d = await b.dsfa.create({ ...t('lea'), body: { title: `Kamera ${tag}` } });
    await b.dsfa.setStatus({ ...t('lea'), params: { id: d.id }, body: { status: 'in-review' } });
    await b.dsfa.setStatus({ ...t('bob'), params: { id: d.id }, body: { status: 'approved', approved_by: 'bob' } });
    return { doc: doc.id, version: v.id, consent: c.id, assignment: a!.id, dsfa: d.id };
  }

  /** What each side answers for the records of one day's work. */
  const view = async (b: LocalBackend, tenant: string, ids: Awaited<ReturnType<typeof work>>) => ({
    version: await b.legalDocuments.version({ tenant, params: { id: ids.version } }),
    consent: await b.consents.history({ tenant, params: { id: ids.consent } }),
    assignment: await b.training.getAssignment({ tenant, params: { id: ids.assignment } }),
    certificates: (await b.training.certificates({ tenant })).map((c) => c.id).sort(),
    dsfa: await b.dsfa.get({ tenant, params: { id: ids.dsfa } }),
    audit: await b.dsfa.auditLog({ tenant, query: { dsfa_id: ids.dsfa } }),
  });

  it('arrives whole, both ways, with no conflict', async () => {
    const tenant = 'offline';
    const t = { tenant, actor: 'sam' };
    await server.dsfa.updateSettings({ ...t, body: { workflow: 'strict' } });
    const m = await server.training.createModule({
      ...t,
      body: {
        module_code: 'DSGVO-01',
        title: 'Datenschutz',
        regulation_area: 'dsgvo',
        frequency_type: 'annual',
        questions: [
          { question: 'Was ist personenbezogen?', options: ['Name', 'Wetter'], correct_index: 0 },
          { question: 'Wer ist verantwortlich?', options: ['Niemand', 'Der Verantwortliche'], correct_index: 1 },
        ],
      },
    });
    await server.training.setMatrix({ ...t, body: { role_code: 'R9', module_id: m.id } });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);

    // the laptop's day, offline; then the server's
    const mine = await onLaptop(laptop, (l) => work(l, tenant, 'laptop'));
    const theirs = await work(server, tenant, 'server');
    const r = await sync(laptop, tenant);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).conflicts).toEqual([]);
    expect(r.code).toBe(0);
    for (const ids of [mine, theirs])
      await onLaptop(laptop, async (l) => expect(await view(l, tenant, ids)).toEqual(await view(server, tenant, ids)));
    expect((await view(server, tenant, mine)).assignment).toMatchObject({ status: 'completed', quiz_passed: true });
    expect((await view(server, tenant, mine)).version).toMatchObject({ status: 'published' });
    expect((await view(server, tenant, mine)).dsfa).toMatchObject({ status: 'approved', approved_by: 'bob' });
    await onLaptop(laptop, (l) => expectChainIntact(l, tenant));
    await expectChainIntact(server, tenant);
    // nothing left to move
    expect(JSON.parse((await sync(laptop, tenant)).stdout)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
  });
});
