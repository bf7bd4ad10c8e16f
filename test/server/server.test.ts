import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { contracts } from '../../src/contract/index.js';
import type { Operation } from '../../src/contract/operation.js';
import { nestsDeeperThan } from '../../src/contract/json-body.js';
import { startServer, tmpDb, useServer } from '../support/helpers.js';

const srv = useServer();
const api = (path: string) => `${srv.url}/sdk/v1${path}`;
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = (await res.json()) as { error: string; code: string; details: unknown[] };
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(Array.isArray(body.details)).toBe(true);
  return body;
}

describe('the /sdk/v1 server', () => {
  it('creates with 201 and reads back with 200', async () => {
    const res = await fetch(api('/dsfa'), json({ title: 'Über uns' }));
    expect(res.status).toBe(201);
    const d = (await res.json()) as { id: string; tenant_id: string };
    expect(d.tenant_id).toBe('default');
    const got = await fetch(api(`/dsfa/${d.id}`));
    expect(got.status).toBe(200);
  });

  // docs/consents.md (one decision in force): a decision recorded already creates nothing, so it is not a 201
  it('answers 201 for a decision it records, 200 for one recorded already or a renewal', async () => {
    const post = (body: object) =>
      fetch(api('/einwilligungen/consents'), {
        ...json({ user_id: 'status-visitor', data_point_id: 'analytics', granted: true, ...body }),
        headers: { 'content-type': 'application/json', 'x-tenant-id': 'statuses' },
      });
    const first = await post({});
    expect([first.status, ((await first.json()) as { outcome: string }).outcome]).toEqual([201, 'created']);
    const again = await post({});
    expect([again.status, ((await again.json()) as { outcome: string }).outcome]).toEqual([200, 'unchanged']);
    const renewed = await post({ consent_version: '2.0' });
    expect([renewed.status, ((await renewed.json()) as { outcome: string }).outcome]).toEqual([200, 'renewed']);
    const refusal = await post({ granted: false });
    expect(refusal.status).toBe(201);
  });

  it('answers malformed JSON with 400 and a JSON error body, storing nothing', async () => {
    const before = ((await (await fetch(api('/dsfa/stats'))).json()) as { total: number }).total;
    const res = await fetch(api('/dsfa'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": "x",',
    });
    const body = await expectError(res, 400, 'bad_request');
    expect(body.error).toMatch(/malformed JSON/);
    expect(((await (await fetch(api('/dsfa/stats'))).json()) as { total: number }).total).toBe(before);
  });

  it('answers validation failures with 422 naming the field and the allowed values', async () => {
    const body = await expectError(await fetch(api('/dsfa'), json({ title: 'x', status: 'nope' })), 422, 'validation');
    expect(body.details).toEqual([
      { path: 'status', message: expect.stringContaining('draft, in-review, approved, needs-update') },
    ]);
    await expectError(await fetch(api('/dsfa'), json(['not', 'an', 'object'])), 422, 'validation');
    await expectError(await fetch(api('/dsfa'), json(null)), 422, 'validation');
  });

  it.each([
    ['limit=0', 422],
    ['limit=-1', 422],
    ['limit=501', 422],
    ['limit=abc', 400],
    ['limit=1.5', 400],
    ['skip=x', 400],
    ['status=closed', 422],
  ])('answers GET /dsfa?%s with %i', async (q, status) => {
    const res = await fetch(api(`/dsfa?${q}`));
    await expectError(res, status, status === 400 ? 'bad_request' : 'validation');
  });

  it('uses tenant_id from the query, else X-Tenant-ID; both are fine when they name the same tenant', async () => {
    const created = (await (
      await fetch(api('/dsfa'), {
        ...json({ title: 'by header' }),
        headers: { 'content-type': 'application/json', 'x-tenant-id': 'hdr' },
      })
    ).json()) as { id: string; tenant_id: string };
    expect(created.tenant_id).toBe('hdr');
    const viaQuery = (await (await fetch(api('/dsfa?tenant_id=hdr'))).json()) as unknown[];
    expect(viaQuery).toHaveLength(1);
    const both = await fetch(api('/dsfa?tenant_id=hdr'), { headers: { 'x-tenant-id': 'hdr' } });
    expect(((await both.json()) as unknown[]).length).toBe(1);
    await expectError(await fetch(api(`/dsfa/${created.id}`)), 404, 'not_found');
    expect((await fetch(api(`/dsfa/${created.id}?tenant_id=hdr`))).status).toBe(200);
  });

  /** A request with header lines exactly as given (fetch would join two lines of one name into one). */
  function raw(path: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const r = request(api(path), { headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      r.on('error', reject);
      r.end();
    });
  }

  it.each([
    ['/dsfa', { 'x-tenant-id': ['tA', 'tB'] }, 'X-Tenant-ID'],
    ['/einwilligungen/consents', { 'x-tenant-id': ['tA', 'tB'] }, 'X-Tenant-ID'],
    ['/dsfa?tenant_id=tA&tenant_id=tB', {}, 'tenant_id'],
    ['/dsfa?tenant_id=tB', { 'x-tenant-id': 'tA' }, 'X-Tenant-ID'],
    ['/einwilligungen/consents?tenant_id=tB', { 'x-tenant-id': 'tA' }, 'X-Tenant-ID'],
    ['/training/modules?tenant_id=tA&tenant_id=tB', { 'x-tenant-id': 'tA' }, 'tenant_id'],
  ])(
    'refuses a tenant named twice (%s %j) with a 400 naming both, instead of a phantom tenant',
    async (path, headers, named) => {
      const res = await raw(path, headers);
      expect(res.status).toBe(400);
      const body = JSON.parse(res.body) as { code: string; error: string; details: Array<{ path: string }> };
      expect(body.code).toBe('bad_request');
      expect(body.error).toMatch(/"tA"/);
      expect(body.error).toMatch(/"tB"/);
      expect(body.details.map((d) => d.path)).toContain(named);
    },
  );

  it('accepts a header route whose tenant_id names the same tenant', async () => {
    const res = await raw('/einwilligungen/consents?tenant_id=tA', { 'x-tenant-id': 'tA' });
    expect(res.status).toBe(200);
  });

  it('refuses X-User-ID sent twice with a 400 naming both, instead of recording the actor "a, b"', async () => {
    const res = await raw('/dsfa?tenant_id=actor', { 'x-user-id': ['carol', 'dave'] });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { code: string; error: string; details: Array<{ path: string }> };
    expect(body).toMatchObject({ code: 'bad_request', error: expect.stringMatching(/"carol" and "dave"/) });
    expect(body.details.map((d) => d.path)).toEqual(['X-User-ID']);
  });

  it('records X-User-ID as the actor', async () => {
    const res = await fetch(api('/dsfa?tenant_id=actor'), {
      ...json({ title: 'who' }),
      headers: { 'content-type': 'application/json', 'x-user-id': 'carol' },
    });
    expect(((await res.json()) as { created_by: string }).created_by).toBe('carol');
    const [entry] = (await (await fetch(api('/dsfa/audit-log?tenant_id=actor'))).json()) as Array<{
      changed_by: string;
    }>;
    expect(entry!.changed_by).toBe('carol');
  });

  it('treats /dsfa/stats and /dsfa/audit-log as fixed paths', async () => {
    expect((await fetch(api('/dsfa/stats'))).status).toBe(200);
    expect((await fetch(api('/dsfa/audit-log'))).status).toBe(200);
    await expectError(await fetch(api('/dsfa/stats'), { method: 'DELETE' }), 405, 'bad_request');
  });

  it('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
    await expectError(await fetch(api('/nothing')), 404, 'not_found');
    await expectError(await fetch(`${srv.url}/elsewhere`), 404, 'not_found');
    const res = await fetch(api('/dsfa'), { method: 'PATCH' });
    expect(res.headers.get('allow')).toContain('GET');
    await expectError(res, 405, 'bad_request');
  });

  it('refuses a body above the size limit with 413, storing nothing', async () => {
    const before = ((await (await fetch(api('/dsfa/stats'))).json()) as { total: number }).total;
    const res = await fetch(api('/dsfa'), json({ title: 'x', description: 'y'.repeat(11 * 1024 * 1024) }));
    const body = await expectError(res, 413, 'bad_request');
    expect(body.error).toMatch(/larger than 10485760 bytes/);
    expect(((await (await fetch(api('/dsfa/stats'))).json()) as { total: number }).total).toBe(before);
  });

  it('logs one line per request', async () => {
    const n = srv.logs.length;
    await fetch(api('/dsfa?limit=1'));
    expect(srv.logs.length).toBe(n + 1);
    expect(srv.logs.at(-1)).toMatch(/GET \/sdk\/v1\/dsfa\?limit=1 200 [\d.]+ms$/);
  });

  it('serves an OpenAPI 3.1 document generated from the contract', async () => {
    const doc = (await (await fetch(api('/openapi.json'))).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [area, contract] of Object.entries(contracts)) {
      for (const [name, op] of Object.entries(contract)) {
        expect(doc.paths[op.path]?.[op.method.toLowerCase()]?.operationId).toBe(`${area}.${name}`);
      }
    }
    const list = doc.paths['/dsfa']!.get as unknown as {
      parameters: Array<{ name: string; schema: { maximum?: number } }>;
    };
    expect(list.parameters.find((p) => p.name === 'limit')!.schema.maximum).toBe(500);
  });

  it('never answers 500 to garbage input', async () => {
    const attempts: Array<[string, RequestInit]> = [
      ['/dsfa', { method: 'POST', body: '\u0000\u0001', headers: { 'content-type': 'application/json' } }],
      ['/dsfa', json({ title: 'x', ai_use_case_modules: 'x' })],
      ['/dsfa', json({ title: { a: 1 } })],
      ['/dsfa/%E0%A4%A', { method: 'GET' }],
      ['/dsfa/x/status', { method: 'PATCH', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/dsfa?limit=' + '9'.repeat(400), { method: 'GET' }],
      ['/dsfa?tenant_id=' + '%00', { method: 'GET' }],
    ];
    for (const [path, init] of attempts) {
      const res = await fetch(api(path), init);
      expect(res.status, path).toBeLessThan(500);
      await res.arrayBuffer();
    }
  });
});

describe('JSON nested too deep', () => {
  const DEEP = 100_000;
  const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP);
  const deepObject = (field: string) => `{"${field}":` + '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP) + '}';
  const bodies = Object.values(contracts).flatMap((c) =>
    Object.values(c as Record<string, Operation>)
      .filter((o) => o.body && o.requestKind !== 'stream')
      .map((o) => {
        const shape = (o.body as unknown as { shape?: Record<string, unknown> }).shape;
        return { o, field: Object.keys(shape ?? { title: 1 })[0]! };
      }),
  );

  it.each(bodies.map(({ o, field }) => [`${o.method} ${o.path}`, o, field] as const))(
    '%s: refused with 400 naming the depth before anything recurses',
    async (_name, o, field) => {
      const path = o.path.replace(/\{\w+\}/g, 'x');
      for (const text of [deepArray, deepObject(field), `[${'{"a":['.repeat(40)}1${']}'.repeat(40)}]`]) {
        const res = await fetch(api(path), {
          method: o.method,
          headers: { 'content-type': 'application/json', 'x-tenant-id': 'acme' },
          body: text,
        });
        const body = await expectError(res, 400, 'bad_request');
        expect(body.error).toMatch(/nested deeper than 64 levels/);
      }
    },
  );

  it.each([
    ['[[1]]', 2, false],
    ['[[[1]]]', 2, true],
    ['{"a":{"b":[]}}', 3, false],
    ['{"a":{"b":[{}]}}', 3, true],
    ['["[[[[", "\\"", "\\\\", "{{{{"]', 1, false],
    ['["\\\\"]]]]', 1, false],
    ['[[]][[]]', 2, false],
  ])('%s nests deeper than %i: %s', (text, max, deeper) => {
    expect(nestsDeeperThan(text, max)).toBe(deeper);
  });

  it('refuses an NDJSON import line nested too deep as a rejected row, importing the others', async () => {
    const deepLine = `{"user_id":${deepArray},"data_point_id":"tief","granted":true}`;
    const res = await fetch(api('/einwilligungen/consents/import'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-tenant-id': 'tief' },
      body: `${deepLine}\n{"user_id":"a","data_point_id":"tief","granted":true}\n`,
    });
    expect(res.status).toBe(200);
    const summary = (await res.json()) as { created: number; rejections: Array<{ line: number; reason: string }> };
    expect(summary.created).toBe(1);
    expect(summary.rejections).toEqual([
      { line: 1, reason: expect.stringMatching(/nested deeper than 64/), text: deepLine },
    ]);
  });

  it('accepts JSON nested up to the limit, and brackets inside strings do not count', async () => {
    for (const body of [
      // 64 levels: the object and 63 arrays inside one of its fields (refused by the schema, not by the parser)
      `{"title":"tief","data_categories":${'['.repeat(63)}${']'.repeat(63)}}`,
      `{"title":"${'[{'.repeat(500)}","data_categories":7}`,
    ]) {
      const res = await fetch(api('/dsfa'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await expectError(res, 422, 'validation');
    }
  });
});

describe('API keys', () => {
  it('requires a valid bearer key on every route once a key exists', async () => {
    const l = await createLocalBackend(tmpDb());
    const s = await startServer(l);
    try {
      expect((await fetch(`${s.url}/sdk/v1/dsfa`)).status).toBe(200);
      const keys = await l.keys();
      const k = await keys.create('ci');
      await new Promise((r) => setTimeout(r, 1100)); // the server caches the key count for a second
      await expectError(await fetch(`${s.url}/sdk/v1/dsfa`), 401, 'unauthorized');
      await expectError(await fetch(`${s.url}/sdk/v1/openapi.json`), 401, 'unauthorized');
      // health needs no key and shows no data
      const health = await fetch(`${s.url}/sdk/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', store: 'sqlite', version: '0.0.0', media: 'ok' });
      await expectError(
        await fetch(`${s.url}/sdk/v1/dsfa`, { headers: { authorization: `Bearer ${k.key}x` } }),
        401,
        'unauthorized',
      );
      await expectError(
        await fetch(`${s.url}/sdk/v1/dsfa`, { headers: { authorization: 'Bearer cmp_000000000000_abc' } }),
        401,
        'unauthorized',
      );
      expect((await fetch(`${s.url}/sdk/v1/dsfa`, { headers: { authorization: `Bearer ${k.key}` } })).status).toBe(200);
      const rows = await l.store.db.selectFrom('api_key').select('hash').execute();
      expect(rows[0]!.hash).not.toContain(k.key.slice(-10));
      await keys.revoke(k.prefix);
      await expectError(
        await fetch(`${s.url}/sdk/v1/dsfa`, { headers: { authorization: `Bearer ${k.key}` } }),
        401,
        'unauthorized',
      );
    } finally {
      await s.close();
      await l.close();
    }
  });
});
