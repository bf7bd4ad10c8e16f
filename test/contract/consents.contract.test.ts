import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/errors.js';
import { BACKEND_NAMES, failure, overHttp, useBackend } from '../support/helpers.js';

const T = { tenant: 'shop', actor: 'admin' };
const Z_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(BACKEND_NAMES)('consents on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.consents;

  it('records a consent with a granted history entry', async () => {
    const r = await api().create({
      ...T,
      body: {
        user_id: 'jürgen@example.com',
        data_point_id: 'newsletter',
        granted: true,
        source: 'web_banner',
        ip_address: '2001:db8::1',
        user_agent: 'Firefox',
      },
    });
    expect(r).toMatchObject({
      success: true,
      user_id: 'jürgen@example.com',
      data_point_id: 'newsletter',
      granted: true,
    });
    expect(r.granted_at).toMatch(Z_TS);
    const h = await api().history({ ...T, params: { id: r.id } });
    expect(h).toEqual([
      expect.objectContaining({
        consent_id: r.id,
        action: 'granted',
        consent_version: '1.0',
        ip_address: '2001:db8::1',
        source: 'web_banner',
        user_agent: 'Firefox',
      }),
    ]);
  });

  it.each([
    [{ data_point_id: 'x', granted: true }, 'user_id'],
    [{ user_id: '', data_point_id: 'x', granted: true }, 'user_id'],
    [{ user_id: 'u', data_point_id: 'x' }, 'granted'],
    [{ user_id: 'u', data_point_id: 'x', granted: 'maybe' }, 'granted'],
    [{ user_id: 'u', data_point_id: 'x', granted: true, ip_address: '300.1.1.1' }, 'ip_address'],
    [{ user_id: 'u', data_point_id: 'x', granted: true, granted_at: 'yesterday' }, 'granted_at'],
    [{ user_id: 'u', data_point_id: 'x', granted: true, granted_at: '0999-12-31T00:00:00Z' }, 'granted_at'],
    [{ user_id: 'u', data_point_id: 'x', granted: true, granted_at: '0025-03-01T10:00:00+01:00' }, 'granted_at'],
    [{ user_id: 'u', data_point_id: 'x', granted: false, revoked_at: '2026-01-01T00:00:00Z' }, 'revoked_at'],
  ])('refuses %j naming %s', async (body, path) => {
    const before = (await api().stats(T)).total_consents;
    const e = await failure(api().create({ ...T, body }));
    expect(e.code).toBe('validation');
    expect(e.details.map((d) => d.path)).toContain(path);
    expect((await api().stats(T)).total_consents).toBe(before);
  });

  it('revokes once; a second revoke and revoking a refusal are conflicts', async () => {
    const { id } = await api().create({ ...T, body: { user_id: 'u1', data_point_id: 'tracking', granted: true } });
    const r = await api().revoke({ ...T, params: { id } });
    expect(r).toMatchObject({ success: true, id });
    expect(r.revoked_at).toMatch(Z_TS);
    expect((await failure(api().revoke({ ...T, params: { id } }))).code).toBe('conflict');
    expect((await api().history({ ...T, params: { id } })).map((h) => [h.action, h.ip_address])).toEqual([
      ['granted', null],
      ['revoked', null],
    ]);
    const refusal = await api().create({ ...T, body: { user_id: 'u1', data_point_id: 'ads', granted: false } });
    expect((await failure(api().revoke({ ...T, params: { id: refusal.id } }))).code).toBe('conflict');
  });

  it('renews with the same version (renewed) or a new one (version_update); revoked ones are a conflict', async () => {
    const { id } = await api().create({
      ...T,
      body: { user_id: 'u2', data_point_id: 'newsletter', granted: true, consent_version: '1.0' },
    });
    expect((await api().renew({ ...T, params: { id }, body: {} })).history.at(-1)!.action).toBe('renewed');
    const v2 = await api().renew({ ...T, params: { id }, body: { consent_version: '2.0' } });
    expect(v2.consent_version).toBe('2.0');
    expect(v2.history.map((h) => h.action)).toEqual(['granted', 'renewed', 'version_update']);
    await api().revoke({ ...T, params: { id } });
    expect((await failure(api().renew({ ...T, params: { id }, body: {} }))).code).toBe('conflict');
  });

  // a 409 says which consent and why; the CLI prints it as it is
  it('tells why a consent cannot be revoked or renewed, and which one is not found', async () => {
    const message = async (p: Promise<unknown>) => (await failure(p)).message;
    const { id } = await api().create({ ...T, body: { user_id: 'u3', data_point_id: 'tracking', granted: true } });
    const { revoked_at } = await api().revoke({ ...T, params: { id } });
    expect(await message(api().revoke({ ...T, params: { id } }))).toBe(
      `consent ${id} was already revoked at ${revoked_at}`,
    );
    expect(await message(api().renew({ ...T, params: { id }, body: {} }))).toBe(
      `consent ${id} is not active (revoked) and cannot be renewed`,
    );
    const refusal = await api().create({ ...T, body: { user_id: 'u3', data_point_id: 'ads', granted: false } });
    const rid = refusal.id;
    expect(await message(api().revoke({ ...T, params: { id: rid } }))).toBe(
      `consent ${rid} records a refusal (granted=false) and cannot be revoked`,
    );
    expect(await message(api().renew({ ...T, params: { id: rid }, body: {} }))).toBe(
      `consent ${rid} is not active (a refusal) and cannot be renewed`,
    );
    expect(await message(api().history({ tenant: 'elsewhere', params: { id } }))).toBe(`consent ${id} not found`);
  });

  // the version a renewal names is stored only when it differs; the same version again is a plain renewal
  it('stores a new version on renewal and renews the same version as it is', async () => {
    const { id } = await api().create({
      ...T,
      body: { user_id: 'u4', data_point_id: 'newsletter', granted: true, consent_version: '1.0' },
    });
    const same = await api().renew({ ...T, params: { id }, body: { consent_version: '1.0' } });
    expect(same.consent_version).toBe('1.0');
    expect(same.history.map((h) => [h.action, h.consent_version])).toEqual([
      ['granted', '1.0'],
      ['renewed', '1.0'],
    ]);
    await api().renew({ ...T, params: { id }, body: { consent_version: '2.0' } });
    const [stored] = (await api().list({ ...T, query: { user_id: 'u4' } })).consents;
    expect(stored!.consent_version).toBe('2.0');
    expect(stored!.history.map((h) => [h.action, h.consent_version])).toEqual([
      ['granted', '1.0'],
      ['renewed', '1.0'],
      ['version_update', '2.0'],
    ]);
  });

  // docs/consents.md (one decision in force), issue 36 item 1
  describe('one decision in force per user and data point', () => {
    const t = { tenant: 'decisions', actor: 'visitor' };
    const body = (user: string, granted: boolean, extra: Record<string, unknown> = {}) => ({
      user_id: user,
      data_point_id: 'cookies:analytics',
      granted,
      consent_version: 'aaaa1111',
      source: 'web_banner',
      ...extra,
    });

    it('a refusal revokes the grant in force: history, receipt, statistics; the same decision again changes nothing', async () => {
      const grant = await api().create({ ...t, body: body('v1', true) });
      expect(grant).toMatchObject({ outcome: 'created', granted: true, revoked_consent_ids: [] });
      expect(await api().create({ ...t, body: body('v1', true) })).toEqual({ ...grant, outcome: 'unchanged' });
      const refusal = await api().create({ ...t, body: body('v1', false, { ip_address: '192.0.2.7' }) });
      expect(refusal).toMatchObject({ outcome: 'created', granted: false, revoked_consent_ids: [grant.id] });
      const withdrawn = await api().get({ ...t, params: { id: grant.id } });
      expect(withdrawn.revoked_at).toBe(refusal.granted_at);
      expect(withdrawn.history.map((h) => [h.action, h.created_at, h.source, h.ip_address])).toEqual([
        ['granted', grant.granted_at, 'web_banner', null],
        ['revoked', refusal.granted_at, 'web_banner', '192.0.2.7'],
      ]);
      const receipt = await b.backend.consents.receipt({ ...t, params: { id: grant.id } });
      expect(receipt.consent).toMatchObject({ id: grant.id, granted: true, revoked_at: refusal.granted_at });
      expect(receipt.notes[0]).toBe(`revoked at ${refusal.granted_at}: the consent is no longer in force`);
      expect(await api().create({ ...t, body: body('v1', false) })).toEqual({
        ...refusal,
        outcome: 'unchanged',
        revoked_consent_ids: [],
      });
      expect((await api().stats(t)).by_data_point['cookies:analytics']).toEqual({ total: 2, active: 0, revoked: 1 });
      const report = await b.backend.reports.management({ ...t, query: {} });
      expect(report.consents).toMatchObject({ total: 2, active: 0, revoked: 1, refused: 1 });
      expect((await failure(api().revoke({ ...t, params: { id: grant.id } }))).code).toBe('conflict');
    });

    it('a grant while one is in force renews it: another version is a version_update, the same one changes nothing', async () => {
      const first = await api().create({ ...t, body: body('v2', true) });
      const renewed = await api().create({ ...t, body: body('v2', true, { consent_version: 'bbbb2222' }) });
      expect(renewed).toMatchObject({ outcome: 'renewed', id: first.id, granted_at: first.granted_at });
      const stored = await api().get({ ...t, params: { id: first.id } });
      expect(stored.consent_version).toBe('bbbb2222');
      expect(stored.history.map((h) => [h.action, h.consent_version, h.source])).toEqual([
        ['granted', 'aaaa1111', 'web_banner'],
        ['version_update', 'bbbb2222', 'web_banner'],
      ]);
      // a grant after a refusal is a new decision in force
      await api().create({ ...t, body: body('v2', false, { consent_version: 'bbbb2222' }) });
      const again = await api().create({ ...t, body: body('v2', true, { consent_version: 'bbbb2222' }) });
      expect(again.outcome).toBe('created');
      const all = (await api().list({ ...t, query: { user_id: 'v2' } })).consents;
      expect(all.map((c) => [c.granted, c.revoked_at === null])).toEqual([
        [true, true],
        [false, true],
        [true, false],
      ]);
    });

    it('applies decisions of the past (granted_at given) in the order of their times', async () => {
      const at = (day: number) => `2026-01-0${day}T10:00:00.000Z`;
      const grant = await api().create({ ...t, body: body('v3', true, { granted_at: at(2) }) });
      // an older grant changes nothing, the same grant given again neither
      expect(await api().create({ ...t, body: body('v3', true, { granted_at: at(1) }) })).toMatchObject({
        outcome: 'unchanged',
        id: grant.id,
      });
      expect((await api().create({ ...t, body: body('v3', true, { granted_at: at(2) }) })).outcome).toBe('unchanged');
      // a refusal before the grant withdraws nothing; one after it withdraws it at its own time
      const before = await api().create({ ...t, body: body('v3', false, { granted_at: at(1) }) });
      expect(before.revoked_consent_ids).toEqual([]);
      const after = await api().create({ ...t, body: body('v3', false, { granted_at: at(3) }) });
      expect(after.revoked_consent_ids).toEqual([grant.id]);
      expect((await api().get({ ...t, params: { id: grant.id } })).revoked_at).toBe(at(3));
      expect((await api().create({ ...t, body: body('v3', false, { granted_at: at(3) }) })).outcome).toBe('unchanged');
    });
  });

  it('reads one consent by id or short id, with its history', async () => {
    const t = { tenant: 'one-by-id', actor: 'a' };
    const { id } = await api().create({ ...t, body: { user_id: 'anna', data_point_id: 'newsletter', granted: true } });
    const listed = (await api().list(t)).consents[0]!;
    expect(await api().get({ ...t, params: { id } })).toEqual(listed);
    expect(await api().get({ ...t, params: { id: id.slice(-8) } })).toEqual(listed);
    expect((await failure(api().get({ ...t, params: { id: '00000000-0000-7000-8000-000000000000' } }))).code).toBe(
      'not_found',
    );
  });

  it('lists with filters, paging and history; limits are checked', async () => {
    const t = { tenant: 'paging', actor: 'a' };
    // six decisions of two users on three data points (one decision per user and data point)
    for (let i = 0; i < 6; i++)
      await api().create({
        ...t,
        body: { user_id: `user${i % 2}`, data_point_id: `dp${Math.floor(i / 2)}`, granted: i !== 5 },
      });
    const all = await api().list(t);
    expect(all).toMatchObject({ total: 6, offset: 0, limit: 50 });
    expect(all.consents[0]!.history).toHaveLength(1);
    expect((await api().list({ ...t, query: { user_id: 'user1' } })).total).toBe(3);
    expect((await api().list({ ...t, query: { data_point_id: 'dp2', granted: 'false' } })).total).toBe(1);
    const page = await api().list({ ...t, query: { limit: 2, offset: 4 } });
    expect(page.consents.map((c) => c.id)).toEqual(all.consents.slice(4).map((c) => c.id));
    for (const [q, code] of [
      [{ limit: 0 }, 'validation'],
      [{ limit: 501 }, 'validation'],
      [{ limit: 'x' }, 'bad_request'],
      [{ offset: -1 }, 'validation'],
      [{ granted: 'perhaps' }, 'bad_request'],
    ] as const) {
      expect((await failure(api().list({ ...t, query: q }))).code, JSON.stringify(q)).toBe(code);
    }
  });

  it('computes statistics as decided (conversion rate over all consents)', async () => {
    const t = { tenant: 'stats', actor: 'a' };
    expect(await api().stats(t)).toEqual({
      total_consents: 0,
      active_consents: 0,
      revoked_consents: 0,
      unique_users: 0,
      conversion_rate: 0,
      by_data_point: {},
    });
    const a = await api().create({ ...t, body: { user_id: 'x', data_point_id: 'newsletter', granted: true } });
    await api().create({ ...t, body: { user_id: 'y', data_point_id: 'newsletter', granted: true } });
    await api().create({ ...t, body: { user_id: 'x', data_point_id: 'ads', granted: false } });
    await api().revoke({ ...t, params: { id: a.id } });
    expect(await api().stats(t)).toEqual({
      total_consents: 3,
      active_consents: 1,
      revoked_consents: 1,
      unique_users: 2,
      conversion_rate: 66.7,
      by_data_point: { ads: { total: 1, active: 0, revoked: 0 }, newsletter: { total: 2, active: 1, revoked: 1 } },
    });
  });

  it("keeps tenants apart: another tenant's consent is not found", async () => {
    const { id } = await api().create({ ...T, body: { user_id: 'secret', data_point_id: 'x', granted: true } });
    const other = { tenant: 'elsewhere', params: { id } };
    expect((await failure(api().get(other))).code).toBe('not_found');
    expect((await failure(api().get({ ...other, params: { id: id.slice(-8) } }))).code).toBe('not_found');
    expect((await failure(api().revoke(other))).code).toBe('not_found');
    expect((await failure(api().history(other))).code).toBe('not_found');
    expect((await failure(api().renew({ ...other, body: {} }))).code).toBe('not_found');
    expect((await api().list({ tenant: 'elsewhere' })).total).toBe(0);
    expect(await api().history({ ...T, params: { id } })).toHaveLength(1);
  });

  it('imports CSV in bulk, idempotently, and exports what an import reads back', async () => {
    const t = { tenant: 'bulk', actor: 'a' };
    const csv =
      'user_id,data_point_id,granted,granted_at,consent_version,ip_address\n' +
      'a@example.com,newsletter,yes,2026-01-01T10:00:00Z,1.0,10.0.0.1\n' +
      'b@example.com,newsletter,0,2026-01-02T10:00:00Z,1.0,\n' +
      'c@example.com,newsletter,maybe,2026-01-02T10:00:00Z,1.0,\n';
    const stream = (s: string) => ({
      body: (async function* () {
        yield new TextEncoder().encode(s);
      })(),
      content_type: 'text/csv',
    });
    const first = await api().import({ ...t, stream: stream(csv) });
    expect(first).toMatchObject({
      read: 3,
      created: 2,
      unchanged: 0,
      rejected: 1,
      rejections: [{ line: 4, reason: expect.stringContaining('granted') }],
    });
    const second = await api().import({ ...t, stream: stream(csv) });
    expect(second).toMatchObject({ created: 0, unchanged: 2, rejected: 1 });
    const exported = await api().export({ ...t, query: { format: 'ndjson' } });
    let text = '';
    for await (const c of exported.body) text += typeof c === 'string' ? c : new TextDecoder().decode(c);
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: 'a@example.com',
        granted: true,
        granted_at: '2026-01-01T10:00:00.000Z',
        ip_address: '10.0.0.1',
      }),
      expect.objectContaining({ user_id: 'b@example.com', granted: false }),
    ]);
    const back = await api().import({
      tenant: 'bulk2',
      stream: {
        body: (async function* () {
          yield text;
        })(),
        content_type: 'application/x-ndjson',
      },
    });
    expect(back).toMatchObject({ created: 2, rejected: 0 });
    expect(await api().stats({ tenant: 'bulk2' })).toEqual(await api().stats(t));
  });

  it('writes an imported consent and its history as the API writes a created one', async () => {
    const t = { tenant: 'same-rules', actor: 'a' };
    const body = {
      user_id: 'ann',
      data_point_id: 'newsletter',
      granted: true,
      granted_at: '2026-03-01T08:00:00Z',
      consent_version: '2.0',
      source: 'shop',
      ip_address: '10.1.2.3',
      user_agent: 'UA 1',
    };
    const created = await api().create({ ...t, body });
    const csv =
      'user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address,user_agent\n' +
      'bob,newsletter,true,2026-03-01T08:00:00Z,,2.0,shop,10.1.2.3,UA 1\n' +
      'eve,newsletter,true,2026-03-01T08:00:00Z,2026-04-01T00:00:00Z,2.0,shop,10.1.2.3,UA 1\n' +
      'ned,newsletter,true,,,2.0,shop,,\n' +
      'ned,newsletter,true,,,2.0,shop,,\n';
    const r = await api().import({
      ...t,
      stream: {
        body: (async function* () {
          yield csv;
        })(),
        content_type: 'text/csv',
      },
    });
    // the repeated row without granted_at equals the first one of any time
    expect(r).toMatchObject({ read: 4, created: 3, unchanged: 1, rejected: 0 });
    const list = (await api().list({ ...t, query: { limit: 10, offset: 0 } })).consents;
    const byUser = Object.fromEntries(list.map((c) => [c.user_id, c]));
    const shape = ({ id: _i, user_id: _u, created_at: _c, history, ...rest }: (typeof list)[number]) => ({
      ...rest,
      history: history.map(({ id: _h, consent_id: _k, ...h }) => h),
    });
    expect(shape(byUser.bob!)).toEqual(shape(byUser.ann!));
    expect(byUser.ann!.id).toBe(created.id);
    expect(byUser.eve!.revoked_at).toBe('2026-04-01T00:00:00.000Z');
    expect(byUser.eve!.history.map((h) => [h.action, h.created_at, h.ip_address, h.source])).toEqual([
      ['granted', '2026-03-01T08:00:00.000Z', '10.1.2.3', 'shop'],
      ['revoked', '2026-04-01T00:00:00.000Z', null, null],
    ]);
    expect(byUser.ned!.granted_at).toMatch(Z_TS);
    expect(byUser.ned!.history).toEqual([
      expect.objectContaining({ action: 'granted', created_at: byUser.ned!.granted_at }),
    ]);
    // ids are UUIDv7, unique, and a consent's history belongs to it
    const ids = list.flatMap((c) => [c.id, ...c.history.map((h) => h.id)]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of list) for (const h of c.history) expect(h.consent_id).toBe(c.id);
    for (const c of list) expect(await api().history({ ...t, params: { id: c.id } })).toEqual(c.history);
  });

  it('revokes on a re-import what a row now says is revoked, and refuses rows that contradict a stored consent', async () => {
    const t = { tenant: 'reimport', actor: 'a' };
    const csv = (text: string) => ({
      body: (async function* () {
        yield text;
      })(),
      content_type: 'text/csv',
    });
    const header = 'user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address\n';
    const at = '2026-01-01T10:00:00Z';
    const first =
      header +
      `ann,newsletter,true,${at},,1.0,shop,10.0.0.1\n` +
      `bob,newsletter,true,${at},,1.0,shop,\n` +
      `cai,newsletter,true,${at},2026-02-01T10:00:00Z,1.0,shop,\n` +
      `dan,newsletter,true,${at},,1.0,shop,\n`;
    expect(await api().import({ ...t, stream: csv(first) })).toMatchObject({ created: 4, revoked: 0, rejected: 0 });
    const second =
      header +
      `ann,newsletter,true,${at},2026-03-01T10:00:00Z,1.0,shop,10.0.0.1\n` + // line 2: now revoked
      `bob,newsletter,true,${at},,1.0,,\n` + // line 3: unchanged (a value left empty says nothing)
      `cai,newsletter,true,${at},,1.0,shop,\n` + // line 4: would undo a revocation
      `x,newsletter,maybe,${at},,1.0,,\n` + // line 5: refused by the schema
      `dan,newsletter,true,${at},,1.0,crm,\n` + // line 6: another source
      `eve,newsletter,true,${at},2026-03-01T10:00:00Z,1.0,shop,\n` + // line 7: new, revoked
      `fay,newsletter,true,${at},,1.0,shop,\n` + // line 8: new ...
      `fay,newsletter,true,${at},2026-03-02T10:00:00Z,1.0,shop,\n`; // line 9: ... and revoked further down the file
    const dry = await api().import({ ...t, query: { dry_run: 'true' }, stream: csv(second) });
    // a dry run compares with the store only: fay's second row counts as another new consent
    expect(dry).toMatchObject({ read: 8, created: 3, unchanged: 1, revoked: 1, rejected: 3 });
    const ann = async () => (await api().list({ ...t, query: { user_id: 'ann' } })).consents[0]!;
    expect((await ann()).revoked_at).toBeNull();
    const r = await api().import({ ...t, stream: csv(second) });
    expect(r).toMatchObject({ read: 8, created: 2, unchanged: 1, revoked: 2, rejected: 3 });
    expect(r.rejections.map((x) => x.line)).toEqual([4, 5, 6]);
    // each with the row as read, for a rejects file to fix and import again
    expect(r).toMatchObject({ columns: header.trim().split(','), delimiter: ',' });
    expect(r.rejections[1]).toEqual({
      line: 5,
      reason: expect.stringMatching(/^granted: /),
      cells: ['x', 'newsletter', 'maybe', at, '', '1.0', '', ''],
    });
    expect(r.rejections[2]!.cells).toEqual(['dan', 'newsletter', 'true', at, '', '1.0', 'crm', '']);
    expect(r.rejections[0]!.reason).toMatch(
      /^revoked_at: consent \S+ was revoked at 2026-02-01T10:00:00.000Z and a revocation cannot be undone/,
    );
    expect(r.rejections[2]!.reason).toMatch(/^source: consent \S+ has "shop", the row says "crm"$/);
    const revoked = await ann();
    expect(revoked.revoked_at).toBe('2026-03-01T10:00:00.000Z');
    expect(revoked.history.map((h) => [h.action, h.created_at, h.source])).toEqual([
      ['granted', '2026-01-01T10:00:00.000Z', 'shop'],
      ['revoked', '2026-03-01T10:00:00.000Z', 'import'],
    ]);
    const fay = (await api().list({ ...t, query: { user_id: 'fay' } })).consents;
    expect(fay.map((c) => [c.revoked_at, c.history.map((h) => h.action)])).toEqual([
      ['2026-03-02T10:00:00.000Z', ['granted', 'revoked']],
    ]);
    expect(await api().stats(t)).toMatchObject({ total_consents: 6, active_consents: 2, revoked_consents: 4 });
    // the same file again: what it revoked is now equal to it; the contradictions are refused again, never skipped
    const again = await api().import({ ...t, stream: csv(second) });
    expect(again).toMatchObject({ created: 0, unchanged: 4, revoked: 0, rejected: 4 });
    expect(again.rejections.map((x) => x.line)).toEqual([4, 5, 6, 8]);
    expect(again.rejections[3]!.reason).toMatch(
      /^revoked_at: consent \S+ was revoked at 2026-03-02T10:00:00.000Z and a revocation cannot be undone/,
    );
  });

  // docs/consents.md (one decision in force; Bulk import), issue 36 item 1: the import applies the rule row after row
  describe('an import applies the rule of one decision in force', () => {
    const csv = (text: string) => ({
      body: (async function* () {
        yield text;
      })(),
      content_type: 'text/csv',
    });
    const header = 'user_id,data_point_id,granted,granted_at,consent_version\n';
    const byUser = async (t: { tenant: string }, user: string) =>
      (await api().list({ ...t, query: { user_id: user } })).consents
        .map((c) => [c.granted, c.consent_version, c.revoked_at, c.history.map((h) => [h.action, h.source])])
        .reverse();

    it('a refusal after a grant in the same file revokes it; the file again changes nothing', async () => {
      const t = { tenant: 'import-rule', actor: 'a' };
      const file =
        header +
        'ann,cookies:analytics,true,2026-01-01T10:00:00Z,1.0\n' +
        'ann,cookies:analytics,false,2026-01-02T10:00:00Z,1.0\n' +
        'bob,cookies:analytics,true,,1.0\n' +
        'bob,cookies:analytics,false,,1.0\n' +
        'cai,cookies:analytics,true,,1.0\n' +
        'cai,cookies:analytics,true,,1.0\n';
      const first = await api().import({ ...t, stream: csv(file) });
      expect(first).toMatchObject({ read: 6, created: 3, unchanged: 1, revoked: 2, renewed: 0, rejected: 0 });
      expect(await byUser(t, 'ann')).toEqual([
        [
          true,
          '1.0',
          '2026-01-02T10:00:00.000Z',
          [
            ['granted', null],
            ['revoked', 'import'],
          ],
        ],
        [false, '1.0', null, [['granted', null]]],
      ]);
      expect((await byUser(t, 'bob')).map(([granted, , revoked]) => [granted, revoked !== null])).toEqual([
        [true, true],
        [false, false],
      ]);
      expect((await api().stats(t)).by_data_point['cookies:analytics']).toEqual({ total: 5, active: 1, revoked: 2 });
      const again = await api().import({ ...t, stream: csv(file) });
      expect(again).toMatchObject({ created: 0, unchanged: 6, revoked: 0, renewed: 0, rejected: 0 });
      expect((await api().stats(t)).by_data_point['cookies:analytics']).toEqual({ total: 5, active: 1, revoked: 2 });
    });

    it('a refusal revokes a grant made through the API; a grant of another version renews it; a revert undoes both', async () => {
      const t = { tenant: 'import-rule-api', actor: 'a' };
      const dan = await api().create({ ...t, body: { user_id: 'dan', data_point_id: 'newsletter', granted: true } });
      const eve = await api().create({ ...t, body: { user_id: 'eve', data_point_id: 'newsletter', granted: true } });
      const file = header + 'dan,newsletter,false,,1.0\neve,newsletter,true,,2.0\n';
      const run = await api().import({ ...t, stream: csv(file) });
      expect(run).toMatchObject({ created: 0, revoked: 1, renewed: 1 });
      expect(await byUser(t, 'dan')).toEqual([
        [
          true,
          '1.0',
          expect.stringMatching(Z_TS),
          [
            ['granted', null],
            ['revoked', 'import'],
          ],
        ],
        [false, '1.0', null, [['granted', null]]],
      ]);
      expect(await byUser(t, 'eve')).toEqual([
        [
          true,
          '2.0',
          null,
          [
            ['granted', null],
            ['version_update', 'import'],
          ],
        ],
      ]);
      expect(await api().import({ ...t, stream: csv(file) })).toMatchObject({ unchanged: 2, revoked: 0, renewed: 0 });
      expect(await api().importRun({ ...t, params: { id: run.run_id! } })).toMatchObject({ revoked: 1, renewed: 1 });
      expect(await api().revertImport({ ...t, params: { id: run.run_id! } })).toMatchObject({
        consents_removed: 1,
        revocations_undone: 1,
        renewals_undone: 1,
      });
      expect(await byUser(t, 'dan')).toEqual([[true, '1.0', null, [['granted', null]]]]);
      expect(await byUser(t, 'eve')).toEqual([[true, '1.0', null, [['granted', null]]]]);
      expect((await api().get({ ...t, params: { id: dan.id } })).revoked_at).toBeNull();
      expect((await api().get({ ...t, params: { id: eve.id } })).consent_version).toBe('1.0');
    });

    it('a renewal changed since blocks the revert of its run', async () => {
      const t = { tenant: 'import-rule-blocked', actor: 'a' };
      const fay = await api().create({ ...t, body: { user_id: 'fay', data_point_id: 'newsletter', granted: true } });
      const run = await api().import({ ...t, stream: csv(header + 'fay,newsletter,true,,2.0\n') });
      expect(run.renewed).toBe(1);
      await api().revoke({ ...t, params: { id: fay.id } });
      const blocked = await failure(api().revertImport({ ...t, params: { id: run.run_id! } }));
      expect(blocked.code).toBe('conflict');
      expect(blocked.details).toEqual([
        {
          path: fay.id,
          message: expect.stringMatching(
            /^consent \(fay, newsletter\) renewed by this run at \S+Z was revoked at \S+Z by a request$/,
          ),
        },
      ]);
    });

    it('decides a grant and its refusal in different batches as row after row', async () => {
      const t = { tenant: 'import-rule-batches', actor: 'a' };
      const filler = Array.from({ length: 9_999 }, (_, i) => `u${i},news,true,,1.0\n`).join('');
      const file = header + filler + 'gil,news,true,,1.0\ngil,news,false,,1.0\n';
      expect(await api().import({ ...t, stream: csv(file) })).toMatchObject({ created: 10_000, revoked: 1 });
      expect((await byUser(t, 'gil')).map(([granted, , revoked]) => [granted, revoked !== null])).toEqual([
        [true, true],
        [false, false],
      ]);
    });
  });

  describe('import runs', () => {
    const body = (text: string, extra: Record<string, unknown> = {}) => ({
      body: (async function* () {
        yield text;
      })(),
      content_type: 'text/csv',
      ...extra,
    });
    const header = 'user_id,data_point_id,granted,granted_at,revoked_at\n';
    const at = '2026-01-01T10:00:00Z';
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

    it('records every run but a dry one, newest first, with file, digest, options, counts, who and when', async () => {
      const t = { tenant: 'runs-list', actor: 'importer' };
      const first = header + `ann,news,ja,${at},\nbob,news,nein,${at},\ncai,news,vielleicht,${at},\n`;
      const query = { file_name: 'crm.csv', true_values: 'ja', false_values: 'nein' };
      const r1 = await api().import({ ...t, query, stream: body(first) });
      expect(r1).toMatchObject({ created: 2, rejected: 1, run_id: expect.any(String) });
      const dry = await api().import({ ...t, query: { dry_run: 'true' }, stream: body(first) });
      expect(dry.run_id).toBeNull();
      const r2 = await api().import({ tenant: t.tenant, stream: body(header + `dan,news,true,${at},\n`) });
      const list = await api().imports(t);
      expect(list).toMatchObject({ total: 2, offset: 0, limit: 50 });
      expect(list.runs.map((r) => r.id)).toEqual([r2.run_id, r1.run_id]);
      expect(list.runs[1]).toEqual({
        id: r1.run_id,
        tenant_id: t.tenant,
        file_name: 'crm.csv',
        sha256: sha256(first),
        format: 'csv',
        options: { true_values: 'ja', false_values: 'nein' },
        status: 'completed',
        read: 3,
        created: 2,
        unchanged: 0,
        revoked: 0,
        renewed: 0,
        rejected: 1,
        created_by: 'importer',
        started_at: expect.stringMatching(Z_TS),
        finished_at: expect.stringMatching(Z_TS),
        reverted_at: null,
        reverted_by: null,
      });
      expect(list.runs[0]).toMatchObject({ file_name: null, created_by: 'system', options: {} });
      expect(await api().importRun({ ...t, params: { id: r1.run_id! } })).toEqual(list.runs[1]);
      // a short id (the last 8 characters) names it as a whole id does, and another tenant's not at all
      expect(await api().importRun({ ...t, params: { id: r1.run_id!.slice(-8) } })).toEqual(list.runs[1]);
      const otherTenant = { tenant: 'runs-other', params: { id: r1.run_id!.slice(-8) } };
      expect((await failure(api().importRun(otherTenant))).code).toBe('not_found');
      expect((await api().imports({ ...t, query: { limit: 1, offset: 1 } })).runs.map((r) => r.id)).toEqual([
        r1.run_id,
      ]);
      expect((await failure(api().imports({ ...t, query: { limit: 501 } }))).code).toBe('validation');
      // another tenant sees none of them
      expect((await api().imports({ tenant: 'runs-other' })).total).toBe(0);
      for (const p of [
        api().importRun({ tenant: 'runs-other', params: { id: r1.run_id! } }),
        api().revertImport({ tenant: 'runs-other', params: { id: r1.run_id! } }),
      ])
        expect((await failure(p)).code).toBe('not_found');
      expect((await api().importRun({ ...t, params: { id: r1.run_id! } })).status).toBe('completed');
    });

    it('reverts a run: removes what it created and undoes what it revoked, or refuses listing what changed since', async () => {
      const t = { tenant: 'runs-revert', actor: 'admin' };
      const stats = () => api().stats(t);
      const history = async (user: string) =>
        (await api().list({ ...t, query: { user_id: user } })).consents.map((c) => [
          c.revoked_at,
          c.history.map((h) => h.action),
        ]);
      const eve = await api().create({
        ...t,
        body: { user_id: 'eve', data_point_id: 'news', granted: true, granted_at: at },
      });
      const one = await api().import({
        ...t,
        stream: body(header + `ann,news,true,${at},\nbob,news,true,${at},\ncai,news,true,${at},2026-02-01T00:00:00Z\n`),
      });
      expect(one).toMatchObject({ created: 3 });
      const before = await stats();
      // run two revokes eve (made through the API) and bob (made by run one), and creates fay
      const two = await api().import({
        ...t,
        stream: body(
          header +
            `eve,news,true,${at},2026-03-01T00:00:00Z\nbob,news,true,${at},2026-03-01T00:00:00Z\nfay,news,true,${at},\n`,
        ),
      });
      expect(two).toMatchObject({ created: 1, revoked: 2 });
      const blocked = await failure(api().revertImport({ ...t, params: { id: one.run_id! } }));
      expect(blocked.code).toBe('conflict');
      const bob = (await api().list({ ...t, query: { user_id: 'bob' } })).consents[0]!.id;
      const why = `(bob, news) revoked at 2026-03-01T00:00:00.000Z by import run ${two.run_id} (revert that run first)`;
      expect(blocked.message).toBe(
        `import run ${one.run_id} cannot be reverted: consent ${bob} ${why}; nothing was reverted`,
      );
      expect(blocked.details).toEqual([{ path: bob, message: `consent ${why}` }]);
      const undone = await api().revertImport({ ...t, params: { id: two.run_id! } });
      expect(undone).toMatchObject({
        consents_removed: 1,
        revocations_undone: 2,
        run: { id: two.run_id, status: 'reverted', reverted_by: 'admin', reverted_at: expect.stringMatching(Z_TS) },
      });
      expect(await stats()).toEqual(before);
      expect(await history('eve')).toEqual([[null, ['granted']]]);
      expect(await history('bob')).toEqual([[null, ['granted']]]);
      expect(await history('fay')).toEqual([]);
      expect((await api().importRun({ ...t, params: { id: two.run_id! } })).status).toBe('reverted');
      const again = await failure(api().revertImport({ ...t, params: { id: two.run_id! } }));
      expect(again.code).toBe('conflict');
      expect(again.message).toMatch(/was already reverted at .* by admin/);
      // run one can go now; eve, made through the API, stays
      expect(await api().revertImport({ ...t, params: { id: one.run_id! } })).toMatchObject({
        consents_removed: 3,
        revocations_undone: 0,
      });
      expect((await api().list(t)).consents.map((c) => c.id)).toEqual([eve.id]);
      // a consent renewed since its run blocks the revert of that run
      const three = await api().import({ ...t, stream: body(header + `gus,news,true,${at},\nhal,news,true,${at},\n`) });
      const gus = (await api().list({ ...t, query: { user_id: 'gus' } })).consents[0]!;
      await api().renew({ ...t, params: { id: gus.id }, body: { consent_version: '2.0' } });
      const renewed = await failure(api().revertImport({ ...t, params: { id: three.run_id! } }));
      expect(renewed.code).toBe('conflict');
      expect(renewed.details).toEqual([
        {
          path: gus.id,
          message: expect.stringMatching(/^consent \(gus, news\) renewed with a new version at \S+Z by a request$/),
        },
      ]);
      expect((await stats()).total_consents).toBe(3);
    });

    it('reverts or refuses, never both, against a request that renews one of its consents at the same time', async () => {
      const t = { tenant: 'runs-race', actor: 'a' };
      for (let i = 0; i < 4; i++) {
        const run = await api().import({ ...t, stream: body(header + `race${i},news,true,${at},\n`) });
        const [c] = (await api().list({ ...t, query: { user_id: `race${i}` } })).consents;
        const [revert, renew] = await Promise.allSettled([
          api().revertImport({ ...t, params: { id: run.run_id! } }),
          api().renew({ ...t, params: { id: c!.id }, body: {} }),
        ]);
        const left = (await api().list({ ...t, query: { user_id: `race${i}` } })).consents;
        if (revert.status === 'fulfilled') {
          expect(renew.status).toBe('rejected');
          expect((renew as PromiseRejectedResult).reason.code).toBe('not_found');
          expect(left).toEqual([]);
        } else {
          expect((revert.reason as DomainError).code).toBe('conflict');
          expect(renew.status).toBe('fulfilled');
          expect(left[0]!.history.map((h) => h.action)).toEqual(['granted', 'renewed']);
          expect((await api().importRun({ ...t, params: { id: run.run_id! } })).status).toBe('completed');
        }
      }
    });

    it.skipIf(overHttp(name))('stops a run that is reverted while it is still writing', async () => {
      const t = { tenant: 'runs-live', actor: 'a' };
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const rows = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => `live${from + i},news,true,${at},\n`).join('');
      const importing = api().import({
        ...t,
        // read in this thread as the CLI reads a checked local file: rows are written while the body still streams
        stream: body('', {
          checked: true,
          body: (async function* () {
            yield header + rows(0, 15_000);
            await gate;
            yield rows(15_000, 30_000);
          })(),
        }),
      });
      let runs = await api().imports(t);
      for (let waited = 0; runs.runs[0]?.created !== 10_000; waited += 20) {
        if (waited > 20_000) throw new Error('the first batch was not written');
        await new Promise((r) => setTimeout(r, 20));
        runs = await api().imports(t);
      }
      expect(runs.runs[0]!.status).toBe('running');
      expect(await api().revertImport({ ...t, params: { id: runs.runs[0]!.id } })).toMatchObject({
        consents_removed: 10_000,
      });
      open();
      const stopped = await failure(importing);
      expect(stopped.code).toBe('conflict');
      expect(stopped.message).toMatch(/was reverted while it was running/);
      expect((await api().stats(t)).total_consents).toBe(0);
      expect((await api().importRun({ ...t, params: { id: runs.runs[0]!.id } })).status).toBe('reverted');
    });
  });

  it('lists a common and a rare data point newest first, page after page', async () => {
    const t = { tenant: 'dp-lists', actor: 'a' };
    const lines = ['user_id,data_point_id,granted'];
    for (let i = 0; i < 5_300; i++) lines.push(`u${i},${i % 200 === 0 ? 'rare' : 'common'},true`);
    const r = await api().import({
      ...t,
      stream: {
        body: (async function* () {
          yield lines.join('\n') + '\n';
        })(),
        content_type: 'text/csv',
      },
    });
    expect(r.created).toBe(5_300);
    for (const [dp, total] of [
      ['rare', 27],
      ['common', 5_273],
    ] as const) {
      const first = await api().list({ ...t, query: { data_point_id: dp, limit: 20, offset: 0 } });
      const second = await api().list({ ...t, query: { data_point_id: dp, limit: 20, offset: 20 } });
      expect([first.total, second.total]).toEqual([total, total]);
      const ids = [...first.consents, ...second.consents].map((c) => c.id);
      expect(ids).toHaveLength(Math.min(40, total));
      expect(ids).toEqual([...ids].sort().reverse());
      expect(new Set(ids).size).toBe(ids.length);
      for (const c of [...first.consents, ...second.consents]) expect(c.data_point_id).toBe(dp);
    }
    // the newest rare consent is the newest rare row of the file
    expect(
      (await api().list({ ...t, query: { data_point_id: 'rare', limit: 1, offset: 0 } })).consents[0]!.user_id,
    ).toBe('u5200');
  });

  it('refuses a body that is not UTF-8 before writing anything, reads it in its encoding, exports for Excel', async () => {
    const t = { tenant: 'encodings', actor: 'a' };
    const rows = ['user_id,data_point_id,granted,granted_at'];
    for (let i = 0; i < 10_500; i++) rows.push(`u${i},newsletter,ja,01.03.2026 10:00`);
    const bytes = Buffer.concat([
      Buffer.from(rows.join('\n') + '\n'),
      Buffer.from('M\xfcller,x,nein,01.07.2026 10:00\n', 'latin1'),
    ]);
    const stream = () => ({
      body: (async function* () {
        for (let i = 0; i < bytes.length; i += 64 * 1024) yield bytes.subarray(i, i + 64 * 1024);
      })(),
      content_type: 'text/csv',
    });
    const dialect = {
      true_values: 'ja',
      false_values: 'nein',
      date_format: 'DD.MM.YYYY HH:mm',
      timezone: 'Europe/Berlin',
    };
    const e = await failure(api().import({ ...t, query: dialect, stream: stream() }));
    expect(e.code).toBe('bad_request');
    expect(e.message).toMatch(/not valid UTF-8 \(byte 0xFC on line 10502\).*--encoding windows-1252/);
    expect((await api().stats(t)).total_consents).toBe(0);
    const r = await api().import({ ...t, query: { ...dialect, encoding: 'windows-1252' }, stream: stream() });
    expect(r).toMatchObject({ created: 10_501, rejected: 0 });
    const out = await api().export({ ...t, query: { format: 'csv', delimiter: ';', bom: 'true', user_id: 'Müller' } });
    let text = '';
    for await (const c of out.body)
      text += typeof c === 'string' ? c : new TextDecoder('utf-8', { ignoreBOM: true }).decode(c);
    expect(text).toBe(
      '\uFEFFuser_id;data_point_id;granted;granted_at;revoked_at;consent_version;source;ip_address;user_agent\n' +
        'Müller;x;false;2026-07-01T08:00:00.000Z;;1.0;;;\n',
    );
    const ndjsonBom = await failure(api().export({ ...t, query: { format: 'ndjson', bom: 'true' } }));
    expect(ndjsonBom.code).toBe('validation');
  });

  it('takes other names of an encoding in any case, and refuses an unknown one naming the names (422)', async () => {
    const t = { tenant: 'encoding-names', actor: 'a' };
    const latin = () => ({
      body: (async function* () {
        yield Buffer.from('user_id,data_point_id,granted\nMüller,x,true\n', 'latin1');
      })(),
      content_type: 'text/csv',
    });
    expect(await api().import({ ...t, query: { encoding: 'ISO_8859-1' }, stream: latin() })).toMatchObject({
      created: 1,
    });
    expect(await api().import({ ...t, query: { encoding: 'CP1252' }, stream: latin() })).toMatchObject({
      unchanged: 1,
    });
    expect((await api().list(t)).consents[0]!.user_id).toBe('Müller');
    const e = await failure(api().import({ ...t, query: { encoding: 'ebcdic' }, stream: latin() }));
    expect(e.code).toBe('validation');
    expect(e.details).toEqual([
      { path: 'encoding', message: expect.stringMatching(/^expected one of utf-8, windows-1252, latin1, utf-16le/) },
    ]);
  });

  it('exports for a German spreadsheet: times in a zone and a format, words for granted; refuses what cannot be read back', async () => {
    const t = { tenant: 'export-de', actor: 'a' };
    await api().create({
      ...t,
      body: { user_id: 'ä', data_point_id: 'x', granted: true, granted_at: '2026-07-01T22:30:00Z' },
    });
    await api().create({
      ...t,
      body: { user_id: 'b', data_point_id: 'x', granted: false, granted_at: '2026-01-01T00:00:00Z' },
    });
    const text = async (query: Record<string, string>) => {
      let out = '';
      for await (const c of (await api().export({ ...t, query: { format: 'csv', ...query } })).body)
        out += typeof c === 'string' ? c : new TextDecoder().decode(c);
      return out;
    };
    const german = { delimiter: ';', date_format: 'DD.MM.YYYY HH:mm', timezone: 'Europe/Berlin' };
    expect(await text({ ...german, true_values: 'ja,j', false_values: 'Nein' })).toBe(
      'user_id;data_point_id;granted;granted_at;revoked_at;consent_version;source;ip_address;user_agent\n' +
        'ä;x;ja;02.07.2026 00:30;;1.0;;;\n' +
        'b;x;Nein;01.01.2026 01:00;;1.0;;;\n',
    );
    for (const [query, path] of [
      [{ date_format: 'DD.MM.YYYY' }, 'timezone'],
      [{ timezone: 'Nowhere/Else' }, 'timezone'],
      [{ format: 'ndjson', date_format: 'YYYY Z' }, 'date_format'],
    ] as const) {
      const e = await failure(api().export({ ...t, query: { format: 'csv', ...query } }));
      expect(e.code, JSON.stringify(query)).toBe('validation');
      expect(e.details.map((d) => d.path)).toContain(path);
    }
  });

  it('refuses an import without the required columns before writing anything', async () => {
    const e = await failure(
      api().import({
        tenant: 'cols',
        stream: {
          body: (async function* () {
            yield 'user_id,granted\nu,true\n';
          })(),
          content_type: 'text/csv',
        },
      }),
    );
    expect(e.code).toBe('bad_request');
    expect(e.message).toMatch(/missing required column\(s\) data_point_id/);
    expect((await api().stats({ tenant: 'cols' })).total_consents).toBe(0);
  });
});
