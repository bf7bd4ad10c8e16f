import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import { shortId } from '../../src/domain/short-id.js';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, bytesOf, engineOf, freshStore, overHttp, startServer, failure } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';
import { checkedTransport, checkedLocal } from '../support/openapi-check.js';

const T = { tenant: 'medien', actor: 'redaktion' };
const MD =
  '# Sicher im Netz\n\n## Lernziele\n- Phishing erkennen\n- Vorfälle melden\n\nAngreifer nutzen Zeitdruck.\n\n## Zusammenfassung\n- Erst prüfen, dann klicken\n';

describe.each(BACKEND_NAMES)('media on the %s backend', (name) => {
  let ollama: FakeOllama;
  let local: LocalBackend;
  let api: Backend;
  let url = '';
  let close: () => Promise<void>;
  let moduleId = '';
  let now = new Date('2026-05-01T10:00:00Z');
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
    local = await createLocalBackend(await freshStore(engineOf(name)), {
      llm: { host: ollama.url },
      clock: { now: () => new Date(now) },
    });
    const srv = await startServer(local);
    url = srv.url;
    // both faces held to the OpenAPI document, as the other contract tests are through openBackend
    api = !overHttp(name)
      ? checkedLocal(local)
      : createHttpBackend({ url: srv.url, transport: checkedTransport(srv.url) });
    close = async () => {
      await srv.close();
      await local.close();
    };
    moduleId = (
      await api.training.createModule({
        ...T,
        body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
      })
    ).id;
  });
  afterAll(async () => {
    await close();
    await ollama.close();
  });

  it('refuses audio for a module without published content (409)', async () => {
    expect((await failure(api.trainingMedia.generateAudio({ ...T, params: { moduleId }, body: {} }))).code).toBe(
      'conflict',
    );
    expect(
      (await failure(api.trainingMedia.generateAudio({ ...T, params: { moduleId: 'nope' }, body: {} }))).code,
    ).toBe('not_found');
  });

  it('previews the script, speaks and films the published content, and serves it through signed URLs', async (ctx) => {
    requirePrograms(ctx, 'espeak-ng', 'ffmpeg', 'ffprobe');
    ollama.reply({ text: MD });
    const c = await api.trainingContent.generate({ ...T, body: { module_id: moduleId } });
    await api.trainingContent.publish({ ...T, params: { contentId: c.id }, body: {} });
    const script = await api.trainingMedia.previewScript({ ...T, params: { moduleId }, body: {} });
    expect(script).toEqual({
      title: 'Sicher im Netz',
      sections: [
        {
          heading: 'Lernziele',
          text: expect.stringContaining('Angreifer'),
          bullet_points: ['Phishing erkennen', 'Vorfälle melden'],
        },
        { heading: 'Zusammenfassung', text: expect.any(String), bullet_points: ['Erst prüfen, dann klicken'] },
      ],
    });
    const audio = await api.trainingMedia.generateAudio({ ...T, params: { moduleId }, body: {} });
    expect(audio).toMatchObject({
      kind: 'audio',
      content_type: 'audio/mp4',
      bucket: 'training-media',
      status: 'draft',
    });
    expect(audio.duration_seconds).toBeGreaterThan(1);
    const video = await api.trainingMedia.generateVideo({ ...T, params: { moduleId: shortId(moduleId) }, body: {} });
    expect(video).toMatchObject({ kind: 'video', content_type: 'video/mp4', module_id: moduleId });
    expect(
      (await api.trainingMedia.list({ ...T, params: { moduleId: shortId(moduleId) } })).map((m) => m.kind),
    ).toEqual(['video', 'audio']);
    expect((await api.trainingMedia.publish({ ...T, params: { mediaId: audio.id }, body: {} })).status).toBe(
      'published',
    );
    expect(
      (await api.trainingMedia.publish({ ...T, params: { mediaId: audio.id }, body: { published: false } })).status,
    ).toBe('withdrawn');
    const file = await api.trainingMedia.download({ ...T, params: { mediaId: audio.id } });
    expect([file.size, (await bytesOf(file)).byteLength]).toEqual([audio.size_bytes, audio.size_bytes]);
    // a span of it, as a player seeks, and the whole again: each reading is a request of its own over HTTP
    const whole = await bytesOf(file);
    expect(await bytesOf(file, { start: 10, end: 41 })).toEqual(whole.subarray(10, 42));
    expect(await bytesOf(file, { start: audio.size_bytes - 5, end: audio.size_bytes - 1 })).toEqual(whole.subarray(-5));

    const u = await api.trainingMedia.url({ ...T, params: { mediaId: shortId(audio.id) } });
    expect(u).toMatchObject({ bucket: 'training-media', object_key: audio.object_key });
    const stream = await fetch(`${url}/sdk/v1/training/media/${audio.id}/stream`, {
      headers: { 'x-tenant-id': T.tenant },
      redirect: 'manual',
    });
    expect(stream.status).toBe(307);
    const location = new URL(stream.headers.get('location')!, url).toString();
    const got = await fetch(location);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('audio/mp4');
    expect((await got.arrayBuffer()).byteLength).toBe(audio.size_bytes);
    const tampered = location.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    expect((await fetch(location.replace(/tenant=[^&]+/, 'tenant=andere'))).status).toBe(403);
    now = new Date(now.getTime() + 16 * 60_000);
    const expired = await fetch(location);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ code: 'forbidden', error: expect.stringMatching(/expired/) });
    now = new Date('2026-05-01T10:00:00Z');
    const film = await api.trainingMedia.download({ ...T, params: { mediaId: shortId(video.id) } });
    expect((await bytesOf(film)).byteLength).toBe(video.size_bytes);
    expect(
      (await failure(api.trainingMedia.url({ tenant: 'andere', params: { mediaId: shortId(audio.id) } }))).code,
    ).toBe('not_found');
  }, 60_000);
});
