import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { importBundle } from '../../src/backend/sync/bundle.js';
import { exportBundle } from '../../src/backend/sync/bundle-export.js';
import { systemClock } from '../../src/domain/clock.js';
import { DomainError } from '../../src/domain/errors.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { ENGINE_NAMES, freshStore, startServer, tmp } from '../support/helpers.js';
import {
  call,
  expectIntact,
  heldRow,
  mediaFolder,
  push,
  fingerprints,
  type Fingerprint,
  tenantRecords,
  versionOf,
  type Answer,
} from '../support/hostile.js';

/**
 * The doors half of issue 35's hostile-key suite: a holder of a valid key of each scope (read, write, admin,
 * publishable) tries every attack of items 1 to 5 and more against the doors that take records (sync push, the media
 * upload, CSV import) on a real server over each engine, and an operator imports forged bundles. After every attempt
 * the tenant's records and journal are as before (a CSV import records its run, and only that), the other tenant's
 * are untouched, nothing answered 5xx, and `audit verify` holds for both. The counts go to the test output (and to
 * reports/hostile-doors-ENGINE.json) for the closing note; the routes half (every API route with each scope) is
 * another suite's.
 */
const ACME = 'acme';
const GLOBEX = 'globex';
type Scope = 'read' | 'write' | 'admin' | 'publishable';
type Row = Record<string, unknown>;
type Door = 'sync push' | 'media upload' | 'CSV import' | 'bundle import' | 'tenant';

