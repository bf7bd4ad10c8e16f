import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, freshStore, startServer } from '../support/helpers.js';
import { journalHead } from '../support/journal.js';

/**
 * Four eyes compare principals, not names (issue 35, item 12): under the strict workflow one key approved its own
 * assessment by sending `X-User-ID: alice` and then `approved_by: bob`. On a real server, each key of its own.
 */
const TENANT = 'streng';
type Json = Record<string, unknown>;

describe.each(ENGINE_NAMES)('four eyes under the strict workflow on %s', (engine) => {
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const key: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
  const prefix: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    const keys = await local.keys();
    for (const k of ['a', 'b', 'c'] as const) {
      const made = await keys.create({ scope: 'write', tenants: [TENANT] });
      key[k] = made.key;
      prefix[k] = made.prefix;
    }
    srv = await startServer(local, { server: { rateLimits: { perKey: 0, perIp: 0 } } });
    expect((await call('a', 'PUT', '/dsfa/settings', 'dsb', { workflow: 'strict' })).status).toBe(200);
  });
  afterAll(async () => {
    await srv?.close();
    await local?.close();
  });

  async function call(k: keyof typeof key, method: string, path: string, user: string, body?: Json) {
    const res = await fetch(`${srv.url}/sdk/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key[k]}`,
        'x-tenant-id': TENANT,
        'x-user-id': user,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json & { details?: Json[] } };
  }

  /** A draft written by `writer` and submitted for review by `submitter`. */
  async function submitted(writer: keyof typeof key, submitter: keyof typeof key): Promise<string> {
    const made = await call(writer, 'POST', '/dsfa', 'alice', { title: 'Videoüberwachung' });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect((await call(submitter, 'PATCH', `/dsfa/${id}/status`, 'carol', { status: 'in-review' })).status).toBe(200);
    return id;
  }

  it('refuses the key that wrote and submitted an assessment, whatever names it sends', async () => {
    const id = await submitted('a', 'a');
    const before = await journalHead(local, TENANT);
    const self = await call('a', 'PATCH', `/dsfa/${id}/status`, 'bob', { status: 'approved', approved_by: 'bob' });
    expect([self.status, self.body.code]).toEqual([409, 'conflict']);
    expect(self.body.error).toBe(
      `key:${prefix.a} wrote this assessment and cannot approve it as well (four-eyes principle: the API keys are compared, whatever names the request sends); approve with another key`,
    );
    expect(self.body.details).toEqual([
      { path: 'approved_by', message: 'the approving key must differ from the key that wrote the assessment' },
    ]);
    // the same through PUT with a status
    const put = await call('a', 'PUT', `/dsfa/${id}`, 'bob', { status: 'approved', approved_by: 'bob' });
    expect(put.status).toBe(409);
    expect(await journalHead(local, TENANT)).toBe(before);
    const other = await call('b', 'PATCH', `/dsfa/${id}/status`, 'bob', { status: 'approved', approved_by: 'bob' });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ status: 'approved', approved_by: 'bob' });
  });

  it('refuses the key that submitted it, and the key that wrote it when another submitted', async () => {
    const bySubmitter = await submitted('a', 'b');
    const s = await call('b', 'PATCH', `/dsfa/${bySubmitter}/status`, 'dsb', {
      status: 'approved',
      approved_by: 'dsb',
    });
    expect([s.status, s.body.error]).toEqual([
      409,
      expect.stringContaining(`key:${prefix.b} submitted this assessment`),
    ]);
    const w = await call('a', 'PATCH', `/dsfa/${bySubmitter}/status`, 'dsb', {
      status: 'approved',
      approved_by: 'dsb',
    });
    expect([w.status, w.body.error]).toEqual([409, expect.stringContaining(`key:${prefix.a} wrote this assessment`)]);
    expect(
      (await call('c', 'PATCH', `/dsfa/${bySubmitter}/status`, 'dsb', { status: 'approved', approved_by: 'dsb' }))
        .status,
    ).toBe(200);
  });

  it('compares the last submission: sent back to draft and submitted again by another key', async () => {
    const id = await submitted('a', 'b');
    expect((await call('c', 'PATCH', `/dsfa/${id}/status`, 'dsb', { status: 'draft' })).status).toBe(200);
    expect((await call('c', 'PATCH', `/dsfa/${id}/status`, 'dsb', { status: 'in-review' })).status).toBe(200);
    // b submitted before, c now: b may approve, c may not
    expect(
      (await call('c', 'PATCH', `/dsfa/${id}/status`, 'dsb', { status: 'approved', approved_by: 'dsb' })).status,
    ).toBe(409);
    expect(
      (await call('b', 'PATCH', `/dsfa/${id}/status`, 'dsb', { status: 'approved', approved_by: 'dsb' })).status,
    ).toBe(200);
  });
});
