import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import type { DomainError } from '../../src/domain/errors.js';
import type { LegalDocument, Transition, Version } from '../../src/domain/legal-documents/legal-document.schema.js';
import { LegalDocumentService } from '../../src/domain/legal-documents/legal-document.service.js';
import type { LegalDocumentStore } from '../../src/domain/legal-documents/legal-document.store.js';

const CREATED = '2026-03-01T09:00:00.000Z';
const LATER = '2026-03-02T10:30:00.000Z';

/** A store in memory that keeps copies, so a test sees only what the service wrote back. */
function memoryStore() {
  const docs = new Map<string, LegalDocument>();
  const versions = new Map<string, Version & { tenant: string }>();
  const locked: string[] = [];
  const store: LegalDocumentStore = {
    transaction: (fn) => fn(store),
    list: async (tenant) => [...docs.values()].filter((d) => d.tenant_id === tenant),
    get: async (tenant, id) => {
      const d = docs.get(id);
      return d?.tenant_id === tenant ? { ...d } : undefined;
    },
    lockDocument: async (tenant, id) => {
      locked.push(id);
      return docs.get(id)?.tenant_id === tenant;
    },
    insert: async (d) => void docs.set(d.id, { ...d }),
    updateDocument: async (tenant, id, set) => {
      const d = docs.get(id);
      if (d?.tenant_id === tenant) docs.set(id, { ...d, ...set });
    },
    versions: async (tenant, documentId) =>
      [...versions.values()]
        .filter((v) => v.tenant === tenant && v.document_id === documentId)
        .sort((x, y) => y.version_number - x.version_number)
        .map(({ tenant: _, ...v }) => v),
    getVersion: async (tenant, id) => {
      const v = versions.get(id);
      if (v?.tenant !== tenant) return undefined;
      const { tenant: _, ...rest } = v;
      return rest;
    },
    insertVersion: async (tenant, v) => void versions.set(v.id, { ...v, tenant }),
    updateVersion: async (tenant, v) => void versions.set(v.id, { ...v, tenant }),
  };
  return { store, docs, versions, locked };
}

function setup() {
  const m = memoryStore();
  let now = CREATED;
  let n = 0;
  const clock = { now: () => fixedClock(now).now() };
  const svc = new LegalDocumentService(m.store, clock, { next: () => `id-${++n}` });
  return { ...m, svc, at: (t: string) => (now = t) };
}

const rejection = async (p: Promise<unknown>): Promise<DomainError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: DomainError) => e,
  );

/** A document with one version moved along `steps`. */
async function versionAfter(steps: Transition[]) {
  const s = setup();
  const d = await s.svc.create('kanzlei', { title: 'DSE', document_type: 'privacy_policy', language: 'de' });
  const v = await s.svc.addVersion('kanzlei', 'editor', d.id, { title: 'v', content: 'x' });
  for (const t of steps) await s.svc.transition('kanzlei', 'editor', v.id, t, { comment: 'ok' });
  return { ...s, d, v };
}

