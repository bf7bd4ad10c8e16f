import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, cli, freshStore, startServer, tmpDb } from '../support/helpers.js';
import { exited, serve } from '../support/serve-process.js';
import { journalHead } from '../support/journal.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * Private webhook targets are the operator's decision (issue 35, item 6): through the API `allow_private` is a 403
 * unless `serve` allows it, every spelling of a loopback address is refused, and a name that resolves to one when a
 * delivery goes out is refused then. The receiver on 127.0.0.1 counts what arrives: nothing.
 */
const TENANT = 'acme';
type Json = Record<string, unknown>;

describe.each(ENGINE_NAMES)('private webhook targets on %s', (engine) => {
  let local: LocalBackend;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let strict: Awaited<ReturnType<typeof startServer>>;
  let lenient: Awaited<ReturnType<typeof startServer>>;
  let admin: string;

  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    admin = (await (await local.keys()).create({ scope: 'admin', tenants: [TENANT] })).key;
    const rateLimits = { perKey: 0, perIp: 0 };
    strict = await startServer(local, { server: { rateLimits } });
    lenient = await startServer(local, { server: { rateLimits, operatorFields: ['allow_private'] } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await strict?.close();
    await lenient?.close();
    await receiver?.close();
    await local?.close();
  });

  const call = async (base: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/sdk/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, 'x-tenant-id': TENANT, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json & { details?: Json[] } };
  };
  const head = () => journalHead(local, TENANT);

  it('refuses allow_private through the API with a 403 naming the field, storing nothing', async () => {
    const before = await head();
    for (const allow of [true, 'true', 1, 'yes']) {
      const r = await call(strict.url, 'POST', '/webhooks', { url: receiver.url, events: ['*'], allow_private: allow });
      expect(r.status, String(allow)).toBe(403);
      expect(r.body).toMatchObject({ code: 'forbidden', details: [{ path: 'allow_private' }] });
      expect(r.body.error).toMatch(/allow_private: only the operator .*--allow-private-webhooks/);
    }
    expect((await call(strict.url, 'GET', '/webhooks')).body).toEqual([]);
    expect(await head()).toEqual(before);
    // false is the default, and says nothing the operator decides; the address is refused by the SSRF rule then
    const plain = await call(strict.url, 'POST', '/webhooks', {
      url: receiver.url,
      events: ['*'],
      allow_private: false,
    });
    expect(plain.status).toBe(422);
    expect(plain.body.error).toMatch(/127\.0\.0\.1.*private address: refused/);
  });

  it('lets API clients set it when the server was started allowing it', async () => {
    const r = await call(lenient.url, 'POST', '/webhooks', { url: receiver.url, events: ['*'], allow_private: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ allow_private: true });
    expect((await call(lenient.url, 'DELETE', `/webhooks/${r.body.id as string}`)).status).toBe(200);
  });

  it('refuses every spelling of a loopback address through the API; the receiver gets nothing', async () => {
    const port = receiver.port;
    const before = await head();
    for (const host of [
      '0x7f.0.0.1',
      '017700000001',
      '2130706433',
      '127.1',
      '0',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[::ffff:0:127.0.0.1]',
      '[2002:7f00:1::]',
      '[64:ff9b::127.0.0.1]',
      'localhost.',
    ]) {
      const r = await call(strict.url, 'POST', '/webhooks', { url: `http://${host}:${port}/hook`, events: ['*'] });
      expect([r.status, r.body.code], host).toEqual([422, 'validation']);
      expect(r.body.details, host).toEqual([{ path: 'url', message: expect.stringMatching(/refused|cannot resolve/) }]);
    }
    expect(await head()).toEqual(before);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses at delivery time a name that resolves to a private address by then', async () => {
    // added when the name resolved elsewhere: stored as the command line stores it, then the answer changed
    const hooks = local.webhooks;
    const ep = (await hooks.add({
      tenant: TENANT,
      body: { url: `http://localhost:${receiver.port}/hook`, events: ['*'], allow_private: true },
    })) as Json;
    await local.store.admin
      .updateTable('webhook_endpoint')
      .set({ allow_private: 0 })
      .where('id', '=', ep.id as string)
      .execute();
    const r = await call(strict.url, 'POST', `/webhooks/${ep.id as string}/test`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'pending',
      last_status: null,
      last_error: expect.stringMatching(/resolves to .*refused/),
    });
    expect(receiver.received).toHaveLength(0);
    await hooks.remove({ tenant: TENANT, params: { id: ep.id as string } });
  });
});

describe('serve --allow-private-webhooks', () => {
  it('is off by default, on with the flag or COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS=1; the command line on the store may always set it', async () => {
    const db = tmpDb();
    const receiver = await startReceiver();
    const procs: Array<Awaited<ReturnType<typeof serve>>> = [];
    try {
      // a tenant exists from its first record: the server refuses a webhook of a tenant it does not know (exit 3)
      await cli([
        '--db',
        db,
        '--tenant',
        TENANT,
        'consents',
        'grant',
        '--user-id',
        'first',
        '--data-point',
        'newsletter',
      ]);
      const key = JSON.parse(
        (await cli(['--db', db, '--json', 'keys', 'create', '--name', 'ops', '--scope', 'admin', '--tenant', TENANT]))
          .stdout,
      ).key as string;
      const add = (url: string) =>
        cli([
          '--remote',
          url,
          '--api-key',
          key,
          '--tenant',
          TENANT,
          'webhooks',
          'add',
          receiver.url,
          '--events',
          '*',
          '--allow-private',
        ]);
      const off = await serve(['--db', db]);
      procs.push(off);
      const refused = await add(off.url);
      expect([refused.code, refused.stderr]).toEqual([4, expect.stringMatching(/allow_private: only the operator/)]);
      for (const args of [
        [['--allow-private-webhooks'], {}],
        [[], { COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS: '1' }],
      ] as const) {
        const on = await serve(['--db', db, ...args[0]], args[1]);
        procs.push(on);
        expect((await add(on.url)).code).toBe(0);
      }
      const bad = await serve(['--db', db], { COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS: 'maybe' }).catch((e: Error) => e);
      expect(String(bad)).toMatch(/COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS=maybe: expected 1 or true, 0 or false/);
      const local = await cli([
        '--db',
        db,
        '--tenant',
        TENANT,
        'webhooks',
        'add',
        receiver.url,
        '--events',
        '*',
        '--allow-private',
      ]);
      expect(local.code).toBe(0);
    } finally {
      for (const p of procs) {
        p.proc.kill('SIGTERM');
        await exited(p.proc);
      }
      await receiver.close();
    }
  }, 60_000);
});
