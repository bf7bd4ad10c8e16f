import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';

const stream = (text: string, content_type: string) => ({
  body: (async function* () {
    yield text;
  })(),
  content_type,
});

/** Issue 13: requests the OpenAPI document calls invalid are refused on every face, and never stored. */
describe.each(BACKEND_NAMES)('input rules on the %s backend', (name) => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
  const b = useBackend(name, { clock: { now: () => new Date(now) } });
  const T = { tenant: 'regeln', actor: 'tester' };

  it('validates e-mail addresses: one @, a dotted domain, no spaces or control characters anywhere', async () => {
    const compute = (user_email: string) =>
      b.backend.training.compute({ ...T, body: { user_id: 'u1', user_name: 'Anna', user_email, roles: ['R9'] } });
    for (const bad of [
      'a b@example.com',
      ' a@example.com',
      'a@example.com ',
      'a\u0001@example.com',
      'a@exa\u007fmple.com',
      'a@exa mple.com',
      'a@example',
      'a@@example.com',
      '"a"@example.com',
      'a\u00a0@example.com',
    ]) {
      const e = await failure(compute(bad));
      expect(e.code, JSON.stringify(bad)).toBe('validation');
      expect(e.details[0]).toMatchObject({ path: 'user_email', message: expect.stringContaining('e-mail') });
    }
    for (const good of ['jürgen.müller@example.de', 'a+tag@sub.example.com'])
      expect((await compute(good)).created).toBe(0);
  });

  it('refuses control characters in names and titles', async () => {
    const e = await failure(
      b.backend.training.compute({
        ...T,
        body: { user_id: 'u1', user_name: 'Anna\u0000', user_email: 'a@example.com', roles: ['R9'] },
      }),
    );
    expect(e.details).toEqual([{ path: 'user_name', message: 'must not contain control characters' }]);
    const d = await failure(b.backend.dsfa.create({ ...T, body: { title: 'Rot\u001b[31m' } }));
    expect(d.details).toEqual([{ path: 'title', message: 'must not contain control characters' }]);
    const l = await failure(
      b.backend.legalDocuments.create({ ...T, body: { title: 'Impressum\u0007', document_type: 'imprint' } }),
    );
    expect(l.code).toBe('validation');
    expect(await b.backend.dsfa.list({ ...T })).toEqual([]);
    expect(await b.backend.legalDocuments.list({ ...T })).toEqual([]);
  });

  it('keeps consent timestamps plausible: not in the future beyond the clock skew, revoked after granted', async () => {
    // each of another user: one user's grants on one data point would be one decision in force
    let n = 0;
    const create = (extra: Record<string, unknown>) =>
      b.backend.consents.create({
        ...T,
        body: { user_id: `u${++n}`, data_point_id: 'newsletter', granted: true, ...extra },
      });
    const refused: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ granted_at: at(10) }, 'granted_at', /must not lie in the future \(more than 5 minutes/],
      [{ granted_at: at(-60), revoked_at: at(10) }, 'revoked_at', /must not lie in the future/],
      [{ granted_at: at(-60), revoked_at: at(-120) }, 'revoked_at', /must not be before granted_at/],
      [{ revoked_at: at(-120) }, 'revoked_at', /must not be before granted_at/],
      [{ revoked_at: '' }, 'revoked_at', /must not be empty/],
      [{ granted_at: '' }, 'granted_at', /must not be empty/],
    ];
    for (const [extra, path, message] of refused) {
      const e = await failure(create(extra));
      expect(e.code, JSON.stringify(extra)).toBe('validation');
      expect(e.details, JSON.stringify(extra)).toEqual([{ path, message: expect.stringMatching(message) }]);
      expect(e.message).toBe(`invalid body: ${path}: ${e.details[0]!.message}`);
    }
    expect((await b.backend.consents.list({ ...T })).total).toBe(0);
    // within the skew, and null meaning "not revoked", are fine
    expect((await create({ granted_at: at(4) })).granted_at).toBe(at(4));
    expect((await create({ granted_at: at(-60), revoked_at: null })).granted).toBe(true);
    expect((await create({ granted_at: at(-60), revoked_at: at(-30) })).granted).toBe(true);
  });

  it('applies the same timestamp rules to every import row, with its line number', async (ctx) => {
    const t = { tenant: 'regeln-import', actor: 'tester' };
    // bulk import on PostgreSQL is issue 11's: until it lands, the engine says so and this test has nothing to check
    const probe = await failure(b.backend.consents.import({ ...t, stream: stream('', 'text/csv') }));
    if (/need the SQLite engine/.test(probe.message)) return ctx.skip();
    const csv =
      'user_id,data_point_id,granted,granted_at,revoked_at\n' +
      `ok,newsletter,true,${at(-60)},\n` +
      `future,newsletter,true,${at(60)},\n` +
      `order,newsletter,true,${at(-60)},${at(-120)}\n` +
      `revoked-future,newsletter,true,${at(-60)},${at(30)}\n` +
      `both-empty,newsletter,true,,\n`;
    const r = await b.backend.consents.import({ ...t, stream: stream(csv, 'text/csv') });
    expect(r).toMatchObject({ read: 5, created: 2, rejected: 3 });
    // each refused row also carries its cells as read (for a rejects file)
    expect(r.rejections.map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 3, reason: expect.stringMatching(/^granted_at: must not lie in the future/) },
      { line: 4, reason: expect.stringMatching(/^revoked_at: must not be before granted_at/) },
      { line: 5, reason: expect.stringMatching(/^revoked_at: must not lie in the future/) },
    ]);
    const ndjson =
      JSON.stringify({ user_id: 'n1', data_point_id: 'x', granted: true, revoked_at: '' }) +
      '\n' +
      JSON.stringify({ user_id: 'n2', data_point_id: 'x', granted: true, granted_at: at(60) }) +
      '\n';
    const n = await b.backend.consents.import({ ...t, stream: stream(ndjson, 'application/x-ndjson') });
    expect(n).toMatchObject({ created: 0, rejected: 2 });
    expect(n.rejections.map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 1, reason: expect.stringMatching(/^revoked_at: must not be empty/) },
      { line: 2, reason: expect.stringMatching(/^granted_at: must not lie in the future/) },
    ]);
  });

  it('takes an import only in the media types the document names', async () => {
    for (const type of ['application/xml', 'application/octet-stream', 'text/plain']) {
      const e = await failure(b.backend.consents.import({ ...T, stream: stream('user_id\n', type) }));
      expect(e.code, type).toBe('bad_request');
      expect(e.message).toMatch(/send text\/csv or application\/x-ndjson/);
    }
    expect((await b.backend.consents.list({ ...T })).total).toBe(3);
  });

  it('answers media of an unknown module with 404, like the other module routes', async () => {
    const e = await failure(b.backend.trainingMedia.list({ ...T, params: { moduleId: 'no-such-module' } }));
    expect(e.code).toBe('not_found');
    const m = await b.backend.training.createModule({
      ...T,
      body: { module_code: 'MEDIA-0', title: 'Ohne Medien', regulation_area: 'dsgvo', frequency_type: 'annual' },
    });
    expect(await b.backend.trainingMedia.list({ ...T, params: { moduleId: m.id } })).toEqual([]);
    const other = await failure(b.backend.trainingMedia.list({ tenant: 'fremd', params: { moduleId: m.id } }));
    expect(other.code).toBe('not_found');
  });
});