describe('LegalDocumentService', () => {
  it('creates a draft document stamped with the clock and stores it', async () => {
    const { svc, docs } = setup();
    const d = await svc.create('kanzlei', { title: 'Impressum', document_type: 'imprint', language: 'en' });
    expect(d).toEqual({
      id: 'id-1',
      tenant_id: 'kanzlei',
      title: 'Impressum',
      document_type: 'imprint',
      language: 'en',
      status: 'draft',
      created_at: CREATED,
      updated_at: CREATED,
    });
    expect(docs.get('id-1')).toEqual(d);
    expect(await svc.get('kanzlei', 'id-1')).toEqual(d);
    expect(await svc.list('kanzlei', {})).toEqual([d]);
  });

  it('names what it cannot find', async () => {
    const { svc } = setup();
    const d = await svc.create('kanzlei', { title: 'AGB', document_type: 'terms', language: 'de' });
    expect(await rejection(svc.get('andere', d.id))).toMatchObject({
      code: 'not_found',
      message: `legal document ${d.id} not found`,
    });
    expect((await rejection(svc.versions('andere', d.id))).message).toBe(`legal document ${d.id} not found`);
    expect((await rejection(svc.version('kanzlei', 'v9'))).message).toBe('version v9 not found');
    expect((await rejection(svc.addVersion('andere', 'x', d.id, { title: 't', content: 'c' }))).message).toBe(
      `legal document ${d.id} not found`,
    );
    expect((await rejection(svc.transition('kanzlei', 'x', 'v9', 'submit'))).message).toBe('version v9 not found');
  });

  it('adds a draft version numbered after the highest, records its author and touches the document', async () => {
    const { svc, docs, at } = setup();
    const d = await svc.create('kanzlei', { title: 'DSE', document_type: 'privacy_policy', language: 'de' });
    at(LATER);
    const v1 = await svc.addVersion('kanzlei', 'editor', d.id, { title: 'Erste', content: 'a\nb' });
    expect(v1).toEqual({
      id: 'id-2',
      document_id: d.id,
      version_number: 1,
      title: 'Erste',
      content: 'a\nb',
      change_summary: null,
      status: 'draft',
      created_by: 'editor',
      approved_by: null,
      approved_at: null,
      comment: null,
      created_at: LATER,
      updated_at: LATER,
      published_at: null,
    });
    expect(docs.get(d.id)!.updated_at).toBe(LATER);
    const v2 = await svc.addVersion('kanzlei', undefined, d.id, {
      title: 'Zweite',
      content: 'c',
      change_summary: 'neu',
    });
    expect(v2).toMatchObject({ version_number: 2, created_by: null, change_summary: 'neu' });
    expect((await svc.versions('kanzlei', d.id)).map((v) => v.version_number)).toEqual([2, 1]);
    expect(await svc.version('kanzlei', v2.id)).toEqual(v2);
  });

  it('numbers after the highest version even when the store lists them oldest first', async () => {
    const { svc, store } = setup();
    const d = await svc.create('kanzlei', { title: 'DSE', document_type: 'privacy_policy', language: 'de' });
    const listed = store.versions.bind(store);
    store.versions = async (t, id) => (await listed(t, id)).reverse();
    for (const n of [1, 2, 3])
      expect((await svc.addVersion('kanzlei', 'e', d.id, { title: 't', content: 'c' })).version_number).toBe(n);
  });

  it.each([
    // operation, status the version has, message
    ['submit', [], 'review'],
    ['approve', ['submit'], 'approved'],
    ['reject', ['submit'], 'draft'],
    ['publish', ['submit', 'approve'], 'published'],
  ] as const)('%s moves the version to its next status and stores it', async (t, before, status) => {
    const { svc, versions, v, at } = await versionAfter([...before]);
    at(LATER);
    const next = await svc.transition('kanzlei', 'editor', v.id, t, { comment: 'Kontakt fehlt' });
    expect(next).toMatchObject({ status, updated_at: LATER });
    const { tenant: _, ...stored } = versions.get(v.id)!;
    expect(stored).toEqual(next);
  });

  it.each([
    ['submit', ['submit'], 'cannot submit version 1 (id-2): it is review, and only a draft version can be submitted'],
    ['approve', [], 'cannot approve version 1 (id-2): it is draft, and only a review version can be approved'],
    ['reject', [], 'cannot reject version 1 (id-2): it is draft, and only a review version can be rejected'],
    [
      'publish',
      ['submit'],
      'cannot publish version 1 (id-2): it is review, and only an approved version can be published',
    ],
    [
      'publish',
      ['submit', 'approve', 'publish'],
      'cannot publish version 1 (id-2): it is published, and only an approved version can be published',
    ],
  ] as const)('refuses to %s a version in the wrong status (after %j), and changes nothing', async (t, before, msg) => {
    const { svc, versions, v } = await versionAfter([...before]);
    const stored = { ...versions.get(v.id)! };
    expect(await rejection(svc.transition('kanzlei', 'editor', v.id, t))).toMatchObject({
      code: 'conflict',
      message: msg,
    });
    expect(versions.get(v.id)).toEqual(stored);
  });

  it('records who approved and when: the approver named, else the actor, else nobody', async () => {
    const cases: Array<[{ approved_by?: string | null }, string | undefined, string | null]> = [
      [{ approved_by: 'dpo@example.com' }, 'editor', 'dpo@example.com'],
      [{}, 'editor', 'editor'],
      [{ approved_by: null }, 'editor', 'editor'],
      [{}, undefined, null],
    ];
    for (const [extra, actor, approver] of cases) {
      const { svc, v, at } = await versionAfter(['submit']);
      at(LATER);
      expect(await svc.transition('kanzlei', actor, v.id, 'approve', extra)).toMatchObject({
        approved_by: approver,
        approved_at: LATER,
        comment: null,
      });
    }
  });

  it('keeps the comment of a rejection when approving without one, and replaces it when given', async () => {
    const { svc, v } = await versionAfter([]);
    await svc.transition('kanzlei', 'e', v.id, 'submit');
    await svc.transition('kanzlei', 'e', v.id, 'reject', { comment: 'Kontakt fehlt' });
    await svc.transition('kanzlei', 'e', v.id, 'submit');
    expect((await svc.transition('kanzlei', 'e', v.id, 'approve')).comment).toBe('Kontakt fehlt');
    const other = await versionAfter(['submit']);
    expect((await other.svc.transition('kanzlei', 'e', other.v.id, 'approve', { comment: 'passt' })).comment).toBe(
      'passt',
    );
  });

  it('stores the reason of a rejection, and nothing when none is given', async () => {
    const { svc, v } = await versionAfter(['submit']);
    expect((await svc.transition('kanzlei', 'e', v.id, 'reject', { comment: 'Kontakt fehlt' })).comment).toBe(
      'Kontakt fehlt',
    );
    await svc.transition('kanzlei', 'e', v.id, 'submit');
    expect((await svc.transition('kanzlei', 'e', v.id, 'reject')).comment).toBeNull();
  });

  it('sets approval and publication fields only in their own step', async () => {
    const { svc, v, at } = await versionAfter([]);
    at(LATER);
    const steps: Array<[Transition, Partial<Version>]> = [
      ['submit', { approved_by: null, approved_at: null, comment: null, published_at: null }],
      ['approve', { approved_by: 'x', approved_at: LATER, comment: 'gut', published_at: null }],
      ['publish', { approved_by: 'x', approved_at: LATER, comment: 'gut', published_at: LATER }],
    ];
    for (const [t, fields] of steps)
      expect(await svc.transition('kanzlei', 'e', v.id, t, { approved_by: 'x', comment: 'gut' })).toMatchObject(fields);
  });

  it('publishing archives only the published version, and marks the document published', async () => {
    const { svc, versions, docs, d, v: v1, at, locked } = await versionAfter(['submit', 'approve', 'publish']);
    const v2 = await svc.addVersion('kanzlei', 'e', d.id, { title: 'v2', content: 'y' });
    const v3 = await svc.addVersion('kanzlei', 'e', d.id, { title: 'v3', content: 'z' });
    await svc.transition('kanzlei', 'e', v3.id, 'submit');
    await svc.transition('kanzlei', 'e', v3.id, 'approve');
    at(LATER);
    locked.length = 0;
    const p = await svc.transition('kanzlei', 'e', v3.id, 'publish');
    expect(p).toMatchObject({ status: 'published', published_at: LATER, updated_at: LATER });
    expect(locked).toEqual([d.id]);
    expect([v1, v2, v3].map((v) => [versions.get(v.id)!.status, versions.get(v.id)!.updated_at])).toEqual([
      ['archived', LATER],
      ['draft', v2.updated_at],
      ['published', LATER],
    ]);
    expect(docs.get(d.id)).toMatchObject({ status: 'published', updated_at: LATER });
  });

  it('publishing reads the version again once it holds the document, and refuses what another publish took', async () => {
    const { svc, store, versions, v } = await versionAfter(['submit', 'approve']);
    // another replica publishes the same version while this one waits for the lock
    const lock = store.lockDocument.bind(store);
    store.lockDocument = async (t, id) => {
      const r = await lock(t, id);
      versions.set(v.id, { ...versions.get(v.id)!, status: 'published' });
      return r;
    };
    expect((await rejection(svc.transition('kanzlei', 'e', v.id, 'publish'))).message).toMatch(/it is published/);
  });

  it('other steps than publishing take no lock on the document', async () => {
    const { svc, v, locked } = await versionAfter([]);
    locked.length = 0;
    await svc.transition('kanzlei', 'e', v.id, 'submit');
    await svc.transition('kanzlei', 'e', v.id, 'approve');
    expect(locked).toEqual([]);
  });
});
