import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { parseMediaUrl } from '../../src/domain/training/media-url.js';
import { bytesOf, cli, freshStore, startServer, tmp } from '../support/helpers.js';
import { storeMedium } from '../support/media.js';
import { startS3, type S3Server } from '../support/s3.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { checkedTransport } from '../support/openapi-check.js';

const tenant = 'schulung';
// larger than two of PostgreSQL's one-megabyte pieces, so spans begin and end inside and across them
const SIZE = 2 * 1024 * 1024 + 4321;
const MB = 1024 * 1024;

/**
 * A medium is sent a piece at a time, whole or the byte range a `Range` header asks for, as a browser's video player
 * seeks (Safari plays nothing without it): from a folder beside SQLite, from PostgreSQL's pieces, from S3.
 */
describe.each([
  ['sqlite', 'a folder'],
  ['postgres', 'the database'],
  ['sqlite', 'an S3 bucket'],
] as const)('media ranges on %s, objects in %s', (engine, where) => {
  let s3: S3Server | undefined;
  let b: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const bytes = randomBytes(SIZE);
  const id = '01970000-0000-7000-8000-00000000b001';
  const download = `/training/media/${id}/download`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${srv.url}/sdk/v1${path}`, { headers: { 'x-tenant-id': tenant, ...headers }, redirect: 'manual' });

  beforeAll(async () => {
    if (where === 'an S3 bucket') s3 = await startS3();
    b = await createLocalBackend(await freshStore(engine), s3 ? { media: parseMediaUrl(s3.url('acme')) } : {});
    const mod = await b.training.createModule({
      tenant,
      actor: 'sam',
      body: { module_code: 'RNG-1', title: 'Meldewege', regulation_area: 'hinschg', frequency_type: 'micro' },
    });
    await storeMedium(b, { tenant, moduleId: mod.id, id, kind: 'video', bytes });
    srv = await startServer(b, { keys: false });
  }, 30_000);
  afterAll(async () => {
    await srv?.close();
    await b?.close();
    await s3?.close();
  });

  it('answers a span with 206 and Content-Range, within a piece and across pieces, and the rest whole', async () => {
    const whole = await get(download);
    expect(whole.status).toBe(200);
    expect(
      Object.fromEntries(['content-length', 'accept-ranges', 'content-type'].map((h) => [h, whole.headers.get(h)])),
    ).toEqual({ 'content-length': String(SIZE), 'accept-ranges': 'bytes', 'content-type': 'video/mp4' });
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    const spans: Array<[string, number, number]> = [
      ['bytes=0-0', 0, 0],
      ['bytes=100-199', 100, 199],
      [`bytes=${MB - 10}-${MB + 9}`, MB - 10, MB + 9],
      [`bytes=${MB - 1}-${2 * MB}`, MB - 1, 2 * MB],
      [`bytes=${2 * MB + 5}-`, 2 * MB + 5, SIZE - 1],
      ['bytes=-4000', SIZE - 4000, SIZE - 1],
      [`bytes=${SIZE - 3}-${SIZE + 1000}`, SIZE - 3, SIZE - 1],
      [`bytes=-${SIZE + 50}`, 0, SIZE - 1],
    ];
    for (const [range, start, end] of spans) {
      const r = await get(download, { range });
      expect([range, r.status, r.headers.get('content-range'), r.headers.get('content-length')]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/${SIZE}`,
        String(end - start + 1),
      ]);
      expect(Buffer.from(await r.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
    }

    // what the server may pass over is answered whole: several spans, another unit, a backwards or unreadable span,
    // and a range of another version of the file (If-Range)
    const passedOver: Array<Record<string, string>> = [
      { range: 'bytes=0-1,5-6' },
      { range: 'items=0-5' },
      { range: 'bytes=9-2' },
      { range: 'bytes=abc' },
      { range: 'bytes=0-9', 'if-range': '"another"' },
    ];
    for (const headers of passedOver) {
      const r = await get(download, headers);
      expect([headers, r.status, r.headers.get('content-length')]).toEqual([headers, 200, String(SIZE)]);
      await r.arrayBuffer();
    }
    const same = await get(download, { range: 'bytes=0-9', 'if-range': etag });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
  });

  it('answers a span past the end with 416, the size in Content-Range and the JSON error naming it', async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 7}-${SIZE + 9}`, 'bytes=-0']) {
      const r = await get(download, { range });
      expect([range, r.status, r.headers.get('content-range')]).toEqual([range, 416, `bytes */${SIZE}`]);
      expect(await r.json()).toMatchObject({
        code: 'bad_request',
        error: expect.stringContaining(`it has ${SIZE} bytes`),
        details: [{ path: 'Range', message: expect.stringContaining('bytes=FIRST-LAST') }],
      });
    }
    // another tenant's id stays not found, with or without a range
    const other = await fetch(`${srv.url}/sdk/v1${download}`, {
      headers: { 'x-tenant-id': 'andere', range: 'bytes=0-9' },
    });
    expect(other.status).toBe(404);
  });

  it("serves spans at the signed URL a browser's player is sent to (the server's own, or the bucket's)", async () => {
    const redirect = await get(`/training/media/${id}/stream`);
    expect(redirect.status).toBe(307);
    const location = new URL(redirect.headers.get('location')!, srv.url).toString();
    expect(location.startsWith(s3 ? s3.endpoint : srv.url)).toBe(true);
    const r = await fetch(location, { headers: { range: `bytes=${MB}-${MB + 99}` } });
    expect([r.status, r.headers.get('content-range')]).toEqual([206, `bytes ${MB}-${MB + 99}/${SIZE}`]);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes.subarray(MB, MB + 100))).toBe(true);
  });

  it('HEAD tells the size and Accept-Ranges without reading the file; elsewhere it is a 405', async () => {
    const head = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${srv.url}/sdk/v1${path}`, { method: 'HEAD', headers: { 'x-tenant-id': tenant, ...headers } });
    const whole = await head(download);
    expect([whole.status, whole.headers.get('content-length'), whole.headers.get('accept-ranges')]).toEqual([
      200,
      String(SIZE),
      'bytes',
    ]);
    expect((await whole.arrayBuffer()).byteLength).toBe(0);
    const part = await head(download, { range: 'bytes=10-19' });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 10-19/${SIZE}`]);
    expect((await head(`/training/media/${id}/download`, { 'x-tenant-id': 'andere' })).status).toBe(404);
    const json = await head(`/training/media/${id}/url`);
    expect([json.status, json.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('a player that goes away halfway leaves the server serving the file to the next', async () => {
    const gone = new AbortController();
    const r = await fetch(`${srv.url}/sdk/v1${download}`, {
      headers: { 'x-tenant-id': tenant },
      signal: gone.signal,
    });
    await r.body!.getReader().read();
    gone.abort();
    const next = await get(download, { range: `bytes=${MB}-` });
    expect(next.status).toBe(206);
    expect(Buffer.from(await next.arrayBuffer()).equals(bytes.subarray(MB))).toBe(true);
  });

  it('the client reads the file a piece at a time, whole and in spans, and media get -o writes it', async () => {
    const api = createHttpBackend({ url: srv.url, transport: checkedTransport(srv.url) });
    const file = await api.trainingMedia.download({ tenant, params: { mediaId: id } });
    expect(file.size).toBe(SIZE);
    expect((await bytesOf(file)).equals(bytes)).toBe(true);
    expect((await bytesOf(file, { start: MB - 2, end: MB + 2 })).equals(bytes.subarray(MB - 2, MB + 3))).toBe(true);
    expect((await bytesOf(file)).equals(bytes)).toBe(true);
    const out = join(tmp(), 'film.mp4');
    const r = await cli(['--remote', srv.url, '--tenant', tenant, 'training', 'media', 'get', id, '-o', out]);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining(`${SIZE} bytes`)]);
    expect(readFileSync(out).equals(bytes)).toBe(true);
  });
});

describe('a media download cut short', () => {
  it('media get -o fails naming the bytes it got and leaves no file, when the server stops halfway', async () => {
    const id = '01970000-0000-7000-8000-00000000b002';
    // a server that knows the tenant and the medium, and stops sending its file after 40,000 of 100,000 bytes
    const json = (res: ServerResponse, body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const server = createServer((req, res) => {
      if (req.url!.endsWith('/tenant'))
        return json(res, { tenant_id: tenant, known: true, created_at: '2026-11-01T10:00:00.000Z', nearest: [] });
      if (req.url!.includes('/url')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            bucket: 'training-media',
            object_key: `x/${id}.mp4`,
            content_type: 'video/mp4',
            size_bytes: 100_000,
            url: `/sdk/v1/training/media/${id}/object?tenant=t&expires=1&sig=0`,
            expires_at: '2026-11-28T10:00:00.000Z',
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 100_000, etag: '"x"' });
      res.write(Buffer.alloc(40_000, 1), () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const out = join(tmp(), 'cut.mp4');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await cli(['--remote', url, '--tenant', tenant, 'training', 'media', 'get', id, '-o', out]);
      // how far it got depends on when the cut reaches the reader: at most the 40,000 bytes sent
      expect([r.code, r.stderr]).toEqual([
        1,
        expect.stringMatching(
          /^error: the file of media \S+ was cut off after (0|[1-9]\d{0,4}) bytes of 100000: the connection closed \(aborted\)\n$/,
        ),
      ]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(dirname(out)).filter((f) => f.includes('cut'))).toEqual([]);
    } finally {
      server.close();
    }
  });
});
