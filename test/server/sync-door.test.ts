import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, tmp } from '../support/helpers.js';
import { call, expectIntact, heldRow, mediaFolder, push, tenantState, versionOf } from '../support/hostile.js';
import { journalAfter } from '../support/journal.js';
import { withSyncServer } from '../support/sync-server.js';

// Issue 35 items 1 to 5 as a client with a valid write key tried them through `POST /sync/push` and
// `POST /sync/media/{id}`: every pushed row passes the domain's rules for its table, or is a conflict naming the rule;
// nothing a client sends decides where a file lives; history stays as written; the key is the principal.
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

type Row = Record<string, unknown>;
interface PushAnswer {
  applied: number;
  unchanged: number;
  conflicts: Array<{ entity: string; entity_id: string; reason: string }>;
}

describe.each(ENGINE_NAMES)('the door of a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  /** An update of a record the server holds: its row with `change`, over the version held (a well-formed base). */
  const update = async (tenant: string, entity: string, id: string, change: (r: Row) => Row | null) => {
    const held = await heldRow(server, tenant, entity, id);
    expect(held, `${entity} ${id}`).not.toBeNull();
    return { entity, entity_id: id, data: change({ ...held! }), base: versionOf(held) };
  };
  const insert = (entity: string, data: Row) => ({ entity, entity_id: String(data.id), data, base: null });
  /** Pushes `items`; expects each to come back as a conflict and nothing to change. */
  const refused = async (tenant: string, items: unknown[], reason?: RegExp) => {
    const before = await tenantState(server, tenant);
    const r = await push(url, key, tenant, items);
    expect(r.status, r.text).toBe(200);
    const body = r.body as PushAnswer;
    expect(body.applied, r.text).toBe(0);
    expect(body.conflicts).toHaveLength(items.length);
    if (reason) for (const c of body.conflicts) expect(c.reason).toMatch(reason);
    expect(await tenantState(server, tenant)).toBe(before);
    return body.conflicts;
  };

  async function trainingOf(tenant: string) {
    const t = { tenant, actor: 'sam' };
    const m = await server.training.createModule({
      ...t,
      body: {
        module_code: 'DSGVO-01',
        title: 'Datenschutz',
        regulation_area: 'dsgvo',
        frequency_type: 'annual',
        questions: [{ question: 'Was ist personenbezogen?', options: ['Name', 'Wetter'], correct_index: 0 }],
      },
    });
    await server.training.setMatrix({ ...t, body: { role_code: 'R9', module_id: m.id } });
    const user = { user_id: 'u-1', user_name: 'Erika', user_email: 'erika@example.com', roles: ['R9'] };
    await server.training.compute({ ...t, body: user });
    const [a] = await server.training.listAssignments({ tenant, query: { user_id: 'u-1' } });
    return { module: m, assignment: a! };
  }

  it('item 1: a media record cannot point the media store at a file outside it, nor at another tenant’s', async () => {
    const { module } = await trainingOf('files');
    const other = await trainingOf('files-other');
    const row = (id: string, o: Row = {}) => ({
      id,
      tenant_id: 'files',
      module_id: module.id,
      content_id: null,
      kind: 'audio',
      bucket: 'training-media',
      object_key: `${mediaFolder('files')}/${module.id}/${id}.m4a`,
      content_type: 'audio/mp4',
      size_bytes: 5,
      duration_seconds: 1,
      status: 'draft',
      created_at: new Date().toISOString(),
      published_at: null,
      ...o,
    });
    // the medium of the other tenant, stored as the server stores it
    const theirs = '01970000-0000-7000-8000-0000000000f1';
    const theirRow = {
      ...row(theirs),
      size_bytes: Buffer.byteLength('their secret bytes'),
      tenant_id: 'files-other',
      module_id: other.module.id,
      object_key: `${mediaFolder('files-other')}/${other.module.id}/${theirs}.m4a`,
    };
    expect(
      ((await push(url, key, 'files-other', [insert('training_media', theirRow)])).body as PushAnswer).applied,
    ).toBe(1);
    const sent = await call(url, 'POST', `/sync/media/${theirs}`, {
      key,
      tenant: 'files-other',
      raw: 'their secret bytes',
      type: 'audio/mp4',
    });
    expect(sent.status).toBe(200);

    const passwd = '01970000-0000-7000-8000-0000000000a1';
    const stolen = '01970000-0000-7000-8000-0000000000a2';
    const escape = '01970000-0000-7000-8000-0000000000a3';
    const outside = join(tmp(), 'written-by-a-client');
    const conflicts = await refused(
      'files',
      [
        insert('training_media', row(passwd, { bucket: '../../../../../../../etc', object_key: 'passwd' })),
        insert('training_media', row(stolen, { object_key: theirRow.object_key })),
        insert('training_media', row(escape, { bucket: '..', object_key: `../../../../../../..${outside}` })),
      ],
      /its location is the store's to choose: bucket training-media, object_key /,
    );
    expect(conflicts.map((c) => c.entity_id)).toEqual([passwd, stolen, escape]);
    for (const id of [passwd, stolen, escape]) {
      const got = await call(url, 'GET', `/training/media/${id}/download`, { key, tenant: 'files' });
      expect(got.status).toBe(404);
      expect(got.text).not.toContain('root:');
      expect(got.text).not.toContain('their secret');
      const upload = await call(url, 'POST', `/sync/media/${id}`, {
        key,
        tenant: 'files',
        raw: 'x',
        type: 'audio/mp4',
      });
      expect(upload.status).toBe(404);
    }
    expect(existsSync(outside)).toBe(false);
    // a legitimate medium: its file goes where the store decides, and comes back
    const mine = '01970000-0000-7000-8000-0000000000a4';
    const mineRow = row(mine, { size_bytes: Buffer.byteLength('my bytes') });
    expect(((await push(url, key, 'files', [insert('training_media', mineRow)])).body as PushAnswer).applied).toBe(1);
    expect(
      (await call(url, 'POST', `/sync/media/${mine}`, { key, tenant: 'files', raw: 'my bytes', type: 'audio/mp4' }))
        .status,
    ).toBe(200);
    const back = await call(url, 'GET', `/training/media/${mine}/download`, { key, tenant: 'files' });
    expect([back.status, back.text]).toEqual([200, 'my bytes']);
    // a medium's file is written once: the same bytes again (a retried push) are taken, other bytes are a conflict
    const upload = (id: string, raw: string) =>
      call(url, 'POST', `/sync/media/${id}`, { key, tenant: 'files', raw, type: 'audio/mp4' });
    expect((await upload(mine, 'my bytes')).status).toBe(200);
    const swapped = await upload(mine, 'my bytez');
    expect([swapped.status, (swapped.body as { code: string; error: string }).code]).toEqual([409, 'conflict']);
    expect((swapped.body as { error: string }).error).toContain('is stored already, with other bytes');
    expect((await call(url, 'GET', `/training/media/${mine}/download`, { key, tenant: 'files' })).text).toBe(
      'my bytes',
    );
    // and exactly as large as its record says: fewer bytes, or more, store nothing (422)
    for (const [id, raw, says] of [
      ['01970000-0000-7000-8000-0000000000a6', 'tiny', 'has 4 bytes, its record says 8 (size_bytes)'],
      [
        '01970000-0000-7000-8000-0000000000a7',
        'far more than eight bytes',
        'is larger than the 8 bytes its record says (size_bytes)',
      ],
    ] as const) {
      const pushed = await push(url, key, 'files', [insert('training_media', row(id, { size_bytes: 8 }))]);
      expect((pushed.body as PushAnswer).applied).toBe(1);
      const sent = await upload(id, raw);
      expect([sent.status, (sent.body as { error: string }).error]).toEqual([422, `the file of media ${id} ${says}`]);
      expect((await call(url, 'GET', `/training/media/${id}/download`, { key, tenant: 'files' })).status).toBe(404);
    }
    // a record whose file never came is a 404, on either engine, not a 500
    const empty = '01970000-0000-7000-8000-0000000000a5';
    expect(((await push(url, key, 'files', [insert('training_media', row(empty))])).body as PushAnswer).applied).toBe(
      1,
    );
    const none = await call(url, 'GET', `/training/media/${empty}/download`, { key, tenant: 'files' });
    expect(none.status).toBe(404);
    expect((none.body as { error?: { message?: string } }).error?.message ?? none.text).toContain(
      'not in the media store',
    );
    // the other tenant's file is where it was, and only theirs
    const their = await call(url, 'GET', `/training/media/${theirs}/download`, { key, tenant: 'files-other' });
    expect(their.text).toBe('their secret bytes');
    if (engine === 'sqlite') expect(readFileSync('/etc/passwd', 'utf8')).toContain('root:');
    await expectIntact(server, 'files');
  });

  it('item 2: history stays as written and every change keeps the rules of its operation', async () => {
    const tenant = 'history';
    const t = { tenant, actor: 'sam' };
    const d = await server.dsfa.create({ ...t, body: { title: 'Kamera' } });
    await server.dsfa.update({ ...t, params: { id: d.id }, body: { description: 'Eingang' } });
    const [entry] = await server.dsfa.auditLog({ tenant, query: { dsfa_id: d.id } });
    const c = await server.consents.create({ ...t, body: { user_id: 'u1', data_point_id: 'news', granted: true } });
    await server.consents.revoke({ ...t, params: { id: c.id } });
    const revokedEntry = (await server.consents.history({ tenant, params: { id: c.id } })).find(
      (h) => h.action === 'revoked',
    )!;
    const { module, assignment } = await trainingOf(tenant);
    expect((await server.training.escalate({ ...t, body: { as_of: at(62), dry_run: false } })).escalated).toBe(1);
    const doc = await server.legalDocuments.create({ ...t, body: { title: 'DSE', document_type: 'privacy_policy' } });
    const v = await server.legalDocuments.addVersion({
      ...t,
      params: { id: doc.id },
      body: { title: 'DSE', content: 'Text' },
    });
    await server.training.start({ ...t, params: { id: assignment.id } });

    const attempts: Array<[string, unknown[], RegExp]> = [
      [
        'an audit entry edited: forged approver, dated 2019',
        [
          await update(tenant, 'dsfa_audit', entry!.id, (r) => ({
            ...r,
            changed_by: 'forged-dpo',
            created_at: '2019-01-01T00:00:00.000',
          })),
        ],
        /dsfa_audit is history, written once and never changed/,
      ],
      [
        'an audit entry back-dated to 2019',
        [
          insert('dsfa_audit', {
            ...entry,
            id: 'forged-1',
            old_values: '{}',
            new_values: '{"status":"approved"}',
            created_at: '2019-01-01T00:00:00.000',
          }),
        ],
        /is dated 2019-01-01T00:00:00.000, before DSFA/,
      ],
      [
        'an audit entry deleted',
        [await update(tenant, 'dsfa_audit', entry!.id, () => null)],
        /dsfa_audit records are never deleted/,
      ],
      [
        'a revoked consent lifted, its history entry removed',
        [
          await update(tenant, 'consent', c.id, (r) => ({ ...r, revoked_at: null })),
          await update(tenant, 'consent_history', revokedEntry.id, () => null),
        ],
        /stays revoked|history is append-only/,
      ],
      [
        'a passed quiz attempt forged, the assignment completed back-dated',
        [
          insert('training_quiz_attempt', {
            id: 'forged-attempt',
            tenant_id: tenant,
            assignment_id: assignment.id,
            module_id: module.id,
            score: 100,
            passed: 1,
            correct_count: 1,
            total_count: 1,
            threshold: 70,
            answers: JSON.stringify([{ question_id: module.questions[0]!.id, selected_index: 1 }]),
            duration_seconds: null,
            created_at: new Date().toISOString(),
          }),
          await update(tenant, 'training_assignment', assignment.id, (r) => ({
            ...r,
            status: 'completed',
            progress_percent: 100,
            quiz_passed: 1,
            completed_at: '2023-01-01T00:00:00.000Z',
            valid_until: '2024-01-01T00:00:00.000Z',
          })),
        ],
        /not what its answers score|completed_at lies before|without a passed attempt/,
      ],
      [
        'a draft version published without review',
        [
          await update(tenant, 'legal_document_version', v.id, (r) => ({
            ...r,
            status: 'published',
            published_at: new Date().toISOString(),
          })),
        ],
        /never approved/,
      ],
      [
        'a second open assignment spelled PENDING',
        [
          insert('training_assignment', {
            ...(await heldRow(server, tenant, 'training_assignment', assignment.id))!,
            id: 'second',
            status: 'PENDING',
            started_at: null,
          }),
        ],
        /"PENDING" is not allowed/,
      ],
      [
        'an escalation level lowered from 3 to 0',
        [await update(tenant, 'training_assignment', assignment.id, (r) => ({ ...r, escalation_level: 0 }))],
        /never goes down/,
      ],
    ];
    for (const [what, items, reason] of attempts) {
      const conflicts = await refused(tenant, items);
      expect(conflicts.map((x) => x.reason).join('; '), what).toMatch(reason);
    }
    expect((await server.training.getAssignment({ tenant, params: { id: assignment.id } })).escalation_level).toBe(3);
    const stats = await server.training.stats({ tenant });
    expect(stats.avg_completion_days).toBeGreaterThanOrEqual(0);
    await expectIntact(server, tenant);
  });

  it('item 3: a pushed row is validated like a request body; what it names must be the tenant’s', async () => {
    const tenant = 'bodies';
    const t = { tenant, actor: 'sam' };
    const d = await server.dsfa.create({ ...t, body: { title: 'Kamera' } });
    const { assignment } = await trainingOf(tenant);
    await refused(
      tenant,
      [await update(tenant, 'dsfa', d.id, (r) => ({ ...r, data_categories: 'not json' }))],
      /data_categories: must be JSON text/,
    );
    await refused(
      tenant,
      [await update(tenant, 'dsfa', d.id, (r) => ({ ...r, status: 'hacked' }))],
      /status: "hacked" is not allowed; allowed values: draft, in-review, approved, needs-update/,
    );
    await refused(tenant, [await update(tenant, 'dsfa', d.id, (r) => ({ ...r, title: { $gt: '' } }))], /title: /);
    const twice = JSON.stringify([
      { measure: 'Schulung', implemented: true },
      { measure: 'Schulung', implemented: false },
    ]);
    await refused(
      tenant,
      [await update(tenant, 'dsfa', d.id, (r) => ({ ...r, measure_details: twice }))],
      /measure_details\.1\.measure: "Schulung" is listed twice/,
    );
    const row = (await heldRow(server, tenant, 'training_assignment', assignment.id))!;
    await refused(
      tenant,
      [insert('training_assignment', { ...row, id: 'dangling', user_id: 'u-2', module_id: 'no-such-module' })],
      /names training_module no-such-module \(module_id\), which this tenant does not hold/,
    );
    await refused(
      tenant,
      [insert('training_assignment', { ...row, id: 'nulled', user_id: 'u-3', module_id: null })],
      /module_id: /,
    );
    await refused(
      tenant,
      [
        insert('legal_document_version', {
          id: 'v-x',
          tenant_id: tenant,
          document_id: 'no-doc',
          version_number: 1,
          title: 'x',
          content: 'x',
          change_summary: null,
          status: 'draft',
          created_by: null,
          approved_by: null,
          approved_at: null,
          comment: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
          published_at: null,
        }),
      ],
      /names legal_document no-doc/,
    );
    // the tenant still reads and lists as before
    expect((await call(url, 'GET', '/dsfa', { key, tenant })).status).toBe(200);
    expect((await server.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera');
  });

  it('item 4: who pushed is the key, whatever replica id the client names; the replica is the origin', async () => {
    const tenant = 'who';
    const before = (await journalAfter(server, tenant)).length;
    const dsfa = {
      id: '01970000-0000-7000-8000-0000000000b1',
      tenant_id: tenant,
      title: 'Offline',
      description: '',
      status: 'draft',
      risk_level: 'medium',
      processing_activity: '',
      data_categories: '[]',
      recipients: '[]',
      measures: '[]',
      approved_by: null,
      approved_at: null,
      created_by: 'lea',
      created_at: new Date().toISOString().slice(0, -1),
      updated_at: new Date().toISOString().slice(0, -1),
      ai_use_case_modules: '[]',
      controller: null,
      purposes: null,
      data_subjects: null,
      necessity_assessment: null,
      risks: null,
      measure_details: null,
      dpo_opinion: null,
      dpo_name: null,
      dpo_opinion_date: null,
      review_date: null,
    };
    const r = await push(url, key, tenant, [insert('dsfa', dsfa)], 'key-abc-NOT');
    expect((r.body as PushAnswer).applied, r.text).toBe(1);
    const [e] = (await journalAfter(server, tenant)).slice(before);
    expect(e).toMatchObject({ entity: 'dsfa', principal: `key:${key.split('_')[1]}`, origin: 'sync:key-abc-NOT' });
    await expectIntact(server, tenant);
  });

  it('item 5: another tenant’s record is out of reach of a push, by id or by key', async () => {
    const c = await server.consents.create({
      tenant: 'globex',
      actor: 'sam',
      body: { user_id: 'g1', data_point_id: 'news', granted: true },
    });
    const [theirs] = await server.consents.history({ tenant: 'globex', params: { id: c.id } });
    const globex = await tenantState(server, 'globex');
    const mine = await server.consents.create({
      tenant: 'acme',
      actor: 'sam',
      body: { user_id: 'a1', data_point_id: 'news', granted: true },
    });
    // a history entry with globex's id, on acme's consent: the id is taken
    const forged = {
      ...theirs!,
      tenant_id: 'acme',
      consent_id: mine.id,
      action: 'renewed',
      created_at: new Date().toISOString(),
      import_run_id: null,
    };
    const conflicts = await refused('acme', [insert('consent_history', forged)], /the id is taken/);
    expect(conflicts).toHaveLength(1);
    // and a row named as globex's is never written
    await refused(
      'acme',
      [insert('consent_history', { ...forged, id: 'x-1', tenant_id: 'globex' })],
      /belongs to tenant globex, not acme/,
    );
    expect(await tenantState(server, 'globex')).toBe(globex);
    await expectIntact(server, 'globex');
  });

  it('item 9: a push with an unknown or missing column or a record twice is a 4xx or a conflict, never a 500', async () => {
    const tenant = 'shapes';
    const d = await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Kamera' } });
    await refused(
      tenant,
      [await update(tenant, 'dsfa', d.id, (r) => ({ ...r, owner: 'mallory' }))],
      /unknown field\(s\): owner/,
    );
    await refused(tenant, [await update(tenant, 'dsfa', d.id, ({ title: _t, ...r }) => r)], /title: missing/);
    await refused(tenant, [insert('no_such_table', { id: 'x' })], /no_such_table records do not travel/);
    // a deletion of a record no key names: nothing to delete
    const malformed = await push(url, key, tenant, [
      { entity: 'training_matrix', entity_id: 'not json', data: null, base: null },
    ]);
    expect([malformed.status, (malformed.body as PushAnswer).applied]).toEqual([200, 0]);
    const twice = await update(tenant, 'dsfa', d.id, (r) => ({ ...r, title: 'Zweimal' }));
    const r = await push(url, key, tenant, [twice, twice]);
    expect(r.status).toBe(422);
    expect(r.text).toContain('is pushed twice');
    expect((await server.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera');
  });
});
