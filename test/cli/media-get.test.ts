import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, tmp, tmpDb } from '../support/helpers.js';
import { storeMedium } from '../support/media.js';

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
      for (const [kind, id] of Object.entries(media) as Array<['audio' | 'video', string]>)
        await storeMedium(b, { tenant, moduleId: mod.id, id, kind, bytes });
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
