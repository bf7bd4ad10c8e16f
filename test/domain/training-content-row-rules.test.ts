import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { locationProblem } from '../../src/domain/training/content.row-rules.js';
import { MediaRef } from '../../src/domain/training/media-ref.js';
import { refusal, rows, T0, T1, TENANT } from '../support/sync-rows.js';

// Content, media, blocks and the banner at the door. A medium's location is the store's: made from ids (MediaRef),
// never taken from a row, so a row cannot point the media store at a file outside it.
const held = { training_module: [rows.training_module()] };
const folder = createHash('sha256').update(TENANT).digest('hex').slice(0, 16);

describe('where a medium lives', () => {
  it('is made from the tenant (hashed), the module, the medium and the format of its kind', () => {
    const ref = MediaRef.of(TENANT, 'm1', 'md1', 'audio');
    expect(ref.key).toBe(`${folder}/m1/md1.m4a`);
    expect(ref.parts).toEqual([folder, 'm1', 'md1.m4a']);
    expect(ref.tenantFolder).toBe(folder);
    expect(MediaRef.of(TENANT, '01970000-0000-7000-8000-00000000abcd', 'A_b-9', 'video').key).toBe(
      `${folder}/01970000-0000-7000-8000-00000000abcd/A_b-9.mp4`,
    );
  });

  it('refuses anything that is not an id: no path can be built from a client’s text', () => {
    const refused = (module: string, media: string, kind = 'audio') => {
      try {
        MediaRef.of(TENANT, module, media, kind);
      } catch (e) {
        return [(e as DomainError).code, (e as DomainError).message, (e as DomainError).details];
      }
      return undefined;
    };
    expect(refused('../../etc', 'x')).toEqual([
      'validation',
      'training media: module_id "../../etc" is not an id of this store',
      [{ path: 'module_id', message: 'letters, digits, - and _' }],
    ]);
    expect(refused('m1', 'passwd/..')).toEqual([
      'validation',
      'training media: id "passwd/.." is not an id of this store',
      [{ path: 'id', message: 'letters, digits, - and _' }],
    ]);
    expect(refused('m1', 'md1', 'text')).toEqual([
      'validation',
      'training media: kind "text" is not an id of this store',
      [{ path: 'kind', message: 'one of audio, video' }],
    ]);
    for (const bad of ['', '.', '..', 'a.b', 'a/b', 'a\\b', '-a', 'x'.repeat(129), 'ä'])
      expect(refused(bad, 'md1'), bad).toBeDefined();
    expect(refused('x'.repeat(128), 'md1')).toBeUndefined();
    expect(refused('m1', 'toString', 'constructor')).toBeDefined();
  });

  it('a row says the location the store makes, or it is refused', () => {
    expect(locationProblem(TENANT, rows.training_media())).toBeNull();
    expect(locationProblem(TENANT, rows.training_media({ bucket: '../../../../etc', object_key: 'passwd' }))).toBe(
      `its location is the store's to choose: bucket training-media, object_key ${folder}/m1/md1.m4a`,
    );
    expect(locationProblem(TENANT, rows.training_media({ bucket: 'other-bucket' }))).toBe(
      `its location is the store's to choose: bucket training-media, object_key ${folder}/m1/md1.m4a`,
    );
    expect(locationProblem(TENANT, rows.training_media({ object_key: `${folder}/m1/md1.mp4` }))).toMatch(
      /^its location is the store's/,
    );
    expect(locationProblem(TENANT, rows.training_media({ module_id: '../x' }))).toBe(
      'training media: module_id "../x" is not an id of this store',
    );
  });
});

