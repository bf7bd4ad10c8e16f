import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, freshStore, startServer, tmp, tmpDb } from '../support/helpers.js';

const tenant = 'kanzlei';

/**
 * A ZIP file of a few hundred kilobytes whose records part declares that it unpacks to 3 GB (a ZIP bomb declares
 * what it holds; fflate unpacks a part into the size it declares): an import that unpacked it would take that much.
 */
function bomb(): Buffer {
  const zip = zipSync({
    'manifest.json': new TextEncoder().encode('{"format":"compliance-bundle/1"}'),
    'records/consent.ndjson': new Uint8Array(4 * 1024 * 1024),
  });
  const view = new DataView(zip.buffer);
  const name = 'records/consent.ndjson';
  // the part's declared size, in its local header (offset 22) and in the central directory (offset 24)
  for (let at = 0; at < zip.length - 4; at++) {
    const sig = view.getUint32(at, true);
    const nameAt = sig === 0x04034b50 ? at + 30 : sig === 0x02014b50 ? at + 46 : -1;
    if (nameAt < 0 || new TextDecoder().decode(zip.subarray(nameAt, nameAt + name.length)) !== name) continue;
    view.setUint32(at + (sig === 0x04034b50 ? 22 : 24), 3_000_000_000, true);
  }
  return Buffer.from(zip);
}

/** Temporary files of uploaded bundles left behind in `dir` (each import removes its own), once the server is done. */
async function uploadsLeft(dir: string): Promise<string[]> {
  for (let i = 0; i < 50 && readdirSync(dir).some((f) => f.startsWith('compliance-bundle-')); i++)
    await new Promise((r) => setTimeout(r, 20));
  return readdirSync(dir).filter((f) => f.startsWith('compliance-bundle-'));
}

describe('a bundle larger than an import takes, on the command line', () => {
  it('a ZIP bomb is refused by the sizes its parts declare, before anything is unpacked (exit 2)', async () => {
    const file = join(tmp(), 'bomb.bundle');
    writeFileSync(file, bomb());
    const before = process.memoryUsage().arrayBuffers;
    const r = await cli(['--db', tmpDb(), 'import', file]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `error: ${file}: its parts unpack to more than the 2048 MB a bundle import takes (COMPLIANCE_BUNDLE_MAX_MB): carry a tenant this large with sync, which moves it a page at a time\n`,
    ]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100 * 2 ** 20);
  });

  it('a file over COMPLIANCE_BUNDLE_MAX_MB is refused unread; a wrong value names the variable', async () => {
    const file = join(tmp(), 'large.bundle');
    writeFileSync(file, randomBytes(2 * 2 ** 20));
    const env = { COMPLIANCE_BUNDLE_MAX_MB: '1' };
    const r = await cli(['--db', tmpDb(), 'import', file], { env });
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`${file}: the file holds more than the 1 MB`)]);
    for (const value of ['0', '4096', '1.5', 'lots']) {
      const wrong = await cli(['--db', tmpDb(), 'import', file], { env: { COMPLIANCE_BUNDLE_MAX_MB: value } });
      expect([value, wrong.code, wrong.stderr]).toEqual([
        value,
        2,
        `error: invalid COMPLIANCE_BUNDLE_MAX_MB: "${value}" (a whole number of megabytes from 1 to 4095: the most a bundle import takes)\n`,
      ]);
    }
  });
});

/** `mb` megabytes sent a piece of 64 KB at a time, as a client streaming a large file does. */
function streamed(mb: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= mb * 2 ** 20) return c.close();
      sent += 64 * 1024;
      c.enqueue(new Uint8Array(64 * 1024));
    },
  });
}

describe.each(['sqlite', 'postgres'] as const)(
  'a bundle larger than an import takes, through serve on %s',
  (engine) => {
    let b: LocalBackend;
    let srv: Awaited<ReturnType<typeof startServer>>;
    let admin = '';
    // the server's temporary files go to a folder of this test's own (os.tmpdir() reads TMPDIR when asked)
    const uploads = mkdtempSync(join(tmpdir(), 'bundle-uploads-'));
    const tmpBefore = process.env.TMPDIR;
    const post = (body: Buffer | ReadableStream<Uint8Array>, key = admin) =>
      fetch(`${srv.url}/sdk/v1/bundle`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-tenant-id': tenant, 'content-type': 'application/zip' },
        body,
        duplex: 'half',
      } as RequestInit);

    beforeAll(async () => {
      process.env.TMPDIR = uploads;
      // an operator who lets a bundle import take 1 MB
      b = await createLocalBackend(await freshStore(engine), { bundleMaxMb: '1' });
      srv = await startServer(b);
      admin = (await (await b.keys()).create({ name: 'admin', scope: 'admin', tenants: [tenant] })).key;
    }, 60_000);
    afterAll(async () => {
      if (tmpBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpBefore;
      await srv?.close();
      await b?.close();
    });

    it('refuses a ZIP bomb with 422, and goes on serving', async () => {
      const r = await post(bomb());
      expect(r.status).toBe(422);
      expect(await r.json()).toMatchObject({
        code: 'validation',
        error:
          'the bundle: its parts unpack to more than the 1 MB a bundle import takes (COMPLIANCE_BUNDLE_MAX_MB): carry a tenant this large with sync, which moves it a page at a time',
        details: [{ path: 'bundle', message: 'at most 1 MB' }],
      });
      expect((await fetch(`${srv.url}/sdk/v1/health`)).status).toBe(200);
    });

    it('answers an upload it never begins to read with its error, and keeps the connection (node:http reads the body to its end)', async () => {
      const reader = (await (await b.keys()).create({ name: 'reader', scope: 'read', tenants: [tenant] })).key;
      const r = await post(streamed(4), reader);
      expect([r.status, r.headers.get('connection')]).toEqual([403, 'keep-alive']);
      expect(((await r.json()) as { code: string }).code).toBe('forbidden');
      expect(await uploadsLeft(uploads)).toEqual([]);
    });

    it('stops an upload that goes on past the limit, keeping nothing of it', async () => {
      const r = await post(streamed(8)).catch((e: unknown) => e as Error);
      // the server answers as soon as it stops reading, and ends the connection (the rest of the body is unread); a
      // client still sending may see the connection end instead
      if (r instanceof Response) {
        expect([r.status, r.headers.get('connection')]).toEqual([422, 'close']);
        expect(((await r.json()) as { error: string }).error).toContain('the upload is more than the 1 MB');
      }
      expect(await uploadsLeft(uploads)).toEqual([]);
      expect((await fetch(`${srv.url}/sdk/v1/health`)).status).toBe(200);
      // a bundle within the limit still imports: the tenant's own, as the server exports it
      const exported = await fetch(`${srv.url}/sdk/v1/bundle`, {
        headers: { authorization: `Bearer ${admin}`, 'x-tenant-id': tenant },
      });
      expect(exported.status).toBe(200);
      const ok = await post(Buffer.from(await exported.arrayBuffer()));
      expect(ok.status).toBe(200);
    });
  },
);
