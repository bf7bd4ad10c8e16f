import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { verifyReceipt } from '../../src/domain/consents/receipt.js';
import { ENGINE_NAMES, freshStore, startServer } from '../support/helpers.js';
import { journalHead } from '../support/journal.js';

/**
 * A publishable key records a choice now (issue 35, item 7): on the banner's consent route the server decides when,
 * through which channel and with which browser; a page that tries to say so itself is refused, naming the fields,
 * and stores nothing. The signed receipt then carries only what the server decided (and the visitor's choice).
 */
const TENANT = 'acme';
const SHOP = 'https://shop.example';
type Json = Record<string, unknown>;

describe.each(ENGINE_NAMES)('consents recorded with a publishable key on %s', (engine) => {
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  let pk: string;
  let write: string;

  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    const keys = await local.keys();
    pk = (await keys.create({ scope: 'publishable', tenants: [TENANT], origins: [SHOP] })).key;
    write = (await keys.create({ scope: 'write', tenants: [TENANT] })).key;
    srv = await startServer(local, { server: { rateLimits: { perKey: 0, perIp: 0 } } });
  });
  afterAll(async () => {
    await srv?.close();
    await local?.close();
  });

  const call = async (key: string, method: string, path: string, body?: Json, extra: Record<string, string> = {}) => {
    const res = await fetch(`${srv.url}/sdk/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'x-tenant-id': TENANT,
        'content-type': 'application/json',
        ...(key === pk ? { origin: SHOP } : {}),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json & { details?: Json[] } };
  };
  const choice = { user_id: 'visitor-7', data_point_id: 'cookies:analytics', granted: true };

  it.each([
    [{ granted_at: '2001-01-01T00:00:00Z' }],
    [{ revoked_at: '2001-01-02T00:00:00Z' }],
    [{ source: 'signed_paper' }],
    [{ ip_address: '203.0.113.9' }],
    [{ user_agent: 'Signed on paper in the office' }],
    [{ granted_at: null }],
    [{ granted_at: '2001-01-01T00:00:00Z', revoked_at: '2001-01-02T00:00:00Z', source: 'signed_paper' }],
  ])('refuses %j from a page with a 422 naming it, storing nothing', async (claims) => {
    const before = await journalHead(local, TENANT);
    const r = await call(pk, 'POST', '/einwilligungen/consents', { ...choice, ...claims });
    expect([r.status, r.body.code]).toEqual([422, 'validation']);
    expect(r.body.details).toEqual(
      Object.keys(claims).map((path) => ({ path, message: "set by the server for a browser's request" })),
    );
    expect(r.body.error).toContain(`${Object.keys(claims).join(', ')}: set by the server`);
    expect(await journalHead(local, TENANT)).toBe(before);
  });

  it('records the time, the channel and the browser itself, and the receipt signs only those', async () => {
    const from = Date.now();
    const r = await call(pk, 'POST', '/einwilligungen/consents', choice, { 'user-agent': 'Mozilla/5.0 (Testbrowser)' });
    const to = Date.now();
    expect(r.status).toBe(201);
    const at = Date.parse(r.body.granted_at as string);
    expect(at).toBeGreaterThanOrEqual(from - 1000);
    expect(at).toBeLessThanOrEqual(to + 1000);
    const receipt = await call(write, 'GET', `/einwilligungen/consents/${r.body.id as string}/receipt`);
    expect(receipt.status).toBe(200);
    expect(verifyReceipt(receipt.body)).toMatchObject({ valid: true });
    expect(receipt.body.consent).toMatchObject({
      ...choice,
      granted_at: r.body.granted_at,
      revoked_at: null,
      source: 'web_banner',
      ip_address: null,
      user_agent: 'Mozilla/5.0 (Testbrowser)',
    });
  });

  it('still lets a secret key record a historic consent with its own time and source (the back office)', async () => {
    const r = await call(write, 'POST', '/einwilligungen/consents', {
      ...choice,
      // another person's paper consent: the same decision of the page's visitor again would create nothing (200)
      user_id: 'paper-signer',
      granted_at: '2001-01-01T00:00:00Z',
      source: 'signed_paper',
    });
    expect(r.status).toBe(201);
    expect(r.body.granted_at).toBe('2001-01-01T00:00:00.000Z');
  });
});

describe('consents recorded from a page on a server without keys', () => {
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    local = await createLocalBackend(await freshStore('sqlite'));
    srv = await startServer(local);
  });
  afterAll(async () => {
    await srv?.close();
    await local?.close();
  });

  it('decides the time and channel for a request with an Origin (a browser), not for one without', async () => {
    const post = (body: Json, headers: Record<string, string>) =>
      fetch(`${srv.url}/sdk/v1/einwilligungen/consents`, {
        method: 'POST',
        headers: { 'x-tenant-id': TENANT, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ user_id: 'v', data_point_id: 'newsletter', granted: true, ...body }),
      });
    const page = await post({ granted_at: '2001-01-01T00:00:00Z' }, { origin: srv.url });
    expect(page.status).toBe(422);
    const fromPage = await post({}, { origin: srv.url, 'user-agent': 'Seite' });
    expect(fromPage.status).toBe(201);
    const script = await post({ user_id: 'w', granted_at: '2001-01-01T00:00:00Z', source: 'api' }, {});
    expect(script.status).toBe(201);
    const { consents } = (await (
      await fetch(`${srv.url}/sdk/v1/einwilligungen/consents`, { headers: { 'x-tenant-id': TENANT } })
    ).json()) as { consents: Json[] };
    expect(consents.map((c) => [c.source, c.user_agent, (c.granted_at as string) < '2002']).sort()).toEqual([
      ['api', null, true],
      ['web_banner', 'Seite', false],
    ]);
  });
});
