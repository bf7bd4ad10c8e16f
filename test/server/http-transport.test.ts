import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import { contracts } from '../../src/contract/index.js';
import { contractLoaders } from '../../src/contract/loaders.js';
import { failure, freePort, startServer, tmpDb } from '../support/helpers.js';

const T = { tenant: 'acme', actor: 'sam' };

// The HTTP client's own transport (node:http, not the global fetch the contract suite checks answers through): every
// kind of request and answer the contract has, and the failures it tells apart.
describe('the HTTP client over node:http', () => {
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  let api: Backend;
  beforeAll(async () => {
    local = await createLocalBackend(tmpDb());
    srv = await startServer(local);
    api = createHttpBackend({ url: srv.url });
  });
  afterAll(async () => {
    await api.close();
    await srv.close();
    await local.close();
  });

  it('sends JSON bodies and reads JSON answers, with the server’s errors as domain errors', async () => {
    const created = await api.dsfa.create({ ...T, body: { title: 'Kamera über dem Eingang' } });
    expect(created.title).toBe('Kamera über dem Eingang');
    expect((await api.dsfa.get({ ...T, params: { id: created.id } })).id).toBe(created.id);
    expect((await api.dsfa.list({ ...T, query: {} })).map((d) => d.id)).toEqual([created.id]);
    const missing = await failure(api.dsfa.get({ ...T, params: { id: '01900000-0000-7000-8000-000000000000' } }));
    expect(missing.code).toBe('not_found');
    const invalid = await failure(api.dsfa.create({ ...T, body: { title: '' } }));
    expect(invalid.code).toBe('validation');
  });

  it('streams an upload and a download (a consents import and export)', async () => {
    const lines = ['user_id,data_point_id,granted,granted_at,consent_version,source'];
    for (let i = 0; i < 300; i++) lines.push(`u${i}@example.com,dp${i % 3},true,2026-01-01T10:00:00Z,1.0,web_banner`);
    async function* csv() {
      for (const l of lines) yield `${l}\n`;
    }
    const run = await api.consents.import({
      ...T,
      query: { file_name: 'c.csv' },
      stream: { body: csv(), content_type: 'text/csv' },
    });
    expect(run).toMatchObject({ read: 300, created: 300 });
    const out = await api.consents.export({ ...T, query: { format: 'ndjson' } });
    expect(out.content_type).toContain('ndjson');
    let text = '';
    for await (const c of out.body) text += typeof c === 'string' ? c : Buffer.from(c).toString('utf8');
    expect(text.trim().split('\n')).toHaveLength(300);
  });

  it('says when nothing listens, and when the server does not answer in time', async () => {
    const port = await freePort();
    const refused = await failure(createHttpBackend({ url: `http://127.0.0.1:${port}` }).dsfa.list({ ...T }));
    expect(refused.code).toBe('unavailable');
    expect(refused.message).toBe(
      `cannot reach remote server http://127.0.0.1:${port}/sdk/v1: connection refused (is \`compliance serve\` running there?)`,
    );
    // https to a server that speaks plain http: one line saying so, not OpenSSL's report
    const tls = await failure(createHttpBackend({ url: srv.url.replace('http:', 'https:') }).dsfa.list({ ...T }));
    expect(tls.code).toBe('unavailable');
    expect(tls.message).toBe(
      `cannot reach remote server ${srv.url.replace('http:', 'https:')}/sdk/v1: the TLS handshake failed (does the server speak https on that port?)`,
    );
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const late = await failure(createHttpBackend({ url, timeoutMs: 150 }).dsfa.list({ ...T }));
      expect(late.code).toBe('unavailable');
      expect(late.message).toBe(`cannot reach remote server ${url}/sdk/v1: no answer before the timeout`);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });

  it('reads an answer a proxy compressed, and stops at a caller’s signal with its reason', async () => {
    const body = JSON.stringify({ tenant: 'acme', seq: 7, head: 'f'.repeat(64) });
    const proxy: Server = createServer((req, res) => {
      if (req.method === 'POST') return; // an upload that is never answered
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(body));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const remote = createHttpBackend({ url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      expect(await remote.journal.anchor({ ...T })).toEqual(JSON.parse(body));
      const stop = new AbortController();
      const why = new Error('stopped by the user');
      setTimeout(() => stop.abort(why), 50);
      async function* slow() {
        yield 'user_id,data_point_id,granted\n';
        await new Promise((r) => setTimeout(r, 2000));
      }
      const stopped = remote.consents.import({
        ...T,
        query: { file_name: 'c.csv' },
        stream: { body: slow(), content_type: 'text/csv', signal: stop.signal },
      });
      await expect(stopped).rejects.toBe(why);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });

  it('loads each area’s contract on first use: the same table the server and the OpenAPI document use', async () => {
    for (const [area, load] of Object.entries(contractLoaders))
      expect(await load(), area).toBe(contracts[area as keyof typeof contracts]);
    expect(Object.keys(contractLoaders).sort()).toEqual(Object.keys(contracts).sort());
  });
});
