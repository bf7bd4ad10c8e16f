import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { errorStatusesOf } from '../../src/contract/errors.js';
import { contracts } from '../../src/contract/index.js';
import type { Operation } from '../../src/contract/operation.js';
import { tmp, useServer } from '../support/helpers.js';
import { OpenApiCheck, seenOf } from '../support/openapi-check.js';

type Json = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  schema: Json & { items?: Json };
}
interface OpDoc {
  parameters: Param[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json & { $ref?: string; content?: Record<string, unknown> }>;
}
interface Doc {
  paths: Record<string, Record<string, OpDoc>>;
  components: { responses: Record<string, { content: Record<string, { schema: Json }> }> };
}

const srv = useServer();
const api = (path: string) => `${srv.url}/sdk/v1${path}`;
const served = async () => (await (await fetch(api('/openapi.json'))).json()) as Doc;
const operations = () =>
  Object.values(contracts).flatMap((c) => Object.values(c as Record<string, Operation>)) as Operation[];
const docOf = (doc: Doc, o: Operation) => doc.paths[o.path]![o.method.toLowerCase()]!;

describe('the OpenAPI document', () => {
  it('passes `redocly lint` with no errors', async () => {
    const file = join(tmp(), 'openapi.json');
    writeFileSync(file, JSON.stringify(await served()));
    const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly');
    const r = await promisify(execFile)(bin, ['lint', file, '--format=json'], { maxBuffer: 64 << 20 }).catch(
      (e: { stdout: string; code: number }) => e,
    );
    const report = JSON.parse(r.stdout) as { totals: { errors: number }; problems: Array<{ message: string }> };
    expect(report.problems.filter((p) => (p as { severity?: string }).severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('constrains every tenant input to 1-200 characters without control characters', async () => {
    const doc = await served();
    let seen = 0;
    for (const o of operations()) {
      for (const p of docOf(doc, o).parameters.filter((p) => ['X-Tenant-ID', 'tenant_id', 'tenant'].includes(p.name))) {
        expect(p.schema, `${o.method} ${o.path} ${p.name}`).toMatchObject({ minLength: 1, maxLength: 200 });
        const re = new RegExp(p.schema.pattern as string);
        expect(re.test('acme GmbH')).toBe(true);
        expect(re.test('acme\u0001')).toBe(false);
        expect(re.test('acme\u007f')).toBe(false);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(operations().length - 1);
  });

  it('describes comma-separated filters as arrays with style form, explode false', async () => {
    const doc = await served();
    const params = docOf(doc, contracts.canonical.controls).parameters;
    const severity = params.find((p) => p.name === 'severity')!;
    expect(severity).toMatchObject({ in: 'query', style: 'form', explode: false });
    expect(severity.schema).toMatchObject({ type: 'array', items: { enum: ['low', 'medium', 'high', 'critical'] } });
    expect(params.find((p) => p.name === 'target_audience')!.schema.items).toMatchObject({
      enum: ['enterprise', 'authority', 'provider', 'all'],
    });
    for (const name of ['domain', 'category'])
      expect(params.find((p) => p.name === name)).toMatchObject({ style: 'form', explode: false });
  });

  it('documents every error status each operation can answer, with the error body', async () => {
    const doc = await served();
    for (const o of operations()) {
      const responses = docOf(doc, o).responses;
      const documented = Object.keys(responses)
        .map(Number)
        .filter((s) => s >= 400);
      expect(documented, `${o.method} ${o.path}`).toEqual(errorStatusesOf(o));
      for (const s of documented) {
        const ref = responses[String(s)]!.$ref!;
        const body = doc.components.responses[ref.split('/').at(-1)!]!;
        expect(body.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    const statuses = (o: Operation) => Object.keys(docOf(doc, o).responses);
    // 404 also where the id is in the body, 409 on refused transitions, 503 where a language model is called
    expect(statuses(contracts.training.setMatrix)).toContain('404');
    expect(statuses(contracts.trainingContent.generate)).toEqual(expect.arrayContaining(['404', '409', '503']));
    expect(statuses(contracts.consents.revoke)).toContain('409');
    expect(statuses(contracts.legalDocuments.publish)).toContain('409');
    expect(statuses(contracts.training.generateCertificate)).toContain('409');
    expect(statuses(contracts.trainingMedia.object)).toContain('403');
    expect(statuses(contracts.trainingMedia.object)).not.toContain('401');
    // 413 only where a JSON body is read, 422 only where something is validated
    expect(statuses(contracts.dsfa.create)).toEqual(expect.arrayContaining(['413', '422']));
    expect(statuses(contracts.dsfa.stats)).not.toContain('413');
    expect(statuses(contracts.dsfa.stats)).not.toContain('422');
    expect(statuses(contracts.dsfa.stats)).not.toContain('404');
  });

  it('names the quota fields on the answers of rate-limited routes, and Retry-After on their 429', async () => {
    const doc = (await served()) as unknown as Doc & {
      components: { responses: Record<string, { headers: Json }>; headers: Record<string, Json> };
    };
    const headersOf = (o: Operation) => Object.keys((docOf(doc, o).responses[String(o.status)]!.headers ?? {}) as Json);
    expect(headersOf(contracts.consents.create)).toEqual(['X-Request-ID', 'RateLimit-Policy', 'RateLimit']);
    expect(headersOf(contracts.dsfa.create)).toEqual(['X-Request-ID']);
    expect(Object.keys(doc.components.responses.Error429!.headers)).toEqual([
      'X-Request-ID',
      'Retry-After',
      'RateLimit-Policy',
      'RateLimit',
    ]);
    expect(doc.components.headers.RateLimitPolicy!.description).toMatch(/"per-address";q=300;w=60/);
  });

  it('lists the status of every answer to wrong input, on every operation', async () => {
    const check = new OpenApiCheck((await served()) as never, '/sdk/v1');
    const problems: string[] = [];
    for (const o of operations()) {
      const path = o.path.replace(/\{(\w+)\}/g, 'no-such-id');
      const attempts: Array<[string, RequestInit]> = [
        [path, {}],
        [path, { headers: { 'x-tenant-id': 'sweep' } }],
        [path + '?limit=abc&offset=-1&tenant_id=' + 'x'.repeat(201), { headers: { 'x-tenant-id': 'sweep' } }],
        [path, { headers: { 'x-tenant-id': 'sweep', 'content-type': 'application/json' }, body: '[]' }],
        [path, { headers: { 'x-tenant-id': 'sweep', 'content-type': 'application/json' }, body: '{"a":' }],
      ];
      for (const [p, init] of attempts) {
        if (init.body && o.method === 'GET') continue;
        const url = new URL(api(p));
        const res = await fetch(url, { ...init, method: o.method, redirect: 'manual' });
        problems.push(...(await check.problems(o.method, url, seenOf(res))));
        await res.arrayBuffer();
      }
    }
    expect(problems).toEqual([]);
  });

  it('states every spelling a loose boolean takes, in bodies and query parameters', async () => {
    const doc = await served();
    const body = docOf(doc, contracts.consents.create).requestBody!.content['application/json']!.schema as {
      properties: Record<string, { anyOf: Json[] }>;
    };
    const query = docOf(doc, contracts.consents.list).parameters.find((p) => p.name === 'granted')!;
    for (const schema of [body.properties.granted!, query.schema]) {
      const pattern = new RegExp((schema.anyOf as Array<{ pattern?: string }>).find((s) => s.pattern)!.pattern!);
      for (const v of ['true', 'FALSE', ' yes ', 'No', '1', '0']) expect(pattern.test(v), v).toBe(true);
      for (const v of ['maybe', '2', 'y', '']) expect(pattern.test(v), v).toBe(false);
    }
    const res = await fetch(api('/einwilligungen/consents'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': 'loose' },
      body: JSON.stringify({ user_id: 'u', data_point_id: 'x', granted: ' Yes ' }),
    });
    expect(res.status).toBe(201);
  });

  it('names the real media types of files, exports and imports', async () => {
    const doc = await served();
    const ok = (o: Operation) => docOf(doc, o).responses[String(o.status)]!.content!;
    expect(Object.keys(ok(contracts.consents.export))).toEqual(['text/csv', 'application/x-ndjson']);
    expect(Object.keys(docOf(doc, contracts.consents.import).requestBody!.content)).toEqual([
      'text/csv',
      'application/x-ndjson',
    ]);
    expect(Object.keys(ok(contracts.training.certificatePdf))).toEqual(['application/pdf']);
    expect(Object.keys(ok(contracts.trainingMedia.download))).toEqual(['audio/mp4', 'video/mp4']);
    const stream = docOf(doc, contracts.trainingMedia.stream).responses;
    expect(stream['307']).toBeDefined();
    expect(stream['200']).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('application/octet-stream');
  });

  it('requires a body only where it has required fields, as the server reads an absent body as {}', async () => {
    const doc = await served();
    expect(docOf(doc, contracts.training.start).requestBody!.required).toBe(false);
    expect(docOf(doc, contracts.consents.renew).requestBody!.required).toBe(false);
    expect(docOf(doc, contracts.trainingBlocks.preview).requestBody!.required).toBe(false);
    expect(docOf(doc, contracts.dsfa.create).requestBody!.required).toBe(true);
    expect(docOf(doc, contracts.dsfa.update).requestBody!.required).toBe(false);
    const empty = await fetch(api(`/dsfa`), { method: 'POST' });
    expect(empty.status).toBe(422);
  });

  it('refuses the whitespace-only texts the server refuses, and the server refuses what the pattern refuses', async () => {
    const doc = await served();
    const cases: Array<[Operation, string, string, Json]> = [
      [contracts.dsfa.create, '/dsfa', 'title', {}],
      [contracts.legalDocuments.create, '/legal-documents/documents', 'title', { document_type: 'imprint' }],
      [
        contracts.consents.create,
        '/einwilligungen/consents',
        'user_id',
        { data_point_id: 'newsletter', granted: true },
      ],
      [
        contracts.training.compute,
        '/training/assignments/compute',
        'user_name',
        { user_id: 'u1', user_email: 'u1@example.com', roles: ['R9'] },
      ],
    ];
    for (const [o, path, field, rest] of cases) {
      const schema = docOf(doc, o).requestBody!.content['application/json']!.schema as {
        properties: Record<string, { pattern?: string; allOf?: Array<{ pattern: string }> }>;
      };
      const prop = schema.properties[field]!;
      const patterns = [prop.pattern, ...(prop.allOf ?? []).map((a) => a.pattern)].filter(Boolean) as string[];
      const allowed = (v: string) => patterns.every((p) => new RegExp(p, 'u').test(v));
      for (const value of ['   ', '\t\n', ' x ', 'x\n', '\tx', 'a\u0007b', 'a\tb', ' a\u001bb ']) {
        const res = await fetch(api(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tenant-id': 'ws' },
          body: JSON.stringify({ ...rest, [field]: value }),
        });
        await res.arrayBuffer();
        expect(res.status < 300, `${path} ${field}=${JSON.stringify(value)}`).toBe(allowed(value));
      }
    }
  });
});

describe('the server checks requests exactly as documented', () => {
  const send = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(api(path), { method, headers: { 'content-type': 'application/json', ...headers }, body });

  it('answers a JSON null body with 422 like [] and writes no audit entry', async () => {
    const created = (await (await send('POST', '/dsfa?tenant_id=nul', JSON.stringify({ title: 'A' }))).json()) as {
      id: string;
    };
    const audit = async () => ((await (await fetch(api('/dsfa/audit-log?tenant_id=nul'))).json()) as unknown[]).length;
    const before = await audit();
    for (const body of ['null', '[]', '1']) {
      const res = await send('PUT', `/dsfa/${created.id}?tenant_id=nul`, body);
      expect(res.status, body).toBe(422);
      expect(((await res.json()) as { code: string }).code).toBe('validation');
    }
    expect((await send('POST', '/dsfa?tenant_id=nul', 'null')).status).toBe(422);
    expect(await audit()).toBe(before);
  });

  it('names the header in a tenant error on a header, and the parameter on a parameter', async () => {
    const long = 'x'.repeat(201);
    const header = await fetch(api('/einwilligungen/consents/stats'), { headers: { 'x-tenant-id': long } });
    expect(header.status).toBe(400);
    expect(((await header.json()) as { details: unknown[] }).details).toEqual([
      { path: 'X-Tenant-ID', message: expect.stringContaining('1 to 200') },
    ]);
    const dsfaHeader = await fetch(api('/dsfa'), { headers: { 'x-tenant-id': long } });
    expect(((await dsfaHeader.json()) as { details: Array<{ path: string }> }).details[0]!.path).toBe('X-Tenant-ID');
    const query = await fetch(api(`/dsfa?tenant_id=${long}`));
    expect(query.status).toBe(400);
    expect(((await query.json()) as { details: Array<{ path: string }> }).details[0]!.path).toBe('tenant_id');
  });

  it('answers bytes the HTTP parser refuses with the JSON 400 body instead of an empty reply', async () => {
    const { port } = new URL(srv.url);
    for (const request of [
      Buffer.concat([
        Buffer.from('GET /sdk/v1/dsfa/'),
        Buffer.from([0xff]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
      Buffer.from('GET /sdk/v1/dsfa HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
    ]) {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (c) => (text += c.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toMatch(/content-type: application\/json/i);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { code: string; error: string };
      expect(body).toMatchObject({ code: 'bad_request', details: [] });
      expect(body.error).toMatch(/malformed HTTP request/);
    }
  });

  it('answers a HEAD request the HTTP parser refuses with the 400 status line and headers only', async () => {
    const { port } = new URL(srv.url);
    const request = Buffer.concat([
      Buffer.from('HEAD /sdk/v1/dsfa/'),
      Buffer.from([0xc3]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
      let text = '';
      socket.on('data', (c) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    // a client reads no body after a HEAD: any byte after the headers would be taken for the next answer
    expect(reply.endsWith('\r\n\r\n')).toBe(true);
    expect(reply.indexOf('\r\n\r\n')).toBe(reply.length - 4);
  });
});
