import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, useBackend, failure } from '../support/helpers.js';
import { expectChainIntact, journalled, lastState } from '../support/journal.js';
import { requirePrograms } from '../support/programs.js';

// A medium's record is journaled as it is written and each time it is published or withdrawn; its bytes are not
// (they are the media store's). Signing a URL, listing and downloading are reads and leave nothing; deleting the
// module leaves a tombstone for each medium it had.
const MD = '# Sicher im Netz\n\n## Lernziele\n- Phishing erkennen\n\nAngreifer nutzen Zeitdruck.\n';

describe.each(BACKEND_NAMES)('the journal of training media on the %s backend', (name) => {
  let ollama: FakeOllama;
  const T = { tenant: 'journal-media', actor: 'redaktion@example.com' };
  const api = () => b.backend.trainingMedia;
  const run = <R>(op: () => Promise<R>) => journalled(b.backend, T.tenant, op);
  const refused = (p: Promise<unknown>) => failure(p).then(() => undefined);
  let moduleId = '';
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
  });
  const b = useBackend(name, () => ({ llm: { host: ollama.url } }));
  beforeAll(async () => {
    moduleId = (
      await b.backend.training.createModule({
        ...T,
        body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
      })
    ).id;
  });
  afterAll(async () => {
    await ollama.close();
  });

  it('refused generations leave nothing', async () => {
    const nothing = await run(async () => {
      // no published content yet, and a module that does not exist
      await refused(api().generateAudio({ ...T, params: { moduleId }, body: {} }));
      await refused(api().generateAudio({ ...T, params: { moduleId: 'nope' }, body: {} }));
      await refused(api().publish({ ...T, params: { mediaId: 'nope' }, body: {} }));
      await api().list({ ...T, params: { moduleId } });
    });
    expect(nothing.pairs).toEqual([]);
  });

  it('a medium leaves its record when made, published and withdrawn; reads leave nothing', async (ctx) => {
    requirePrograms(ctx, 'espeak-ng', 'ffmpeg', 'ffprobe');
    ollama.reply({ text: MD });
    const c = await b.backend.trainingContent.generate({ ...T, body: { module_id: moduleId } });
    await b.backend.trainingContent.publish({ ...T, params: { contentId: c.id }, body: {} });

    const made = await run(() => api().generateAudio({ ...T, params: { moduleId }, body: {} }));
    const m = made.result;
    expect(made.pairs).toEqual(['training_media insert']);
    expect(made.entries[0]).toMatchObject({ entity_id: m.id, actor: T.actor });
    expect(made.entries[0]!.data).toEqual({
      ...m,
      tenant_id: T.tenant,
    });

    const published = await run(() => api().publish({ ...T, params: { mediaId: m.id }, body: {} }));
    expect(published.pairs).toEqual(['training_media update']);
    expect(lastState(published.entries, 'training_media', m.id)).toMatchObject({
      status: 'published',
      published_at: published.result.published_at,
      object_key: m.object_key,
    });
    const withdrawn = await run(() => api().publish({ ...T, params: { mediaId: m.id }, body: { published: false } }));
    expect(withdrawn.pairs).toEqual(['training_media update']);
    expect(lastState(withdrawn.entries, 'training_media', m.id)).toMatchObject({
      status: 'withdrawn',
      published_at: null,
    });

    const reads = await run(async () => {
      await api().list({ ...T, params: { moduleId } });
      await api().previewScript({ ...T, params: { moduleId }, body: {} });
      await api().url({ ...T, params: { mediaId: m.id } });
      await api().download({ ...T, params: { mediaId: m.id } });
    });
    expect(reads.pairs).toEqual([]);

    // the module goes with what the schema deletes with it: its content version and its medium leave tombstones
    const deleted = await run(() => b.backend.training.deleteModule({ ...T, params: { id: moduleId } }));
    expect(deleted.pairs).toEqual(['training_content delete', 'training_media delete', 'training_module delete']);
    expect(deleted.entries.map((e) => [e.entity_id, e.data])).toEqual([
      [c.id, null],
      [m.id, null],
      [moduleId, null],
    ]);
    await expectChainIntact(b.local, T.tenant);
  });
});
