import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { MediaRef } from '../../src/domain/training/media-ref.js';
import { parseMediaUrl } from '../../src/domain/training/media-url.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { cli, freshStore, startServer, tmp } from '../support/helpers.js';
import { storeMedium } from '../support/media.js';
import { asAdmin } from '../support/postgres.js';
import { onPath, requirePrograms } from '../support/programs.js';
import { startS3, type S3Server } from '../support/s3.js';
import { serve } from '../support/serve-process.js';

const tenant = 'kanzlei';
const HOUR_LATER = { now: () => new Date(Date.now() + 2 * 60 * 60 * 1000) };

/** One second of a real AAC tone in an MPEG-4 file, so a download can be played back with ffprobe (made once). */
let toneBytes: Buffer | undefined;
function tone(): Buffer {
  if (toneBytes) return toneBytes;
  const file = join(tmp(), 'tone.m4a');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac', file]);
  return (toneBytes = readFileSync(file));
}

const duration = (file: string) =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
      encoding: 'utf8',
    }).trim(),
  );

async function newModule(b: LocalBackend, code: string): Promise<string> {
  const mod = await b.training.createModule({
    tenant,
    actor: 'sam',
    body: { module_code: code, title: 'Meldewege', regulation_area: 'hinschg', frequency_type: 'micro' },
  });
  return mod.id;
}

/** What a folder or database store holds of a medium: the file beside SQLite, or chunk rows in PostgreSQL. */
async function ownCopies(engine: string, db: string, key: string): Promise<number> {
  if (engine === 'sqlite') return existsSync(join(db, '..', 'media', 'training-media', key)) ? 1 : 0;
  const { rows } = await asAdmin(
    'select count(*)::int as n from media_object_chunk where object_key = $1',
    [key],
    new URL(db).pathname.slice(1),
  );
  return rows[0]!.n as number;
}

