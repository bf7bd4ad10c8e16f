import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOllama } from '../support/ollama-server.js';
import { asAdmin, freshPostgresDatabase } from '../support/postgres.js';
import { requirePrograms } from '../support/programs.js';
import { serve } from '../support/serve-process.js';

const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).sort() : []);

type Served = Awaited<ReturnType<typeof serve>>;
const MD = '# Meldewege\n\n## Lernziele\n- Vorfälle melden\n\nWer meldet, schützt.\n';

/**
 * Media made by one `serve` replica are served by every other: on PostgreSQL the objects live in the database, and
 * the key that signs their URLs in the store, so a signed URL from one replica works on the other.
 */
describe('media on two serve replicas sharing one PostgreSQL database', () => {
  const replicas: Served[] = [];
  let ollama: FakeOllama;
  let database = '';
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
    database = await freshPostgresDatabase();
    for (let i = 0; i < 2; i++) replicas.push(await serve(['--db', database], { OLLAMA_HOST: ollama.url }));
  }, 60_000);
  afterAll(async () => {
    for (const r of replicas) r.proc.kill('SIGTERM');
    await ollama?.close();
  });

  const call = async (replica: number, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${replicas[replica]!.url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-tenant-id': 'medien' },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    return res;
  };
  const json = async (replica: number, method: string, path: string, body?: unknown) => {
    const res = await call(replica, method, path, body);
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  it('serves through either replica the bytes the other one made, by signed URL and by download', async (ctx) => {
    requirePrograms(ctx, 'espeak-ng', 'ffmpeg', 'ffprobe');
    const before = filesIn('media');
    const module = await json(0, 'POST', '/training/modules', {
      module_code: 'MELD-1',
      title: 'Meldewege',
      regulation_area: 'hinschg',
      frequency_type: 'micro',
    });
    ollama.reply({ text: MD });
    const content = await json(1, 'POST', '/training/content/generate', { module_id: module.id });
    await json(0, 'POST', `/training/content/${content.id}/publish`, {});
    const audio = await json(0, 'POST', `/training/content/${module.id}/generate-audio`, {});

    const fromA = await (await call(0, 'GET', `/training/media/${audio.id}/download`)).arrayBuffer();
    expect(fromA.byteLength).toBe(audio.size_bytes);
    for (const [signer, server] of [
      [1, 0],
      [0, 1],
    ] as const) {
      const redirect = await call(signer, 'GET', `/training/media/${audio.id}/stream`);
      expect(redirect.status).toBe(307);
      const location = new URL(redirect.headers.get('location')!, replicas[server]!.url).toString();
      const got = await fetch(location);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(fromA))).toBe(true);
    }
    // the bytes are rows of the database, not files in a folder of either process
    const { rows } = await asAdmin(
      'select count(*)::int as n, sum(length(data))::int as bytes from media_object_chunk where object_key = $1',
      [audio.object_key],
      new URL(database).pathname.slice(1),
    );
    expect(rows[0]).toEqual({ n: Math.ceil((audio.size_bytes as number) / (1024 * 1024)), bytes: audio.size_bytes });
    // and no replica wrote a file into its working folder, as the placeholder folder of earlier versions did
    expect(filesIn('media')).toEqual(before);
    // another tenant reaches neither the record nor the bytes
    const other = await fetch(`${replicas[1]!.url}/sdk/v1/training/media/${audio.id}/download`, {
      headers: { 'x-tenant-id': 'andere' },
    });
    expect(other.status).toBe(404);
  }, 120_000);
});
