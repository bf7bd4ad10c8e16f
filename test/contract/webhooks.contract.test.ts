import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { runEventsPass } from '../../src/backend/local/events/events-runner.js';
import type { Clock } from '../../src/domain/clock.js';

/** A clock the test moves: retries are due by it, not by waiting. */
const movable = (start: string) => {
  let t = Date.parse(start);
  const clock: Clock = { now: () => new Date(t) };
  return { clock, advance: (seconds: number) => (t += seconds * 1000) };
};

describe.each(BACKEND_NAMES)('webhooks on the %s backend', (name) => {
  const time = movable('2026-11-26T08:00:00.000Z');
  const b = useBackend(name, { clock: time.clock });
  const T = { tenant: 'hooks', actor: 'admin' };
  const api = () => b.backend.webhooks;
  const pass = () => runEventsPass(b.local.store, { clock: time.clock });

  it('refuses a URL on loopback or a private network unless allow_private, and a malformed one', async () => {
    for (const url of [
      'http://localhost:9/x',
      'http://127.0.0.1/x',
      'http://[::1]/x',
      'http://10.1.2.3/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const e = await failure(api().add({ ...T, body: { url, events: ['*'] } }));
      expect(e, url).toMatchObject({ code: 'validation' });
      expect(
        e.details.map((d) => d.path),
        url,
      ).toContain('url');
    }
    const bad = await failure(api().add({ ...T, body: { url: 'ftp://example.com/', events: ['*'] } }));
    expect(bad).toMatchObject({ code: 'validation' });
    const badEvent = await failure(
      api().add({ ...T, body: { url: 'https://example.com/', events: ['dsfa.nonsense'] } }),
    );
    expect(badEvent).toMatchObject({ code: 'validation' });
    expect(await api().list(T)).toEqual([]);
  });

  it("takes an endpoint's short id (its end) or its start wherever it takes the id; another tenant's is not found", async () => {
    const tenant = { tenant: 'short-hooks', actor: 'admin' };
    const url = 'http://127.0.0.1:9/hook';
    const ep = await api().add({ ...tenant, body: { url, events: ['*'], allow_private: true } });
    const end = ep.id.slice(-8);
    const start = ep.id.slice(0, 13).toUpperCase();
    expect((await api().deliveries({ ...tenant, query: { endpoint_id: end } })).map((d) => d.id)).toEqual([]);
    const test = await api().test({ ...tenant, params: { id: start } });
    expect(test).toMatchObject({ event_type: 'webhook.test' });
    expect((await api().deliveries({ ...tenant, query: { endpoint_id: end } })).map((d) => d.id)).toEqual([test.id]);
    expect(await failure(api().remove({ ...T, params: { id: end } }))).toMatchObject({ code: 'not_found' });
    expect(await api().remove({ ...tenant, params: { id: end } })).toEqual({ id: ep.id, removed: true });
    expect(await api().list(tenant)).toEqual([]);
  });

  it("redelivers a delivery by its short id (its end) or the start after msg_; another tenant's is not found", async () => {
    const tenant = { tenant: 'short-deliveries', actor: 'admin' };
    const ep = await api().add({
      ...tenant,
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'], allow_private: true },
    });
    const sent = await api().test({ ...tenant, params: { id: ep.id } });
    expect(sent.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const end = sent.id.slice(-8);
    const start = sent.id.slice(4, 16).toUpperCase();
    expect((await api().redeliver({ ...tenant, params: { id: end } })).id).toBe(sent.id);
    expect((await api().redeliver({ ...tenant, params: { id: start } })).id).toBe(sent.id);
    expect((await api().redeliver({ ...tenant, params: { id: sent.id } })).status).toBe('pending');
    expect(await failure(api().redeliver({ ...T, params: { id: end } }))).toMatchObject({ code: 'not_found' });
    expect(await failure(api().redeliver({ ...tenant, params: { id: 'ffffffff' } }))).toMatchObject({
      code: 'not_found',
    });
    await api().remove({ ...tenant, params: { id: ep.id } });
  });

  it('signs every delivery (verified with standardwebhooks), from the journal after the endpoint was added', async () => {
    const receiver = await startReceiver();
    try {
      await b.backend.dsfa.create({ ...T, body: { title: 'Before the endpoint' } });
      const ep = await api().add({
        ...T,
        body: { url: receiver.url, events: ['dsfa.status_changed', 'dsfa.created'], allow_private: true },
      });
      expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      receiver.useSecret(ep.secret);
      const listed = await api().list(T);
      expect(listed).toHaveLength(1);
      expect(listed[0]).not.toHaveProperty('secret');

      const d = await b.backend.dsfa.create({ ...T, body: { title: 'Kamera' } });
      await b.backend.dsfa.update({ ...T, params: { id: d.id }, body: { description: 'no status change' } });
      await b.backend.dsfa.setStatus({ ...T, params: { id: d.id }, body: { status: 'in-review' } });
      const r = await pass();
      expect(r.webhooks).toMatchObject({ queued: 2, delivered: 2 });
      expect(receiver.received.map((x) => [x.type, x.verified])).toEqual([
        ['dsfa.created', true],
        ['dsfa.status_changed', true],
      ]);
      expect(receiver.received[1]!.payload).toMatchObject({
        type: 'dsfa.status_changed',
        data: { dsfa_id: d.id, from: 'draft', to: 'in-review' },
      });
      expect(receiver.received[1]!.id).toMatch(/^msg_[0-9a-f]{32}$/);
      // another pass finds nothing new: each entry is delivered once
      expect((await pass()).webhooks).toMatchObject({ queued: 0, attempted: 0 });
      expect(receiver.received).toHaveLength(2);
      const deliveries = await api().deliveries({ ...T, query: {} });
      expect(deliveries.map((x) => x.status)).toEqual(['delivered', 'delivered']);
      expect(await api().deliveries({ ...T, query: { failed: 'true' } })).toEqual([]);
      // another tenant sees neither the endpoint nor its deliveries
      expect(await api().list({ ...T, tenant: 'other' })).toEqual([]);
      expect(await failure(api().remove({ ...T, tenant: 'other', params: { id: ep.id } }))).toMatchObject({
        code: 'not_found',
      });
      await api().remove({ ...T, params: { id: ep.id } });
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver with back-off until it recovers: every event arrives, once per delivery id', async () => {
    let down = true;
    const receiver = await startReceiver({ answer: () => (down ? 503 : 200) });
    try {
      const ep = await api().add({ ...T, body: { url: receiver.url, events: ['*'], allow_private: true } });
      receiver.useSecret(ep.secret);
      for (const title of ['A', 'B', 'C']) await b.backend.dsfa.create({ ...T, body: { title } });
      expect((await pass()).webhooks).toMatchObject({ queued: 3, retrying: 3, delivered: 0 });
      // not due yet: nothing is sent before the back-off has passed
      time.advance(4);
      expect((await pass()).webhooks.attempted).toBe(0);
      time.advance(1);
      expect((await pass()).webhooks).toMatchObject({ retrying: 3 });
      const failed = await api().deliveries({ ...T, query: { failed: 'true', endpoint_id: ep.id } });
      expect(failed.map((d) => [d.status, d.attempts, d.last_status, d.response_excerpt])).toEqual(
        Array(3).fill(['pending', 2, 503, 'receiver down']),
      );
      // second retry 5 minutes later
      down = false;
      time.advance(299);
      expect((await pass()).webhooks.attempted).toBe(0);
      time.advance(1);
      expect((await pass()).webhooks).toMatchObject({ delivered: 3 });
      const ids = receiver.delivered();
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      expect(receiver.received.every((x) => x.verified)).toBe(true);
      await api().remove({ ...T, params: { id: ep.id } });
    } finally {
      await receiver.close();
    }
  });

  it('gives up after 24 hours and more, marks the endpoint failing; redeliver and test repair it', async () => {
    let down = true;
    const receiver = await startReceiver({ answer: () => (down ? 500 : 204), body: 'x'.repeat(5000) });
    try {
      const ep = await api().add({ ...T, body: { url: receiver.url, events: ['dsfa.created'], allow_private: true } });
      receiver.useSecret(ep.secret);
      await b.backend.dsfa.create({ ...T, body: { title: 'Never arrives' } });
      const started = time.clock.now().getTime();
      await pass();
      for (let i = 0; i < 30; i++) {
        time.advance(3600);
        await pass();
      }
      const [d] = await api().deliveries({ ...T, query: { endpoint_id: ep.id } });
      expect(d).toMatchObject({ status: 'failed', attempts: 8, last_status: 500 });
      expect(Date.parse(d!.last_attempt_at!) - started).toBeGreaterThanOrEqual(24 * 3600 * 1000);
      expect(Buffer.byteLength(d!.response_excerpt!)).toBeLessThanOrEqual(256);
      expect((await api().list(T)).find((e) => e.id === ep.id)).toMatchObject({ status: 'failing' });

      down = false;
      const again = await api().redeliver({ ...T, params: { id: d!.id } });
      expect(again).toMatchObject({ id: d!.id, status: 'pending', attempts: 0 });
      await pass();
      expect(receiver.delivered()).toEqual([d!.id]);
      expect((await api().list(T)).find((e) => e.id === ep.id)).toMatchObject({ status: 'active' });

      const t = await api().test({ ...T, params: { id: ep.id } });
      expect(t).toMatchObject({ event_type: 'webhook.test', status: 'delivered', attempts: 1, last_status: 204 });
      expect(receiver.received.at(-1)).toMatchObject({ type: 'webhook.test', verified: true });
      // each test is a delivery of its own: a second and a third are sent too, with ids of their own
      const t2 = await api().test({ ...T, params: { id: ep.id } });
      const t3 = await api().test({ ...T, params: { id: ep.id } });
      expect([t2, t3]).toMatchObject([
        { event_type: 'webhook.test', status: 'delivered', seq: 0 },
        { event_type: 'webhook.test', status: 'delivered', seq: 0 },
      ]);
      expect(new Set([t.id, t2.id, t3.id]).size).toBe(3);
      expect(receiver.received.slice(-3).map((x) => x.id)).toEqual([t.id, t2.id, t3.id]);
      expect(await failure(api().redeliver({ ...T, tenant: 'other', params: { id: d!.id } }))).toMatchObject({
        code: 'not_found',
      });
      await api().remove({ ...T, params: { id: ep.id } });
    } finally {
      await receiver.close();
    }
  });

  // docs/events.md, issue 36 items 1 and 15: a withdrawal is an event, and every consent event names whom it concerns
  it('sends consent events naming the user and data point: a refusal that withdraws a grant is consent.revoked', async () => {
    const tenant = { tenant: 'consent-hooks', actor: 'admin' };
    const receiver = await startReceiver();
    try {
      const ep = await api().add({
        ...tenant,
        body: {
          url: receiver.url,
          events: ['consent.granted', 'consent.refused', 'consent.revoked', 'consent.renewed'],
          allow_private: true,
        },
      });
      receiver.useSecret(ep.secret);
      const consents = b.backend.consents;
      const decide = (user: string, granted: boolean, consent_version = '1.0') =>
        consents.create({
          ...tenant,
          body: { user_id: user, data_point_id: 'newsletter', granted, consent_version, source: 'shop' },
        });
      const anna = await decide('anna@example.com', true);
      await decide('anna@example.com', true); // the same decision again: nothing, no event
      await decide('anna@example.com', true, '2.0'); // renewed to a new version
      const refusal = await decide('anna@example.com', false); // withdraws the grant
      const ben = await decide('ben@example.com', true);
      await consents.revoke({ ...tenant, params: { id: ben.id } });
      await consents.renew({ ...tenant, params: { id: anna.id }, body: {} }).catch(() => undefined); // revoked: 409
      expect((await pass()).webhooks).toMatchObject({ queued: 6, delivered: 6 });
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const anna_ = { user_id: 'anna@example.com', data_point_id: 'newsletter' };
      const ben_ = { user_id: 'ben@example.com', data_point_id: 'newsletter' };
      expect(receiver.received.map((r) => [r.type, r.payload.data])).toEqual([
        [
          'consent.granted',
          expect.objectContaining({ consent_id: anna.id, ...anna_, consent_version: '1.0', source: 'shop' }),
        ],
        [
          'consent.renewed',
          expect.objectContaining({ consent_id: anna.id, ...anna_, action: 'version_update', consent_version: '2.0' }),
        ],
        ['consent.refused', expect.objectContaining({ consent_id: refusal.id, ...anna_, action: 'granted' })],
        [
          'consent.revoked',
          expect.objectContaining({ consent_id: anna.id, ...anna_, action: 'revoked', source: 'shop' }),
        ],
        ['consent.granted', expect.objectContaining({ consent_id: ben.id, ...ben_ })],
        ['consent.revoked', expect.objectContaining({ consent_id: ben.id, ...ben_, source: null })],
      ]);
      await api().remove({ ...tenant, params: { id: ep.id } });
    } finally {
      await receiver.close();
    }
  });

  it('sends consent.revoked for each grant an import withdraws, naming the user, data point and run', async () => {
    const tenant = { tenant: 'import-hooks', actor: 'admin' };
    const receiver = await startReceiver();
    try {
      const consents = b.backend.consents;
      const granted = await consents.create({
        ...tenant,
        body: { user_id: 'cara', data_point_id: 'newsletter', granted: true },
      });
      const ep = await api().add({ ...tenant, body: { url: receiver.url, events: ['*'], allow_private: true } });
      receiver.useSecret(ep.secret);
      const csv = 'user_id,data_point_id,granted\ncara,newsletter,false\ndan,newsletter,true\n';
      const run = await consents.import({
        ...tenant,
        stream: {
          content_type: 'text/csv',
          body: (async function* () {
            yield csv;
          })(),
        },
      });
      // cara's refusal revoked her grant (the refusal is stored too), dan is new
      expect(run).toMatchObject({ created: 1, revoked: 1, rejected: 0 });
      await pass();
      expect(receiver.received.map((r) => r.type)).toEqual(['consents.imported', 'consent.revoked']);
      expect(receiver.received[1]!.payload.data).toMatchObject({
        consent_id: granted.id,
        user_id: 'cara',
        data_point_id: 'newsletter',
        action: 'revoked',
        source: 'import',
        import_run_id: run.run_id,
      });
      await api().remove({ ...tenant, params: { id: ep.id } });
    } finally {
      await receiver.close();
    }
  });
});