describe('a medium at the door', () => {
  it('is refused with a location of its own choosing, naming the store’s', async () => {
    expect(
      await refusal(held, {
        entity: 'training_media',
        before: null,
        after: rows.training_media({ bucket: '../../../../etc', object_key: 'passwd' }),
      }),
    ).toBe(
      `training media md1: its location is the store's to choose: bucket training-media, object_key ${folder}/m1/md1.m4a`,
    );
    expect(
      await refusal(held, { entity: 'training_media', before: null, after: rows.training_media() }),
    ).toBeUndefined();
  });

  it('is published exactly when it has published_at; goes with its module only', async () => {
    const m = rows.training_media();
    expect(
      await refusal(held, {
        entity: 'training_media',
        before: m,
        after: { ...m, status: 'published', published_at: T1 },
      }),
    ).toBeUndefined();
    expect(await refusal(held, { entity: 'training_media', before: m, after: { ...m, status: 'published' } })).toBe(
      'training media md1: it is published without published_at',
    );
    expect(
      await refusal(held, {
        entity: 'training_media',
        before: m,
        after: { ...m, status: 'withdrawn', published_at: T1 },
      }),
    ).toBe('training media md1: it is withdrawn but carries published_at');
    expect(
      await refusal(held, {
        entity: 'training_media',
        before: m,
        after: { ...m, status: 'published', published_at: '2026-04-01T00:00:00.000Z' },
      }),
    ).toBe('training media md1: published_at lies before created_at');
    expect(await refusal(held, { entity: 'training_media', before: m, after: null })).toBe(
      'training media md1 cannot be deleted: it is deleted with its module only',
    );
    expect(await refusal({}, { entity: 'training_media', before: m, after: null })).toBeUndefined();
    expect(await refusal(held, { entity: 'training_media', before: m, after: { ...m, kind: 'video' } })).toBe(
      'training_media md1 cannot change kind: it is fixed once the record is written',
    );
  });
});

describe('content at the door', () => {
  const c = rows.training_content();
  it('is published with a date, archived keeps it, and is no draft again', async () => {
    const published = { ...c, status: 'published', published_at: T1 };
    expect(await refusal(held, { entity: 'training_content', before: c, after: published })).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'training_content',
        before: published,
        after: { ...published, status: 'archived' },
      }),
    ).toBeUndefined();
    expect(await refusal(held, { entity: 'training_content', before: published, after: c })).toBe(
      'training content ct1 was published: it is no draft again',
    );
    expect(await refusal(held, { entity: 'training_content', before: c, after: { ...c, status: 'archived' } })).toBe(
      'training content ct1: it is archived without published_at',
    );
    expect(await refusal(held, { entity: 'training_content', before: c, after: { ...c, published_at: T1 } })).toBe(
      'training content ct1: it is draft but carries published_at',
    );
    expect(await refusal(held, { entity: 'training_content', before: c, after: null })).toBe(
      'training content ct1 cannot be deleted: it is deleted with its module only',
    );
    expect(await refusal({}, { entity: 'training_content', before: c, after: null })).toBeUndefined();
    expect(await refusal(held, { entity: 'training_content', before: null, after: { ...c, version: 0 } })).toMatch(
      /version/,
    );
    expect(T0 < T1).toBe(true);
  });
});

describe('blocks, controls and the banner at the door', () => {
  it('a block is dated after its creation and may go; a link names a block and a module of the tenant', async () => {
    const b = rows.training_block();
    expect(
      await refusal(
        {},
        { entity: 'training_block', before: null, after: { ...b, updated_at: '2026-04-01T00:00:00.000Z' } },
      ),
    ).toBe('training block b1: updated_at lies before created_at');
    expect(await refusal({}, { entity: 'training_block', before: b, after: null })).toBeUndefined();
    expect(
      await refusal({}, { entity: 'training_block', before: null, after: { ...b, module_code_prefix: 'bad prefix' } }),
    ).toMatch(/module_code_prefix/);
    expect(
      await refusal(held, { entity: 'training_block_control', before: null, after: rows.training_block_control() }),
    ).toBe(
      'training_block_control ["b1","AUTH-001"] names training_block b1 (block_id), which this tenant does not hold',
    );
    const link = rows.training_block_control();
    expect(await refusal({}, { entity: 'training_block_control', before: link, after: null })).toBeUndefined();
    expect(
      await refusal(
        {},
        {
          entity: 'training_canonical_control',
          before: null,
          after: rows.training_canonical_control({ id: 'auth-1' }),
        },
      ),
    ).toMatch(/id: expected DOMAIN-NNN/);
  });

  it("a banner's categories and configuration are what PUT takes", async () => {
    const banner = rows.cookie_banner();
    expect(await refusal({}, { entity: 'cookie_banner', before: null, after: banner })).toBeUndefined();
    const required = JSON.stringify([{ id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: false }]);
    expect(
      await refusal({}, { entity: 'cookie_banner', before: null, after: { ...banner, categories: required } }),
    ).toBe(
      'cookie_banner acme does not fit its table: categories.0.defaultEnabled: a required category must be enabled by default',
    );
    expect(await refusal({}, { entity: 'cookie_banner', before: null, after: { ...banner, config: 'nope' } })).toMatch(
      /^cookie_banner acme does not fit its table: config: /,
    );
  });
});