describe.each(['sqlite', 'postgres'] as const)('media in an S3 object store (%s)', (engine) => {
  let s3: S3Server;
  let bytes: Buffer;
  beforeAll(async () => {
    s3 = await startS3();
    // playback tests require ffmpeg themselves; the others store any bytes
    bytes = onPath('ffmpeg') ? tone() : Buffer.from('audio bytes: ffmpeg is not installed');
  }, 30_000);
  afterAll(async () => s3?.close());

  it('uploads into PREFIX/<tenant hash>/media/ID.m4a, /stream answers 307 to a presigned GET that ffprobe plays, and media get -o downloads through it on both faces', async (ctx) => {
    requirePrograms(ctx, 'ffmpeg', 'ffprobe');
    const db = await freshStore(engine);
    const url = s3.url('acme');
    const b = await createLocalBackend(db, { media: parseMediaUrl(url) });
    const srv = await startServer(b, { keys: false });
    try {
      const id = '01970000-0000-7000-8000-00000000a001';
      const key = await storeMedium(b, { tenant, moduleId: await newModule(b, 'S3-1'), id, kind: 'audio', bytes });
      const ref = MediaRef.of(tenant, key.split('/')[1]!, id, 'audio');
      const api = (path: string, t = tenant) =>
        fetch(`${srv.url}/sdk/v1${path}`, { headers: { 'x-tenant-id': t }, redirect: 'manual' });

      const u = (await (await api(`/training/media/${id}/url`)).json()) as Record<string, string>;
      expect(u).toMatchObject({ bucket: 'media', object_key: `acme/${ref.tenantFolder}/media/${id}.m4a` });
      expect(u.url).toMatch(
        new RegExp(`^${s3.endpoint}/media/acme/${ref.tenantFolder}/media/${id}\\.m4a\\?.*X-Amz-Expires=900`),
      );
      // nothing of it beside the store: the bytes are in the bucket only
      expect(await ownCopies(engine, db, key)).toBe(0);

      const redirect = await api(`/training/media/${id}/stream`);
      expect(redirect.status).toBe(307);
      const location = redirect.headers.get('location')!;
      expect(location.startsWith(`${s3.endpoint}/media/acme/`)).toBe(true);
      const played = join(tmp(), 'played.m4a');
      writeFileSync(played, Buffer.from(await (await fetch(location)).arrayBuffer()));
      expect(readFileSync(played).equals(bytes)).toBe(true);
      expect(duration(played)).toBeCloseTo(1, 1);
      // another tenant's id is not found, by /url and by /stream
      expect((await api(`/training/media/${id}/stream`, 'andere')).status).toBe(404);

      for (const face of [
        ['--db', db, '--media', url],
        ['--remote', srv.url],
      ]) {
        const out = join(tmp(), 'talk.m4a');
        const r = await cli([...face, '--tenant', tenant, 'training', 'media', 'get', id, '-o', out]);
        expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('from media')]);
        expect(readFileSync(out).equals(bytes)).toBe(true);
      }
    } finally {
      await srv.close();
      await b.close();
    }
  }, 60_000);

  it('an interrupted upload leaves no object; the store down answers 503 on media routes only', async () => {
    const db = await freshStore(engine);
    const url = s3.url('down');
    const b = await createLocalBackend(db, { media: parseMediaUrl(url) });
    const srv = await startServer(b, { keys: false });
    try {
      const moduleId = await newModule(b, 'S3-2');
      const id = '01970000-0000-7000-8000-00000000a002';
      await storeMedium(b, { tenant, moduleId, id, kind: 'audio', bytes });
      const objects = await b.store.mediaObjects();
      const broken = MediaRef.of(tenant, moduleId, '01970000-0000-7000-8000-00000000dead', 'video');
      // 12 MB arrive (one part of 8 MB is sent), then the source fails
      const failing = async function* () {
        for (let i = 0; i < 3; i++) yield Buffer.alloc(4 * 1024 * 1024, i);
        throw new Error('the uploader went away');
      };
      await expect(forTenant(tenant, () => objects.put(broken, failing()))).rejects.toThrow();
      expect(await objects.size(broken)).toBeUndefined();
      const listed: string[] = [];
      for await (const o of objects.list!()) listed.push(o.key);
      expect(listed).toEqual([objects.keyOf(MediaRef.of(tenant, moduleId, id, 'audio'))]);

      await s3.stop();
      const get = (path: string) =>
        fetch(`${srv.url}/sdk/v1${path}`, { headers: { 'x-tenant-id': tenant }, redirect: 'manual' });
      for (const path of [
        `/training/media/${id}/url`,
        `/training/media/${id}/stream`,
        `/training/media/${id}/download`,
      ]) {
        const res = await get(path);
        expect([path, res.status]).toEqual([path, 503]);
        expect(await res.json()).toMatchObject({
          code: 'unavailable',
          error: expect.stringContaining('s3://media/down'),
        });
      }
      expect((await get('/training/modules')).status).toBe(200);
      expect((await get(`/training/media/module/${moduleId}`)).status).toBe(200);
      const health = await (await fetch(`${srv.url}/sdk/v1/health`)).json();
      expect(health).toEqual({ status: 'ok', store: engine, version: expect.any(String), media: 'unavailable' });
      const status = await cli(['--db', db, '--media', url, '--json', 'db', 'status']);
      expect(status.code).toBe(6);
      expect(JSON.parse(status.stdout).media).toMatchObject({ status: 'unavailable' });
      const started = await cli(['--db', db, '--media', url, 'serve', '--port', '0']);
      expect([started.code, started.stderr]).toEqual([
        1,
        expect.stringContaining('not serving: the media store s3://media/down'),
      ]);
    } finally {
      await s3.start();
      await srv.close();
      await b.close();
    }
  }, 60_000);

  it('media gc removes objects without a record once they are an hour old, and keeps the rest', async () => {
    const db = await freshStore(engine);
    const url = s3.url('gc');
    const b = await createLocalBackend(db, { media: parseMediaUrl(url) });
    let orphanKey: string;
    let keptKey: string;
    try {
      const moduleId = await newModule(b, 'S3-3');
      const id = '01970000-0000-7000-8000-00000000a003';
      await storeMedium(b, { tenant, moduleId, id, kind: 'audio', bytes });
      const objects = await b.store.mediaObjects();
      const orphan = MediaRef.of(tenant, moduleId, '01970000-0000-7000-8000-00000000a0ff', 'audio');
      await objects.put(orphan, Readable.from([bytes]));
      orphanKey = objects.keyOf(orphan);
      keptKey = objects.keyOf(MediaRef.of(tenant, moduleId, id, 'audio'));
    } finally {
      await b.close();
    }
    const gc = (args: string[], clock?: typeof HOUR_LATER) =>
      cli(['--db', db, '--media', url, '--json', 'media', 'gc', ...args], { clock });
    const young = JSON.parse((await gc(['--dry-run'])).stdout);
    expect(young).toMatchObject({ orphans: [], young: 1, removed: 0 });
    const dry = JSON.parse((await gc(['--dry-run'], HOUR_LATER)).stdout);
    expect(dry).toMatchObject({ orphans: [{ key: orphanKey, size_bytes: bytes.length }], removed: 0 });
    const done = JSON.parse((await gc([], HOUR_LATER)).stdout);
    expect(done).toMatchObject({ orphans: [{ key: orphanKey }], removed: 1 });
    expect(JSON.parse((await gc(['--dry-run'], HOUR_LATER)).stdout).orphans).toEqual([]);
    const b2 = await createLocalBackend(db, { media: parseMediaUrl(url) });
    try {
      const keys: string[] = [];
      for await (const o of (await b2.store.mediaObjects()).list!()) keys.push(o.key);
      expect(keys).toEqual([keptKey]);
    } finally {
      await b2.close();
    }
  }, 60_000);

  it('media move carries every medium into the bucket and back, verified, resumable, the old copies gone only after', async () => {
    const db = await freshStore(engine);
    const url = s3.url('moved');
    const b = await createLocalBackend(db);
    const ids = ['01970000-0000-7000-8000-00000000b001', '01970000-0000-7000-8000-00000000b002'];
    const keys: string[] = [];
    try {
      const moduleId = await newModule(b, 'S3-4');
      for (const id of ids) keys.push(await storeMedium(b, { tenant, moduleId, id, kind: 'audio', bytes }));
      // a run that was interrupted after copying the first one: it is found there and not copied again
      const s3Objects = await b.store.media.at(url, '--to');
      await s3Objects.put(MediaRef.of(tenant, moduleId, ids[0]!, 'audio'), Readable.from([bytes]));
    } finally {
      await b.close();
    }
    for (const key of keys) expect(await ownCopies(engine, db, key)).toBe(1);

    const into = await cli(['--db', db, '--json', 'media', 'move', '--to', url]);
    expect([into.code, into.stderr]).toEqual([0, expect.stringContaining('copied and verified')]);
    expect(JSON.parse(into.stdout)).toMatchObject({ media: 2, copied: 1, already_there: 1, removed: 2, missing: [] });
    for (const key of keys) expect(await ownCopies(engine, db, key)).toBe(0);
    // the store records where its media live: a command without --media finds them in the bucket
    const status = await cli(['--db', db, '--json', 'db', 'status']);
    expect(JSON.parse(status.stdout).media).toEqual({ location: 's3://media/moved', status: 'ok' });
    const out = join(tmp(), 'a.m4a');
    expect((await cli(['--db', db, '--tenant', tenant, 'training', 'media', 'get', ids[1]!, '-o', out])).code).toBe(0);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    // a --media the record contradicts is refused, naming where they are
    const other = await cli([
      '--db',
      db,
      '--media',
      s3.url('elsewhere'),
      '--tenant',
      tenant,
      'training',
      'media',
      'url',
      ids[0]!,
    ]);
    expect([other.code, other.stderr]).toEqual([5, expect.stringContaining('live in s3://media/moved')]);
    expect((await cli(['--db', db, 'media', 'move', '--to', url])).code).toBe(2);

    const back = await cli(['--db', db, '--json', 'media', 'move', '--to', 'default']);
    expect([back.code, back.stderr]).toEqual([0, expect.any(String)]);
    expect(JSON.parse(back.stdout)).toMatchObject({ media: 2, copied: 2, removed: 2 });
    for (const key of keys) expect(await ownCopies(engine, db, key)).toBe(1);
    const back2 = join(tmp(), 'b.m4a');
    expect((await cli(['--db', db, '--tenant', tenant, 'training', 'media', 'get', ids[0]!, '-o', back2])).code).toBe(
      0,
    );
    expect(readFileSync(back2).equals(bytes)).toBe(true);
    const s3Left = readdirSync(s3.dir, { recursive: true }).filter(
      (f) => String(f).includes('moved/') && String(f).endsWith('.m4a'),
    );
    expect(s3Left).toEqual([]);
  }, 60_000);

  it('a bundle of an S3-backed store imports into a store without S3, and back into another bucket', async () => {
    const s3Db = await freshStore(engine);
    const url = s3.url('bundled');
    const b = await createLocalBackend(s3Db, { media: parseMediaUrl(url) });
    const id = '01970000-0000-7000-8000-00000000c001';
    try {
      await storeMedium(b, { tenant, moduleId: await newModule(b, 'S3-5'), id, kind: 'audio', bytes });
    } finally {
      await b.close();
    }
    const bundle = join(tmp(), 'kanzlei.bundle');
    expect((await cli(['--db', s3Db, '--media', url, '--tenant', tenant, 'export', '-o', bundle])).code).toBe(0);
    const folderDb = await freshStore(engine);
    expect((await cli(['--db', folderDb, 'import', bundle])).code).toBe(0);
    const got = join(tmp(), 'got.m4a');
    expect((await cli(['--db', folderDb, '--tenant', tenant, 'training', 'media', 'get', id, '-o', got])).code).toBe(0);
    expect(readFileSync(got).equals(bytes)).toBe(true);

    const again = join(tmp(), 'again.bundle');
    expect((await cli(['--db', folderDb, '--tenant', tenant, 'export', '-o', again])).code).toBe(0);
    const otherDb = await freshStore(engine);
    const otherUrl = s3.url('second');
    expect((await cli(['--db', otherDb, '--media', otherUrl, 'import', again])).code).toBe(0);
    const last = join(tmp(), 'last.m4a');
    const r = await cli([
      '--db',
      otherDb,
      '--media',
      otherUrl,
      '--tenant',
      tenant,
      'training',
      'media',
      'get',
      id,
      '-o',
      last,
    ]);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('from media')]);
    expect(readFileSync(last).equals(bytes)).toBe(true);
  }, 60_000);

  it('sync carries media between an S3-backed server and laptops with and without an object store, both ways', async () => {
    const serverDb = await freshStore(engine);
    const url = s3.url('server');
    const server = await createLocalBackend(serverDb, { media: parseMediaUrl(url) });
    const srv = await startServer(server, { keys: false });
    const fromServer = '01970000-0000-7000-8000-00000000e001';
    const fromLaptop = '01970000-0000-7000-8000-00000000e002';
    try {
      const moduleId = await newModule(server, 'S3-7');
      await storeMedium(server, { tenant, moduleId, id: fromServer, kind: 'audio', bytes });
      const folderLaptop = await freshStore('sqlite');
      const s3Laptop = await freshStore('sqlite');
      const laptopUrl = s3.url('laptop');
      const laptops = [
        ['--db', folderLaptop],
        ['--db', s3Laptop, '--media', laptopUrl],
      ];
      for (const face of laptops) {
        const r = await cli([...face, '--remote', srv.url, '--tenant', tenant, 'sync']);
        expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
        const out = join(tmp(), 'pulled.m4a');
        expect((await cli([...face, '--tenant', tenant, 'training', 'media', 'get', fromServer, '-o', out])).code).toBe(
          0,
        );
        expect(readFileSync(out).equals(bytes)).toBe(true);
      }
      expect(existsSync(join(folderLaptop, '..', 'media', 'training-media'))).toBe(true);
      // a medium made on the laptop without S3 reaches the server's bucket by a push
      const laptop = await createLocalBackend(folderLaptop);
      try {
        await storeMedium(laptop, { tenant, moduleId, id: fromLaptop, kind: 'audio', bytes });
      } finally {
        await laptop.close();
      }
      expect((await cli(['--db', folderLaptop, '--remote', srv.url, '--tenant', tenant, 'sync'])).code).toBe(0);
      const u = (await (
        await fetch(`${srv.url}/sdk/v1/training/media/${fromLaptop}/url`, { headers: { 'x-tenant-id': tenant } })
      ).json()) as { url: string; bucket: string };
      expect(u.bucket).toBe('media');
      expect(Buffer.from(await (await fetch(u.url)).arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await srv.close();
      await server.close();
    }
  }, 60_000);
});

