import { Agent, request } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { freshStore, startServer } from '../support/helpers.js';
import { fuzzRequest, rng, toFetch, type FuzzRequest, type RefKind } from '../support/request-fuzz.js';

/** FUZZ_REQUESTS and FUZZ_SEED run a bigger or another sequence (the figures below are printed either way). */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 22);

type Served = { local: LocalBackend; url: string; close(): Promise<void>; ids: Record<RefKind, string[]> };

const emptyIds = (): Record<RefKind, string[]> => ({
  dsfa: [],
  consent: [],
  document: [],
  version: [],
  module: [],
  assignment: [],
  block: [],
  certificate: [],
});

/** Ids a successful answer hands out, in an order both engines agree on. */
function created(q: FuzzRequest, body: unknown): Array<[RefKind, string]> {
  const b = body as Record<string, unknown>;
  if (q.area === 'training' && q.name === 'compute') {
    const list = (b.assignments ?? []) as Array<{ id: string; module_code: string }>;
    return [...list]
      .sort((x, y) => x.module_code.localeCompare(y.module_code))
      .map((a) => ['assignment', a.id] as [RefKind, string]);
  }
  if (q.creates === 'certificate') return [['certificate', String(b.certificate_id)]];
  return q.creates && typeof b.id === 'string' ? [[q.creates, b.id]] : [];
}

/** What fetch adds to every request: sent here too, so that the server sees the requests it saw from fetch. */
const FETCH_HEADERS = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/**
 * One request over a kept-alive connection, as fetch would send it (fetch's own machinery was a quarter of this
 * file's CPU): the status and the text, or status 0 and the failure for an answer cut short or none in 30 s.
 */
function send(url: string, init: RequestInit, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body as string);
    const { hostname, port, pathname, search } = new URL(url);
    const failed = (e: Error) =>
      resolve({ status: 0, text: `${e.message}: ${(e.cause as Error | undefined)?.message}` });
    const headers = { ...FETCH_HEADERS, ...(init.headers as Record<string, string>) };
    const req = request(
      { host: hostname, port, path: pathname + search, method: init.method, agent, headers, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', failed);
        res.on('end', () => {
          try {
            const data = Buffer.concat(chunks);
            const coding = res.headers['content-encoding'];
            const text = coding === 'gzip' ? gunzipSync(data) : coding === 'deflate' ? inflateSync(data) : data;
            resolve({ status: res.statusCode ?? 0, text: text.toString('utf8') });
          } catch (e) {
            failed(e as Error);
          }
        });
      },
    );
    if (body) req.setHeader('content-length', body.length);
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', failed);
    req.end(body);
  });
}

/**
 * The same seeded sequence of requests, valid and mutated (NUL in ids, query parameters and body texts above all),
 * sent in lockstep to one server on SQLite and one on PostgreSQL: no 5xx on either, and the same status for every
 * request. Each answer is awaited before the next request, so both stores go through the same states.
 */
describe('the same requests on SQLite and PostgreSQL', () => {
  const servers: Record<'sqlite' | 'postgres', Served> = {} as never;
  const agent = new Agent({ keepAlive: true });
  beforeAll(async () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      const local = await createLocalBackend(await freshStore(engine));
      const s = await startServer(local, { keys: false });
      servers[engine] = { local, url: s.url, close: s.close, ids: emptyIds() };
    }
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    for (const s of Object.values(servers)) {
      await s.close();
      await s.local.close();
    }
  });

  it.each([
    ['GET', '/dsfa/abc%00def', undefined, 400, 'id'],
    ['GET', '/dsfa?search=%00', undefined, 400, 'search'],
    ['POST', '/dsfa', { title: 'Titel', description: 'a\u0000b' }, 422, 'description'],
    [
      'POST',
      '/dsfa',
      { title: 'T', ai_use_case_modules: [{ use_case_type: 'custom', name: '\u0000' }] },
      422,
      'ai_use_case_modules.0.name',
    ],
    ['PUT', '/einwilligungen/cookies', { categories: [], config: {}, ['k\u0000']: 1 }, 422, undefined],
  ])('refuses NUL in %s %s alike on both engines', async (method, path, body, status, field) => {
    for (const s of Object.values(servers)) {
      const res = await fetch(`${s.url}/sdk/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-tenant-id': 'nul' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await res.json()) as { details: Array<{ path: string; message: string }> };
      expect(res.status).toBe(status);
      if (field) expect(answer.details).toContainEqual({ path: field, message: expect.stringMatching(/NUL/) });
    }
  });

  it(`answers ${REQUESTS} fuzzed requests (seed ${SEED}) with no 5xx and the same status on both engines`, async () => {
    const r = rng(SEED);
    const statuses = { sqlite: new Map<number, number>(), postgres: new Map<number, number>() };
    const differ: string[] = [];
    const errors: string[] = [];
    const started = Date.now();
    for (let i = 0; i < REQUESTS; i++) {
      const q = fuzzRequest(r, i);
      const answers = await Promise.all(
        (['sqlite', 'postgres'] as const).map(async (engine) => {
          const s = servers[engine];
          const [url, init] = toFetch(s.url, q, s.ids);
          // an answer cut short (a stream that failed after its status line) counts as status 0, an error
          const { status, text } = await send(url, init, agent);
          statuses[engine].set(status, (statuses[engine].get(status) ?? 0) + 1);
          if (status >= 500 || status === 0)
            errors.push(`${engine} ${status} ${init.method} ${url}: ${text.slice(0, 300)}`);
          return { engine, status, text, url, init };
        }),
      );
      const [a, b] = answers;
      if (a!.status !== b!.status)
        differ.push(
          `#${i} ${q.area}.${q.name}: sqlite ${a!.status}, postgres ${b!.status} ${b!.init.method} ${b!.url} ` +
            `${JSON.stringify(b!.init.body ?? '').slice(0, 200)} -> ${a!.text.slice(0, 150)} | ${b!.text.slice(0, 150)}`,
        );
      else if (a!.status < 300)
        for (const { engine, text } of answers) {
          let body: unknown = {};
          try {
            body = JSON.parse(text);
          } catch {
            /* a CSV export, a PDF */
          }
          for (const [kind, id] of created(q, body)) servers[engine].ids[kind].push(id);
        }
    }
    const figures = (m: Map<number, number>) =>
      [...m.entries()]
        .sort(([x], [y]) => x - y)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
    process.stdout.write(
      `fuzz seed ${SEED}: ${REQUESTS} requests per engine in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        `  sqlite   ${figures(statuses.sqlite)}\n  postgres ${figures(statuses.postgres)}\n` +
        `  5xx: ${errors.length}, different statuses: ${differ.length}\n`,
    );
    expect(errors.slice(0, 10)).toEqual([]);
    expect(differ.slice(0, 10)).toEqual([]);
    // the sequence reached the stores, not only the validation: records were made and read back (counted over every
    // kind, so that a new operation in the contract, which shifts the sequence, does not starve one kind below a bar)
    const made = Object.values(servers.postgres.ids).reduce((n, list) => n + list.length, 0);
    process.stdout.write(`  records made on postgres: ${made} (dsfa ${servers.postgres.ids.dsfa.length})\n`);
    expect(servers.postgres.ids.dsfa.length).toBeGreaterThan(0);
    expect(made).toBeGreaterThan(Math.floor(REQUESTS / 100));
    expect(statuses.postgres.get(200)).toBeGreaterThan(REQUESTS / 10);
  }, 240_000);
});
