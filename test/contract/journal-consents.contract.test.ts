import { describe, expect, it } from 'vitest';
import { changesOf } from '../../src/domain/journal/changes.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { BACKEND_NAMES, useBackend } from '../support/helpers.js';
import { expectChainIntact, journalAfter, journalHead, journalled, lastState, tally } from '../support/journal.js';

const AT = '2026-01-01T10:00:00Z';
const csv = (text: string) => ({
  body: (async function* () {
    yield text;
  })(),
  content_type: 'text/csv',
});

/** The row changes of entries, batch entries expanded, as `entity op` counted. */
const rowTally = (entries: JournalEntry[]) =>
  tally(entries.flatMap((e) => changesOf(e).map((c) => `${c.entity} ${c.op}`)));

// Consents, their bulk imports and reverts, legal documents and the cookie banner: every write leaves its entries in
// the tenant's journal, in the transaction of the change (an import's batch as one entry of its run), with the actor
// the request named; reads and refused writes leave none, and the chain verifies afterwards.
describe.each(BACKEND_NAMES)('the journal of consents, legal documents and the banner on the %s backend', (name) => {
  const b = useBackend(name);
  const T = { tenant: 'journal-consents', actor: 'alice@example.com' };
  const consents = () => b.backend.consents;

  it('create, revoke and renew leave the consent after the change and its history entry', async () => {
    const input = { user_id: 'anna', data_point_id: 'news', granted: true, consent_version: '1' };
    const created = await journalled(b.backend, T.tenant, () => consents().create({ ...T, body: input }));
    expect(created.pairs).toEqual(['consent insert', 'consent_history insert']);
    const id = created.result.id;
    expect(lastState(created.entries, 'consent', id)).toMatchObject({ user_id: 'anna', granted: 1, revoked_at: null });
    expect(created.entries[0]).toMatchObject({ actor: T.actor, entity_id: id });

    const renewed = await journalled(b.backend, T.tenant, () =>
      consents().renew({ ...T, params: { id }, body: { consent_version: '2' } }),
    );
    expect(renewed.pairs).toEqual(['consent update', 'consent_history insert']);
    expect(lastState(renewed.entries, 'consent', id)).toMatchObject({ consent_version: '2' });

    const revoked = await journalled(b.backend, T.tenant, () => consents().revoke({ ...T, params: { id } }));
    expect(revoked.pairs).toEqual(['consent update', 'consent_history insert']);
    expect(lastState(revoked.entries, 'consent', id)).toMatchObject({ revoked_at: expect.stringMatching(/Z$/) });

    const nothing = await journalled(b.backend, T.tenant, async () => {
      await consents().list({ ...T, query: {} });
      await consents().stats(T);
      await consents()
        .revoke({ ...T, params: { id } })
        .catch(() => undefined);
    });
    expect(nothing.pairs).toEqual([]);
  });

  it('an import is one batch entry per transaction of its run, and its revert undoes it in the journal too', async () => {
    const t = { tenant: 'journal-import', actor: 'importer' };
    const first = await consents().create({
      ...t,
      body: { user_id: 'old', data_point_id: 'news', granted: true, consent_version: '1', granted_at: AT },
    });
    const before = await journalHead(b.backend, t.tenant);
    const rows = ['user_id,data_point_id,granted,granted_at,revoked_at,consent_version'];
    for (let i = 0; i < 12_000; i++) rows.push(`u${i},news,true,${AT},${i % 4 === 0 ? AT : ''},1`);
    // the stored consent, now revoked by the file
    rows.push(`old,news,true,${AT},2026-02-01T00:00:00Z,1`);
    const run = await consents().import({ ...t, query: {}, stream: csv(rows.join('\n') + '\n') });
    expect(run).toMatchObject({ created: 12_000, revoked: 1, rejected: 0 });
    const entries = await journalAfter(b.backend, t.tenant, before);
    // two transactions of 10,000 rows at most, then the run's record as it finished
    expect(entries.map((e) => `${e.entity} ${e.op}`)).toEqual([
      'consent_import_run batch',
      'consent_import_run batch',
      'consent_import_run update',
    ]);
    expect(new Set(entries.map((e) => e.entity_id))).toEqual(new Set([run.run_id]));
    expect(entries.every((e) => e.actor === 'importer')).toBe(true);
    expect(rowTally(entries)).toEqual({
      'consent insert': 12_000,
      'consent_history insert': 12_000 + 3_000 + 1,
      'consent update': 1,
      'consent_import_run insert': 1,
      'consent_import_run update': 2,
    });
    const changes = entries.flatMap((e) => changesOf(e));
    expect(changes.find((c) => c.entity === 'consent' && c.op === 'update')).toMatchObject({
      id: first.id,
      row: { revoked_at: '2026-02-01T00:00:00.000Z' },
    });
    expect(changes.at(-1)).toMatchObject({ entity: 'consent_import_run', row: { status: 'completed' } });

    const reverted = await journalled(b.backend, t.tenant, () =>
      consents().revertImport({ ...t, params: { id: run.run_id! } }),
    );
    expect(reverted.pairs).toEqual([
      'consent_import_run batch',
      'consent_import_run batch',
      'consent_import_run update',
    ]);
    expect(rowTally(reverted.entries)).toEqual({
      'consent delete': 12_000,
      'consent_history delete': 15_001,
      'consent update': 1,
      'consent_import_run update': 1,
    });
    expect(lastState(reverted.entries, 'consent_import_run', run.run_id!)).toMatchObject({ status: 'reverted' });
    // a dry run writes nothing, so it leaves nothing
    const dry = await journalled(b.backend, t.tenant, () =>
      consents().import({ ...t, query: { dry_run: 'true' }, stream: csv(rows.slice(0, 10).join('\n') + '\n') }),
    );
    expect(dry.pairs).toEqual([]);
    await expectChainIntact(b.local, t.tenant);
  });

  it('legal documents: creation, versions, every transition and the archive of the previous publication', async () => {
    const api = b.backend.legalDocuments;
    const t = { tenant: 'journal-legal', actor: 'editor' };
    const d = await journalled(b.backend, t.tenant, () =>
      api.create({ ...t, body: { title: 'DSE', document_type: 'privacy_policy' } }),
    );
    expect(d.pairs).toEqual(['legal_document insert']);
    const publish = async (content: string) => {
      const v = await journalled(b.backend, t.tenant, () =>
        api.addVersion({ ...t, params: { id: d.result.id }, body: { title: 'DSE', content } }),
      );
      expect(v.pairs).toEqual(['legal_document_version insert', 'legal_document update']);
      const id = v.result.id;
      for (const step of ['submit', 'approve'] as const) {
        const s = await journalled(b.backend, t.tenant, () => api[step]({ ...t, params: { id }, body: {} }));
        expect(s.pairs).toEqual(['legal_document_version update']);
      }
      return journalled(b.backend, t.tenant, () => api.publish({ ...t, params: { id }, body: {} }));
    };
    const p1 = await publish('Version 1');
    expect(tally(p1.pairs)).toEqual({ 'legal_document_version update': 1, 'legal_document update': 1 });
    expect(lastState(p1.entries, 'legal_document', d.result.id)).toMatchObject({ status: 'published' });
    const p2 = await publish('Version 2');
    expect(tally(p2.pairs)).toEqual({ 'legal_document_version update': 2, 'legal_document update': 1 });
    expect(p2.entries.map((e) => (e.data as { status?: string }).status)).toContain('archived');
    await expectChainIntact(b.local, t.tenant);
  });

  it('the cookie banner: a saved configuration is one entry; an invalid one none', async () => {
    const api = b.backend.cookieBanner;
    const t = { tenant: 'journal-banner', actor: 'web' };
    const current = await api.get(t);
    const body = { categories: current.categories, config: { ...current.config, primaryColor: '#112233' } };
    const saved = await journalled(b.backend, t.tenant, () => api.put({ ...t, body }));
    expect(saved.pairs).toEqual(['cookie_banner update']);
    expect(saved.entries[0]).toMatchObject({ entity_id: t.tenant, actor: 'web' });
    expect(JSON.parse((saved.entries[0]!.data as { config: string }).config)).toMatchObject({
      primaryColor: '#112233',
    });
    const refused = await journalled(b.backend, t.tenant, () =>
      api.put({ ...t, body: { categories: [], config: body.config } }).catch(() => undefined),
    );
    expect(refused.pairs).toEqual([]);
    await expectChainIntact(b.local, T.tenant);
  });
});
