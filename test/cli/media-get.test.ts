import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { cli, tmp, tmpDb } from '../support/helpers.js';

// `training media get -o FILE` writes the medium under a name that says what it is: an MPEG-4 audio file as .m4a (or
// .mp4), a video as .mp4. A name of another file type is refused before anything is written.
describe('training media get', () => {
  const db = tmpDb();
  const tenant = 'default';
  const bytes = Buffer.from('the bytes of a medium');
  const media = { audio: '01970000-0000-7000-8000-0000000000a1', video: '01970000-0000-7000-8000-0000000000b1' };

  beforeAll(async () => {
    const b = await createLocalBackend(db);
    try {
      const mod = await b.training.createModule({
        tenant,
        actor: 'sam',
        body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
      });
      // media as the media service leaves them: the object stored, then the record
      const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
      for (const [kind, id] of Object.entries(media)) {
        const ext = kind === 'audio' ? 'm4a' : 'mp4';
        const file = join(tmp(), `m.${ext}`);
        writeFileSync(file, bytes);
        const objectKey = `t/${mod.id}/${id}.${ext}`;
        await (await b.store.mediaObjects()).put(tenant, 'training-media', objectKey, file);
        await forRequest({ tenant, actor: 'sam', principal: 'test' }, () =>
          uow.write(tenant, (tx) =>
            tx.replica.apply(tenant, 'training_media', id, {
              id,
              tenant_id: tenant,
              module_id: mod.id,
              content_id: null,
              kind,
              bucket: 'training-media',
              object_key: objectKey,
              content_type: `${kind}/mp4`,
              size_bytes: bytes.length,
              duration_seconds: 1.5,
              status: 'draft',
              created_at: '2026-11-26T08:00:00.000Z',
              published_at: null,
            }),
          ),
        );
      }
    } finally {
      await b.close();
    }
  });

  const get = (id: string, output: string) => cli(['--db', db, 'training', 'media', 'get', id, '-o', output]);

  it('writes audio as .m4a or .mp4 and video as .mp4, or under a name without a known type', async () => {
    for (const [id, name] of [
      [media.audio, 'talk.m4a'],
      [media.audio, 'talk.MP4'],
      [media.video, 'film.mp4'],
      [media.video, 'film.bin'],
    ] as const) {
      const file = join(tmp(), name);
      const r = await get(id, file);
      expect([r.code, r.stderr]).toEqual([0, expect.stringContaining(`wrote ${file}`)]);
      expect(readFileSync(file)).toEqual(bytes);
    }
  });

  it('refuses a name of another type with exit 2, naming the extensions, and writes nothing', async () => {
    for (const [id, name, writes] of [
      [media.audio, 'talk.mp3', 'audio/mp4 (.m4a, .mp4)'],
      [media.video, 'film.m4a', 'video/mp4 (.mp4)'],
      [media.video, 'film.pdf', 'video/mp4 (.mp4)'],
    ] as const) {
      const file = join(tmp(), name);
      const r = await get(id, file);
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`media get writes ${writes}`)]);
      expect(existsSync(file)).toBe(false);
    }
  });
});
