import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';
import { expectChainIntact, journalAfter, journalHead, journalled, lastState } from '../support/journal.js';

// Content generation writes what the model answered in one unit of work with its audit row: a content version, or a
// quiz replacing the module's questions (a tombstone per old question); publishing archives the version published
// before and publishes the new one. A failed or refused generation leaves nothing, nor does a dry run.
const quiz = (n: number) =>
  JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => ({
      question: `Frage ${i + 1}?`,
      options: ['a', 'b', 'c'],
      correct_index: i % 3,
      explanation: 'weil',
    })),
  });

describe.each(BACKEND_NAMES)('the journal of content generation on the %s backend', (name) => {
  let ollama: FakeOllama;
  const T = { tenant: 'journal-content', actor: 'autor@example.com' };
  const api = () => b.backend.trainingContent;
  const run = <R>(op: () => Promise<R>) => journalled(b.backend, T.tenant, op);
  const refused = (p: Promise<unknown>) => failure(p).then(() => undefined);
  const newModule = async (tenant: string, code: string, extra: object = {}) =>
    (
      await b.backend.training.createModule({
        tenant,
        actor: T.actor,
        body: {
          module_code: code,
          title: `Modul ${code}`,
          regulation_area: 'dsgvo',
          frequency_type: 'annual',
          ...extra,
        },
      })
    ).id;
  let moduleId = '';
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
  });
  const b = useBackend(name, () => ({ llm: { host: ollama.url, model: 'llama3.1:8b' } }));
  beforeAll(async () => {
    moduleId = await newModule(T.tenant, 'C-1', {
      questions: [{ question: 'Alt?', options: ['ja', 'nein'], correct_index: 0, explanation: '' }],
    });
  });
  afterAll(async () => {
    await ollama.close();
  });

  it('a generated version leaves the content row and its audit row; publishing leaves each version it changed', async () => {
    ollama.reply({ text: '# Eins' });
    const first = await run(() => api().generate({ ...T, body: { module_id: moduleId } }));
    const v1 = first.result.id;
    expect(first.pairs).toEqual(['training_content insert', 'training_audit insert']);
    expect(first.entries.every((e) => e.actor === T.actor)).toBe(true);
    expect(lastState(first.entries, 'training_content', v1)).toMatchObject({
      id: v1,
      tenant_id: T.tenant,
      module_id: moduleId,
      version: 1,
      markdown: '# Eins',
      status: 'draft',
    });
    expect(first.entries[1]!.data).toMatchObject({ action: 'content_generated', entity_id: moduleId });

    const published = await run(() => api().publish({ ...T, params: { contentId: v1 }, body: {} }));
    expect(published.pairs).toEqual(['training_content update']);
    expect(lastState(published.entries, 'training_content', v1)).toMatchObject({ status: 'published' });

    ollama.reply({ text: '# Zwei' });
    const v2 = (await api().generate({ ...T, body: { module_id: moduleId } })).id;
    const next = await run(() => api().publish({ ...T, params: { contentId: v2 }, body: {} }));
    expect(next.pairs).toEqual(['training_content update', 'training_content update']);
    expect(lastState(next.entries, 'training_content', v1)).toMatchObject({ status: 'archived' });
    expect(lastState(next.entries, 'training_content', v2)).toMatchObject({ status: 'published', version: 2 });
  });

  it('a quiz leaves a tombstone per old question, each new question and the audit row', async () => {
    const old = (await b.backend.training.getModule({ ...T, params: { id: moduleId } })).questions.map((q) => q.id);
    ollama.reply({ text: quiz(2) });
    const r = await run(() => api().generateQuiz({ ...T, body: { module_id: moduleId, count: 2 } }));
    expect(r.pairs).toEqual([
      'training_question delete',
      'training_question insert',
      'training_question insert',
      'training_audit insert',
    ]);
    expect(r.entries[0]).toMatchObject({ entity_id: old[0], data: null });
    expect(r.result.questions.map((q) => lastState(r.entries, 'training_question', q.id))).toEqual([
      expect.objectContaining({ question: 'Frage 1?', position: 0, module_id: moduleId }),
      expect.objectContaining({ question: 'Frage 2?', position: 1, module_id: moduleId }),
    ]);
    expect(r.entries[3]!.data).toMatchObject({ action: 'content_generated', details: expect.stringContaining('quiz') });
  });

  it('failed, refused and dry runs leave nothing; reads neither', async () => {
    const published = (await api().published({ ...T, params: { moduleId } })).id;
    const nothing = await run(async () => {
      ollama.reply({ status: 500, error: 'out of memory' });
      await refused(api().generate({ ...T, body: { module_id: moduleId } }));
      ollama.reply({ text: ' \n ' });
      await refused(api().generate({ ...T, body: { module_id: moduleId } }));
      ollama.reply({ text: 'kein JSON' }, { text: quiz(1) });
      await refused(api().generateQuiz({ ...T, body: { module_id: moduleId, count: 2 } }));
      await refused(api().generate({ ...T, body: { module_id: 'unknown' } }));
      await refused(api().publish({ ...T, params: { contentId: published }, body: {} }));
      await api().generateAll({ ...T, body: { dry_run: true } });
      await api().generateAllQuiz({ ...T, body: { dry_run: true } });
      await api().published({ ...T, params: { moduleId } });
    });
    expect(nothing.pairs).toEqual([]);
  });

  it('a bulk run leaves one unit of work per module generated, each its version and its audit row', async () => {
    const P = { tenant: 'journal-content-bulk', actor: T.actor };
    const a = await newModule(P.tenant, 'B-1');
    const c = await newModule(P.tenant, 'B-2');
    ollama.reply({ text: '# B' }, { text: '# B' });
    const before = await journalHead(b.backend, P.tenant);
    const r = await b.backend.trainingContent.generateAll({ ...P, body: { concurrency: 1 } });
    expect(r).toMatchObject({ generated: 2, failed: 0 });
    const entries = await journalAfter(b.backend, P.tenant, before);
    const units = [...new Set(entries.map((e) => e.txn))].map((txn) =>
      entries.filter((e) => e.txn === txn).map((e) => `${e.entity} ${e.op}`),
    );
    expect(units).toEqual([
      ['training_content insert', 'training_audit insert'],
      ['training_content insert', 'training_audit insert'],
    ]);
    expect(
      entries.filter((e) => e.entity === 'training_content').map((e) => (e.data as { module_id: string }).module_id),
    ).toEqual([a, c]);
    await expectChainIntact(b.local, P.tenant);
    await expectChainIntact(b.local, T.tenant);
  });
});