describe('media in an S3 object store, configuration', () => {
  it('refuses a malformed media URL or one with credentials with exit 2, naming the field and the form', async () => {
    for (const [args, env, field] of [
      [['--media', 's3://key:secret@media'], {}, '--media: credentials do not belong in the URL'],
      [['--media', 'http://media'], {}, '--media: unsupported scheme'],
      [['--media', 's3://Media_Bucket'], {}, '--media: bucket "Media_Bucket" is not a bucket name'],
      [['--media', 's3://media?region=eu&foo=1'], {}, '--media: unknown parameter "foo"'],
      [['--media', 's3://media?presign_minutes=0'], {}, 'presign_minutes "0" is out of range'],
      [[], { COMPLIANCE_MEDIA_URL: 's3://media?path_style=yes' }, 'COMPLIANCE_MEDIA_URL: path_style "yes"'],
    ] as const) {
      const r = await cli([...args, '--db', join(tmp(), 'x.db'), 'db', 'status'], { env });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(field)]);
      expect(r.stderr).toContain('s3://BUCKET[/PREFIX]?endpoint=URL');
    }
  });
});

describe.runIf(process.env.COMPLIANCE_TEST_PG_URL)('media in S3 on two serve replicas sharing one PostgreSQL', () => {
  it('either replica redirects to the same object, which either presigned URL serves', async () => {
    const s3 = await startS3();
    const db = await freshStore('postgres');
    const url = s3.url('replicas', '&presign_minutes=5');
    const b = await createLocalBackend(db, { media: parseMediaUrl(url) });
    const id = '01970000-0000-7000-8000-00000000d001';
    const bytes = Buffer.from('a medium both replicas serve');
    try {
      await storeMedium(b, { tenant, moduleId: await newModule(b, 'S3-6'), id, kind: 'video', bytes });
    } finally {
      await b.close();
    }
    const env = { COMPLIANCE_MEDIA_URL: url, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    const replicas = [await serve(['--db', db, '--no-events'], env), await serve(['--db', db, '--no-events'], env)];
    try {
      for (const r of replicas) {
        const res = await fetch(`${r.url}/sdk/v1/training/media/${id}/stream`, {
          headers: { 'x-tenant-id': tenant },
          redirect: 'manual',
        });
        expect(res.status).toBe(307);
        const location = res.headers.get('location')!;
        expect(location).toContain('X-Amz-Expires=300');
        expect(Buffer.from(await (await fetch(location)).arrayBuffer()).equals(bytes)).toBe(true);
      }
    } finally {
      for (const r of replicas) r.proc.kill('SIGTERM');
      await s3.close();
    }
  }, 60_000);
});