describe.each(ENGINE_NAMES)('a hostile holder of a valid key against the doors of a server on %s', (engine) => {
  let target: string;
  let server: LocalBackend;
  let url: string;
  let close: () => Promise<void>;
  const keys = {} as Record<Scope | 'globex', string>;
  const tally = { attempts: 0, refused: 0, answered5xx: 0, byDoor: {} as Record<string, number> };
  const ids = {} as Record<string, string>;

  beforeAll(async () => {
    target = await freshStore(engine);
    server = await createLocalBackend(target);
    const srv = await startServer(server);
    url = srv.url;
    close = async () => {
      await srv.close();
      await server.close();
    };
    const k = await server.keys();
    for (const scope of ['read', 'write', 'admin'] as const)
      keys[scope] = (await k.create({ name: scope, scope, tenants: [ACME] })).key;
    keys.publishable = (
      await k.create({ name: 'banner', scope: 'publishable', tenants: [ACME], origins: ['https://shop.example'] })
    ).key;
    keys.globex = (await k.create({ name: 'globex', scope: 'admin', tenants: [GLOBEX] })).key;
    await arrange();
  }, 120_000);

  afterAll(async () => {
    const line = `hostile doors on ${engine}: ${tally.attempts} attempts, ${tally.refused} refused, ${tally.answered5xx} answered 5xx (${Object.entries(
      tally.byDoor,
    )
      .map(([d, n]) => `${d} ${n}`)
      .join(', ')})`;
    console.log(line);
    const { mkdirSync } = await import('node:fs');
    mkdirSync('reports', { recursive: true });
    writeFileSync(`reports/hostile-doors-${engine}.json`, JSON.stringify({ engine, ...tally, line }, null, 2) + '\n');
    await close?.();
  });

  /** Each tenant's records: a module with a quiz and an escalated assignment, a revoked consent, DSFAs, a draft version, a medium. */
  async function arrange() {
    const t = (tenant: string) => ({ tenant, actor: 'sam' });
    await server.dsfa.updateSettings({ ...t(ACME), body: { workflow: 'strict' } });
    for (const tenant of [ACME, GLOBEX]) {
      const m = await server.training.createModule({
        ...t(tenant),
        body: {
          module_code: 'DSGVO-01',
          title: 'Datenschutz',
          regulation_area: 'dsgvo',
          frequency_type: 'annual',
          questions: [{ question: 'Was ist personenbezogen?', options: ['Name', 'Wetter'], correct_index: 0 }],
        },
      });
      await server.training.setMatrix({ ...t(tenant), body: { role_code: 'R9', module_id: m.id } });
      await server.training.compute({
        ...t(tenant),
        body: { user_id: 'u-1', user_name: 'Erika', user_email: 'erika@example.com', roles: ['R9'], deadline_days: 1 },
      });
      const [a] = await server.training.listAssignments({ tenant, query: { user_id: 'u-1' } });
      await server.training.escalate({
        ...t(tenant),
        body: { as_of: new Date(Date.now() + 40 * 86_400_000).toISOString(), dry_run: false },
      });
      await server.training.start({ ...t(tenant), params: { id: a!.id } });
      const c = await server.consents.create({
        ...t(tenant),
        body: { user_id: 'c-1', data_point_id: 'news', granted: true },
      });
      await server.consents.revoke({ ...t(tenant), params: { id: c.id } });
      const d = await server.dsfa.create({ ...t(tenant), body: { title: 'Kamera' } });
      await server.dsfa.update({ ...t(tenant), params: { id: d.id }, body: { description: 'Eingang' } });
      const doc = await server.legalDocuments.create({
        ...t(tenant),
        body: { title: 'DSE', document_type: 'privacy_policy' },
      });
      const v = await server.legalDocuments.addVersion({
        ...t(tenant),
        params: { id: doc.id },
        body: { title: 'DSE', content: 'Text' },
      });
      const medium = `01970000-0000-7000-8000-${tenant === ACME ? '00000000a001' : '00000000b001'}`;
      const media = mediaRow(tenant, m.id, medium, { size_bytes: Buffer.byteLength(`${tenant} secret`) });
      const key = tenant === ACME ? keys.admin : keys.globex;
      expect(
        (
          (await push(url, key, tenant, [{ entity: 'training_media', entity_id: medium, data: media, base: null }]))
            .body as { applied: number }
        ).applied,
      ).toBe(1);
      expect(
        (await call(url, 'POST', `/sync/media/${medium}`, { key, tenant, raw: `${tenant} secret`, type: 'audio/mp4' }))
          .status,
      ).toBe(200);
      const history = await server.consents.history({ tenant, params: { id: c.id } });
      const [audit] = await server.dsfa.auditLog({ tenant, query: { dsfa_id: d.id } });
      Object.assign(ids, {
        [`${tenant}.module`]: m.id,
        [`${tenant}.question`]: m.questions[0]!.id,
        [`${tenant}.assignment`]: a!.id,
        [`${tenant}.consent`]: c.id,
        [`${tenant}.granted`]: history.find((h) => h.action === 'granted')!.id,
        [`${tenant}.revoked`]: history.find((h) => h.action === 'revoked')!.id,
        [`${tenant}.dsfa`]: d.id,
        [`${tenant}.audit`]: audit!.id,
        [`${tenant}.document`]: doc.id,
        [`${tenant}.version`]: v.id,
        [`${tenant}.medium`]: medium,
      });
    }
    const second = await server.training.createModule({
      ...t(ACME),
      body: { module_code: 'NIS2-01', title: 'NIS2', regulation_area: 'nis2', frequency_type: 'annual' },
    });
    ids['acme.module2'] = second.id;
    const review = await server.dsfa.create({
      tenant: ACME,
      actor: 'lea',
      body: { title: 'Zeiterfassung', created_by: 'lea' },
    });
    await server.dsfa.setStatus({
      tenant: ACME,
      actor: 'lea',
      params: { id: review.id },
      body: { status: 'in-review' },
    });
    ids['acme.review'] = review.id;
  }

  const mediaRow = (tenant: string, module: string, id: string, o: Row = {}): Row => ({
    id,
    tenant_id: tenant,
    module_id: module,
    content_id: null,
    kind: 'audio',
    bucket: 'training-media',
    object_key: `${mediaFolder(tenant)}/${module}/${id}.m4a`,
    content_type: 'audio/mp4',
    size_bytes: 5,
    duration_seconds: 1,
    status: 'draft',
    created_at: new Date().toISOString(),
    published_at: null,
    ...o,
  });

  /** A change of a record acme holds: its row changed by `change` (null: deleted), over the version held. */
  const update = async (entity: string, id: string, change: (r: Row) => Row | null) => {
    const held = (await heldRow(server, ACME, entity, id))!;
    return { entity, entity_id: id, data: change({ ...held }), base: versionOf(held) };
  };
  const insert = (entity: string, data: Row, id = String(data.id)) => ({ entity, entity_id: id, data, base: null });
  const held = async (entity: string, id: string) => (await heldRow(server, ACME, entity, id))!;

  /**
   * The fingerprints after the last attempt, the next one's before: between two attempts of a group the test only
   * reads (a change there would be blamed on the next attempt, not missed). Each group starts afresh.
   */
  let lastPrints: Record<string, Fingerprint> | undefined;

  /**
   * One attempt: what both tenants hold before and after must be the same (for acme the tables in `mayChange` and
   * its journal excepted), no answer a 5xx, and the door refused it (`refused` says how it answered). What they hold
   * is compared by fingerprint (each table's rows hashed in one statement), which names the table that changed; the
   * whole records are compared at the ends of each group of attempts (`group`).
   */
  async function attempt(
    door: Door,
    what: string,
    run: () => Promise<Answer | Answer[]>,
    refused: (a: Answer) => boolean,
    mayChange: string[] = [],
  ) {
    const before = lastPrints ?? (await fingerprints(server, [ACME, GLOBEX]));
    lastPrints = undefined;
    let answers: Answer[];
    try {
      const a = await run();
      answers = Array.isArray(a) ? a : [a];
    } catch (e) {
      // an operator's door answers by exception: a DomainError is a refusal, anything else the 5xx of a command
      answers = [{ status: e instanceof DomainError ? 422 : 500, body: String(e), text: String(e) }];
    }
    tally.attempts++;
    tally.byDoor[door] = (tally.byDoor[door] ?? 0) + 1;
    const server5xx = answers.filter((a) => a.status >= 500);
    if (server5xx.length) tally.answered5xx++;
    const ok = answers.every(refused) && !server5xx.length;
    if (ok) tally.refused++;
    expect(
      server5xx.map((a) => a.text),
      `${door}: ${what}`,
    ).toEqual([]);
    expect(
      answers.every(refused),
      `${door}: ${what}: ${answers.map((a) => `${a.status} ${a.text.slice(0, 300)}`).join('; ')}`,
    ).toBe(true);
    const after = await fingerprints(server, [ACME, GLOBEX]);
    lastPrints = after;
    expect(after[GLOBEX], `${door}: ${what} (globex)`).toEqual(before[GLOBEX]);
    for (const [table, print] of Object.entries(after[ACME]!))
      if (table !== 'journal' && !mayChange.includes(table))
        expect(print, `${door}: ${what} (acme ${table})`).toBe(before[ACME]![table]);
    if (!mayChange.length) expect(after[ACME]!.journal, `${door}: ${what} (acme journal)`).toBe(before[ACME]!.journal);
  }

  /**
   * A group of attempts between two readings of both tenants' whole records through the replica: the same at its end
   * as at its start (for acme the tables in `mayChange`, and its journal when there are any, excepted).
   */
  async function group(name: string, mayChange: string[], run: () => Promise<void>) {
    lastPrints = undefined;
    const before = { acme: await tenantRecords(server, ACME), globex: await tenantRecords(server, GLOBEX) };
    // the fingerprints see what the replica sees: both tenants' records are there to compare
    expect(Object.values(before.globex.tables).flat().length).toBeGreaterThan(10);
    await run();
    const after = { acme: await tenantRecords(server, ACME), globex: await tenantRecords(server, GLOBEX) };
    expect(JSON.stringify(after.globex), `${name} (globex)`).toBe(JSON.stringify(before.globex));
    for (const [table, rows] of Object.entries(after.acme.tables))
      if (!mayChange.includes(table))
        expect(JSON.stringify(rows), `${name} (acme ${table})`).toBe(JSON.stringify(before.acme.tables[table]));
    if (!mayChange.length) expect(after.acme.journal, `${name} (acme journal)`).toEqual(before.acme.journal);
  }

  /** A push the door refuses: a 4xx, or every record a conflict (or already so: a deletion of nothing). */
  const pushRefused = (a: Answer) => {
    if (a.status >= 400 && a.status < 500) return true;
    const b = a.body as { applied?: number; conflicts?: unknown[] };
    return a.status === 200 && b.applied === 0;
  };
  const forbidden = (a: Answer) => a.status === 403 || a.status === 401;
  const notFound = (a: Answer) => a.status === 404 || a.status === 403 || a.status === 422;

  /** The pushes of issue 35 items 1 to 5, and more: each a list of records one push carries. */
  async function pushAttacks(): Promise<Array<[string, unknown[]]>> {
    const m = ids['acme.module']!;
    const a = ids['acme.assignment']!;
    const assignment = await held('training_assignment', a);
    const now = new Date().toISOString();
    const globexMedia = mediaRow(GLOBEX, ids['globex.module']!, ids['globex.medium']!);
    const theirHistory = (await heldRow(server, GLOBEX, 'consent_history', ids['globex.granted']!))!;
    const version = (await held('legal_document_version', ids['acme.version']!))!;
    const dsfa = await held('dsfa', ids['acme.dsfa']!);
    const audit = await held('dsfa_audit', ids['acme.audit']!);
    const m1 = '01970000-0000-7000-8000-00000000c001';
    return [
      [
        'media row pointing at /etc/passwd',
        [insert('training_media', mediaRow(ACME, m, m1, { bucket: '../../../../../../../etc', object_key: 'passwd' }))],
      ],
      [
        'media row pointing at globex’s file',
        [insert('training_media', mediaRow(ACME, m, m1, { object_key: globexMedia.object_key }))],
      ],
      [
        'media row pointing outside the store',
        [
          insert(
            'training_media',
            mediaRow(ACME, m, m1, { bucket: '..', object_key: '../../../../../../../tmp/evil' }),
          ),
        ],
      ],
      ['media row with the module id ../../..', [insert('training_media', mediaRow(ACME, '../../..', m1))]],
      ['media row of a kind that is no kind', [insert('training_media', mediaRow(ACME, m, m1, { kind: 'text' }))]],
      [
        'media location of an existing medium moved',
        [await update('training_media', ids['acme.medium']!, (r) => ({ ...r, bucket: '/etc', object_key: 'shadow' }))],
      ],
      [
        'audit entry edited: forged approver, 2019',
        [
          await update('dsfa_audit', ids['acme.audit']!, (r) => ({
            ...r,
            changed_by: 'forged-dpo',
            created_at: '2019-01-01T00:00:00.000',
          })),
        ],
      ],
      [
        'audit entry inserted, back-dated to 2019',
        [insert('dsfa_audit', { ...audit, id: 'forged-audit', created_at: '2019-06-01T00:00:00.000' })],
      ],
      ['audit entry deleted', [await update('dsfa_audit', ids['acme.audit']!, () => null)]],
      [
        'audit entry dated in the future',
        [insert('dsfa_audit', { ...audit, id: 'future-audit', created_at: '2099-01-01T00:00:00.000' })],
      ],
      [
        'revocation lifted, its history entry deleted',
        [
          await update('consent', ids['acme.consent']!, (r) => ({ ...r, revoked_at: null })),
          await update('consent_history', ids['acme.revoked']!, () => null),
        ],
      ],
      [
        'revocation moved to another time',
        [await update('consent', ids['acme.consent']!, (r) => ({ ...r, revoked_at: now }))],
      ],
      [
        'consent turned from given to refused',
        [await update('consent', ids['acme.consent']!, (r) => ({ ...r, granted: 0, revoked_at: null }))],
      ],
      [
        'consent history entry edited',
        [
          await update('consent_history', ids['acme.granted']!, (r) => ({
            ...r,
            created_at: '2019-01-01T00:00:00.000Z',
          })),
        ],
      ],
      [
        'consent history entry back-dated before the consent',
        [
          insert('consent_history', {
            ...(await held('consent_history', ids['acme.revoked']!)),
            id: 'forged-h',
            created_at: '2019-01-01T00:00:00.000Z',
          }),
        ],
      ],
      ['consent deleted', [await update('consent', ids['acme.consent']!, () => null)]],
      [
        'passing quiz attempt forged with a wrong answer',
        [
          insert('training_quiz_attempt', {
            id: 'forged-attempt',
            tenant_id: ACME,
            assignment_id: a,
            module_id: m,
            score: 100,
            passed: 1,
            correct_count: 1,
            total_count: 1,
            threshold: 70,
            answers: JSON.stringify([{ question_id: ids['acme.question'], selected_index: 1 }]),
            duration_seconds: null,
            created_at: now,
          }),
        ],
      ],
      [
        'passing quiz attempt at threshold 0',
        [
          insert('training_quiz_attempt', {
            id: 'low-bar',
            tenant_id: ACME,
            assignment_id: a,
            module_id: m,
            score: 0,
            passed: 1,
            correct_count: 0,
            total_count: 1,
            threshold: 0,
            answers: JSON.stringify([{ question_id: ids['acme.question'], selected_index: 1 }]),
            duration_seconds: null,
            created_at: now,
          }),
        ],
      ],
      [
        'assignment completed with a back-dated completed_at',
        [
          await update('training_assignment', a, (r) => ({
            ...r,
            status: 'completed',
            progress_percent: 100,
            completed_at: '2023-01-01T00:00:00.000Z',
            valid_until: '2024-01-01T00:00:00.000Z',
          })),
        ],
      ],
      [
        'quiz marked passed without an attempt',
        [await update('training_assignment', a, (r) => ({ ...r, quiz_passed: 1 }))],
      ],
      [
        'escalation level lowered from 3 to 0',
        [await update('training_assignment', a, (r) => ({ ...r, escalation_level: 0 }))],
      ],
      [
        'assignment back to pending',
        [await update('training_assignment', a, (r) => ({ ...r, status: 'pending', started_at: null }))],
      ],
      [
        'second open assignment spelled PENDING',
        [insert('training_assignment', { ...assignment, id: 'second', status: 'PENDING', started_at: null })],
      ],
      [
        'second open assignment of the same user and module',
        [
          insert('training_assignment', {
            ...assignment,
            id: 'second',
            status: 'pending',
            started_at: null,
            escalation_level: 0,
          }),
        ],
      ],
      [
        'assignment with a dangling module id',
        [insert('training_assignment', { ...assignment, id: 'dangling', user_id: 'u-9', module_id: 'no-such-module' })],
      ],
      [
        'assignment of globex’s module',
        [
          insert('training_assignment', {
            ...assignment,
            id: 'cross',
            user_id: 'u-9',
            module_id: ids['globex.module'],
          }),
        ],
      ],
      [
        'certificate of an assignment in progress',
        [
          insert('training_certificate', {
            id: 'cert-x',
            tenant_id: ACME,
            assignment_id: a,
            user_id: 'u-1',
            user_name: 'Erika',
            module_id: m,
            module_code: 'DSGVO-01',
            module_title: 'Datenschutz',
            score: 100,
            issued_at: now,
            valid_until: '2030-01-01T00:00:00.000Z',
            signature: 'a'.repeat(64),
          }),
        ],
      ],
      ['module deleted that has an assignment', [await update('training_module', m, () => null)]],
      [
        'module taking another module’s code',
        [await update('training_module', ids['acme.module2']!, (r) => ({ ...r, module_code: 'DSGVO-01' }))],
      ],
      [
        'matrix row for a role that is none',
        [
          insert(
            'training_matrix',
            { tenant_id: ACME, role_code: 'R99', module_id: m, is_mandatory: 0, priority: 5, created_at: now },
            JSON.stringify(['R99', m]),
          ),
        ],
      ],
      [
        'draft legal version published without review',
        [
          await update('legal_document_version', ids['acme.version']!, (r) => ({
            ...r,
            status: 'published',
            published_at: now,
          })),
        ],
      ],
      ['second version 1 of the document', [insert('legal_document_version', { ...version, id: 'v-second' })]],
      [
        'legal version of no document',
        [insert('legal_document_version', { ...version, id: 'v-orphan', document_id: 'no-doc', version_number: 7 })],
      ],
      ['legal document deleted', [await update('legal_document', ids['acme.document']!, () => null)]],
      [
        'DSFA categories that are not JSON',
        [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, data_categories: 'not json' }))],
      ],
      ['DSFA status hacked', [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, status: 'hacked' }))]],
      ['DSFA title as an object', [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, title: { $ne: null } }))]],
      [
        'DSFA approved by its author under the strict workflow',
        [
          await update('dsfa', ids['acme.review']!, (r) => ({
            ...r,
            status: 'approved',
            approved_by: 'lea',
            approved_at: now.slice(0, -1),
            updated_at: now.slice(0, -1),
          })),
        ],
      ],
      [
        'DSFA draft approved in one jump under the strict workflow',
        [
          await update('dsfa', ids['acme.dsfa']!, (r) => ({
            ...r,
            status: 'approved',
            approved_by: 'bob',
            approved_at: now.slice(0, -1),
            updated_at: now.slice(0, -1),
          })),
        ],
      ],
      ['DSFA author rewritten', [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, created_by: 'mallory' }))]],
      ['workflow setting of no workflow', [await update('dsfa_setting', ACME, (r) => ({ ...r, workflow: 'none' }))]],
      [
        'banner with a required category disabled',
        [
          insert(
            'cookie_banner',
            {
              tenant_id: ACME,
              categories: JSON.stringify([{ id: 'necessary', name: 'N', isRequired: true, defaultEnabled: false }]),
              config: '{}',
              updated_at: now,
            },
            ACME,
          ),
        ],
      ],
      [
        'history entry with globex’s id',
        [
          insert('consent_history', {
            ...theirHistory,
            tenant_id: ACME,
            consent_id: ids['acme.consent'],
            action: 'renewed',
            created_at: now,
          }),
        ],
      ],
      ['row naming globex as its tenant', [insert('dsfa', { ...dsfa, id: 'globex-row', tenant_id: GLOBEX })]],
      [
        'row naming another record than its entity id',
        [{ entity: 'dsfa', entity_id: 'other-id', data: { ...dsfa, id: 'forged-id' }, base: null }],
      ],
      ['unknown column', [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, owner: 'mallory' }))]],
      ['missing column', [await update('dsfa', ids['acme.dsfa']!, ({ title: _t, ...r }) => r)]],
      [
        'column name with SQL in it',
        [await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, 'title" = 1; --': 'x' }))],
      ],
      ['table that does not travel', [insert('api_key', { id: 'k' })]],
      [
        'table named after an object’s own property',
        [insert('__proto__', { id: 'k' }), insert('constructor', { id: 'k2' })],
      ],
      [
        'composite key that is no key',
        [{ entity: 'training_matrix', entity_id: '{"not":"a key"}', data: { tenant_id: ACME }, base: null }],
      ],
    ];
  }

  const scopes: Scope[] = ['read', 'write', 'admin', 'publishable'];

  it(
    'sync push: every attack of items 1 to 5 is refused for every key, and nothing changes',
    () =>
      group('sync push', [], async () => {
        for (const scope of scopes) {
          for (const [what, items] of await pushAttacks())
            await attempt(
              'sync push',
              `${scope} key: ${what}`,
              () => push(url, keys[scope], ACME, items, 'key-evil-NOT'),
              scope === 'read' || scope === 'publishable' ? forbidden : pushRefused,
            );
          const one = await update('dsfa', ids['acme.dsfa']!, (r) => ({ ...r, title: 'Zweimal' }));
          await attempt(
            'sync push',
            `${scope} key: a record twice in one push`,
            () => push(url, keys[scope], ACME, [one, one]),
            (a) => a.status === 422 || forbidden(a),
          );
          await attempt(
            'sync push',
            `${scope} key: 1001 records`,
            () =>
              push(
                url,
                keys[scope],
                ACME,
                Array.from({ length: 1001 }, (_, i) => insert('dsfa_audit', { id: `x${i}` })),
              ),
            (a) => a.status === 422 || forbidden(a),
          );
          await attempt(
            'sync push',
            `${scope} key: a body that is no JSON`,
            () =>
              call(url, 'POST', '/sync/push', {
                key: keys[scope],
                tenant: ACME,
                raw: '{"items":',
                type: 'application/json',
              }),
            (a) => a.status === 400 || forbidden(a),
          );
          await attempt(
            'sync push',
            `${scope} key: items of the wrong shape`,
            () =>
              call(url, 'POST', '/sync/push', {
                key: keys[scope],
                tenant: ACME,
                body: { replica: '../x', items: [{ entity: 1 }] },
              }),
            (a) => a.status === 422 || a.status === 400 || forbidden(a),
          );
        }
        // acme's key against globex
        for (const [what, items] of (await pushAttacks()).slice(0, 3))
          await attempt(
            'tenant',
            `acme's admin key naming globex: ${what}`,
            () => push(url, keys.admin, GLOBEX, items),
            forbidden,
          );
        expect(existsSync('/tmp/evil')).toBe(false);
      }),
    600_000,
  );

  it(
    'media upload: no key reaches a file outside the store or another tenant’s',
    () =>
      group('media upload', [], async () => {
        const upload = (scope: Scope | 'globex', tenant: string, id: string) =>
          call(url, 'POST', `/sync/media/${encodeURIComponent(id)}`, {
            key: keys[scope],
            tenant,
            raw: 'overwritten',
            type: 'audio/mp4',
          });
        for (const scope of scopes) {
          const refusedFor = scope === 'read' || scope === 'publishable' ? forbidden : notFound;
          await attempt(
            'media upload',
            `${scope} key: globex's medium`,
            () => upload(scope, ACME, ids['globex.medium']!),
            refusedFor,
          );
          await attempt(
            'media upload',
            `${scope} key: a medium that does not exist`,
            () => upload(scope, ACME, '01970000-0000-7000-8000-00000000dead'),
            refusedFor,
          );
          await attempt(
            'media upload',
            `${scope} key: ../../etc/passwd as the id`,
            () => upload(scope, ACME, '../../../../etc/passwd'),
            refusedFor,
          );
          await attempt(
            'media upload',
            `${scope} key: a medium of acme under tenant globex`,
            () => upload(scope, GLOBEX, ids['acme.medium']!),
            (a) => forbidden(a) || notFound(a),
          );
          if (scope === 'read' || scope === 'publishable')
            await attempt(
              'media upload',
              `${scope} key: acme's own medium`,
              () => upload(scope, ACME, ids['acme.medium']!),
              forbidden,
            );
        }
        // the files are what they were
        for (const tenant of [ACME, GLOBEX]) {
          const got = await call(url, 'GET', `/training/media/${ids[`${tenant}.medium`]}/download`, {
            key: tenant === ACME ? keys.admin : keys.globex,
            tenant,
          });
          expect(got.text).toBe(`${tenant} secret`);
        }
      }),
    600_000,
  );

  it(
    'CSV import: rows that break a rule are refused, and no consent changes',
    () =>
      group('CSV import', ['consent_import_run'], async () => {
        const csv = (lines: string[]) =>
          ['user_id,data_point_id,granted,granted_at,revoked_at', ...lines].join('\n') + '\n';
        const imports: Array<[string, string]> = [
          ['a consent given in the future', csv(['u-f,news,true,2099-01-01T00:00:00Z,'])],
          ['revoked before it was given', csv(['u-r,news,true,2026-03-01T00:00:00Z,2026-01-01T00:00:00Z'])],
          ['a refusal revoked', csv(['u-x,news,false,2026-01-01T00:00:00Z,2026-02-01T00:00:00Z'])],
          ['a user id with the NUL character', csv(['u\u0000nul,news,true,2026-01-01T00:00:00Z,'])],
          ['a user id of 10,000 characters', csv([`${'u'.repeat(10_000)},news,true,2026-01-01T00:00:00Z,`])],
          ['acme’s revocation lifted by a row', csv([`c-1,news,true,,`])],
          ['a granted flag that is no boolean', csv(['u-b,news,perhaps,2026-01-01T00:00:00Z,'])],
        ];
        for (const scope of scopes)
          for (const [what, body] of imports)
            await attempt(
              'CSV import',
              `${scope} key: ${what}`,
              () =>
                call(url, 'POST', '/einwilligungen/consents/import', {
                  key: keys[scope],
                  tenant: ACME,
                  raw: body,
                  type: 'text/csv',
                }),
              (a) =>
                forbidden(a) ||
                (a.status >= 400 && a.status < 500) ||
                (a.status === 200 &&
                  (a.body as { created: number; revoked: number }).created === 0 &&
                  (a.body as { revoked: number }).revoked === 0),
              // a real import records its run, refused rows and all
              ['consent_import_run'],
            );
      }),
    600_000,
  );

  it(
    'bundle import: an operator importing a forged bundle writes none of its forged records',
    () =>
      group('bundle import', [], async () => {
        const clock = systemClock;
        const chunks: Uint8Array[] = [];
        await forTenant(ACME, async () => {
          for await (const chunk of exportBundle(server.store, server.uow, ACME, clock)) chunks.push(chunk);
        });
        const files = unzipSync(Buffer.concat(chunks));
        const forge = (edit: (parts: Record<string, Row[]>) => void, tenant = ACME) => {
          const parts: Record<string, Row[]> = {};
          for (const [path, data] of Object.entries(files))
            if (path.startsWith('records/'))
              parts[path] = strFromU8(data)
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as Row);
          edit(parts);
          const out: Record<string, Uint8Array> = {};
          const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as {
            tenant: string;
            parts: Array<{ path: string; sha256: string; bytes: number; count?: number }>;
          };
          for (const [path, data] of Object.entries(files)) if (path !== 'manifest.json') out[path] = data;
          for (const [path, list] of Object.entries(parts))
            out[path] = strToU8(list.map((r) => JSON.stringify(r) + '\n').join(''));
          manifest.tenant = tenant;
          manifest.parts = Object.entries(out).map(([path, data]) => {
            const old = manifest.parts.find((p) => p.path === path);
            return {
              path,
              sha256: createHash('sha256').update(data).digest('hex'),
              bytes: data.length,
              ...(old?.count !== undefined
                ? { count: path.startsWith('records/') ? parts[path]!.length : old.count }
                : {}),
            };
          });
          out['manifest.json'] = strToU8(JSON.stringify(manifest));
          const file = join(tmp(), 'forged.bundle');
          writeFileSync(file, zipSync(out));
          return file;
        };
        const add = (table: string, row: Row) => (p: Record<string, Row[]>) => p[`records/${table}.ndjson`]!.push(row);
        const audit = await held('dsfa_audit', ids['acme.audit']!);
        const m = ids['acme.module']!;
        const theirHistory = (await heldRow(server, GLOBEX, 'consent_history', ids['globex.granted']!))!;
        const assignment = await held('training_assignment', ids['acme.assignment']!);
        const forgeries: Array<[string, string, string?, { rename?: boolean }?]> = [
          [
            'a back-dated audit entry',
            forge(add('dsfa_audit', { ...audit, id: 'b-audit', created_at: '2019-01-01T00:00:00.000' })),
          ],
          [
            'a media row pointing at /etc/passwd, with a part beside it',
            forge((p) => {
              add(
                'training_media',
                mediaRow(ACME, m, '01970000-0000-7000-8000-00000000e001', {
                  bucket: '../../../../etc',
                  object_key: 'passwd',
                }),
              )(p);
            }),
          ],
          [
            'a history entry with globex’s id',
            forge(
              add('consent_history', {
                ...theirHistory,
                tenant_id: ACME,
                consent_id: ids['acme.consent'],
                action: 'renewed',
                created_at: new Date().toISOString(),
              }),
            ),
          ],
          [
            'a row of globex',
            forge(add('dsfa', { ...(await held('dsfa', ids['acme.dsfa']!)), id: 'b-globex', tenant_id: GLOBEX })),
          ],
          [
            'a row with an unknown column',
            forge(
              add('training_module', {
                ...(await held('training_module', m)),
                id: 'b-module',
                module_code: 'B-1',
                owner: 'x',
              }),
            ),
          ],
          [
            'an assignment of no module',
            forge(add('training_assignment', { ...assignment, id: 'b-asg', user_id: 'u-b', module_id: 'no-module' })),
          ],
          [
            'a second open assignment spelled PENDING',
            forge(add('training_assignment', { ...assignment, id: 'b-asg2', status: 'PENDING', started_at: null })),
          ],
          [
            'an existing record changed: revocation lifted',
            forge((p) => {
              const c = p['records/consent.ndjson']!.find((r) => r.id === ids['acme.consent'])!;
              c.revoked_at = null;
            }),
          ],
          ['acme’s records sent as globex’s bundle', forge(() => undefined, GLOBEX), GLOBEX],
          [
            'acme’s records renamed into globex, beside their originals',
            forge(() => undefined),
            GLOBEX,
            { rename: true },
          ],
        ];
        for (const [what, file, tenant = ACME, how = {}] of forgeries)
          await attempt(
            'bundle import',
            what,
            async () => {
              const s = await importBundle({ store: server.store, uow: server.uow, tenant, clock, ...how }, file);
              return {
                status: Object.keys(s.created).length ? 200 : 409,
                body: s,
                text: JSON.stringify(s).slice(0, 500),
              };
            },
            (a) => a.status === 409 || a.status === 422,
          );
        expect(existsSync(join(tmp(), 'passwd'))).toBe(false);
        expect(readFileSync('/etc/passwd', 'utf8')).toContain('root:');
      }),
    600_000,
  );

  it('leaves both chains intact, and every attempt refused with no 5xx', async () => {
    await expectIntact(server, ACME);
    await expectIntact(server, GLOBEX);
    expect(tally.answered5xx).toBe(0);
    expect(tally.refused).toBe(tally.attempts);
    expect(tally.attempts).toBeGreaterThan(200);
  });
});
