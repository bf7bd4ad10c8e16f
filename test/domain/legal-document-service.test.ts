import { describe, expect, it } from 'vitest';
import { fixedClock, type Clock } from '../../src/domain/clock.js';
import type { DomainError } from '../../src/domain/errors.js';
import type { Transition, Version } from '../../src/domain/legal-documents/legal-document.schema.js';
import { LegalDocumentService } from '../../src/domain/legal-documents/legal-document.service.js';
import type { LegalDocumentStore } from '../../src/domain/legal-documents/legal-document-store.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { sqliteUnitOfWork, withStore, wrapWrites } from '../support/unit-of-work.js';

const CREATED = '2026-03-01T09:00:00.000Z';
const LATER = '2026-03-02T10:30:00.000Z';

/**
 * A unit of work on a fresh SQLite file whose legal-document store records the documents it locks. `afterLock` runs
 * inside the lock's transaction, on the store of that transaction: what another replica wrote while this one waited.
 */
async function sqliteStore(clock: Clock) {
  // its own ids for the journal's transactions, so the service's ids are id-1, id-2, …
  const { uow } = await sqliteUnitOfWork(clock, uuidv7Source());
  const locked: string[] = [];
  const hooks: {
    afterLock?: (s: LegalDocumentStore) => Promise<void>;
    /** What the store's list of versions becomes, in every transaction. */
    listed?: (versions: Version[]) => Version[];
  } = {};
  const recording = (inner: LegalDocumentStore): LegalDocumentStore => {
    const s = Object.create(inner) as LegalDocumentStore;
    s.lockDocument = async (tenant, id) => {
      locked.push(id);
      const found = await inner.lockDocument(tenant, id);
      await hooks.afterLock?.(s);
      return found;
    };
    s.versions = async (tenant, documentId) => {
      const list = await inner.versions(tenant, documentId);
      return hooks.listed ? hooks.listed(list) : list;
    };
    return s;
  };
  const recorded: UnitOfWork = {
    read: withStore(uow.read, 'legalDocuments', recording(uow.read.legalDocuments)),
    write: wrapWrites(uow, (tx) => withStore(tx, 'legalDocuments', recording(tx.legalDocuments))).write,
  };
  return { uow: recorded, store: recorded.read.legalDocuments, locked, hooks };
}

async function setup() {
  let now = CREATED;
  let n = 0;
  const clock = { now: () => fixedClock(now).now() };
  const ids = { next: () => `id-${++n}` };
  const m = await sqliteStore(clock);
  const svc = new LegalDocumentService(m.uow, clock, ids);
  const stored = async (id: string) => ({
    document: await m.store.get('kanzlei', id),
    version: await m.store.getVersion('kanzlei', id),
  });
  return { ...m, svc, stored, at: (t: string) => (now = t) };
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
  const s = await setup();
  const d = await s.svc.create('kanzlei', { title: 'DSE', document_type: 'privacy_policy', language: 'de' });
  const v = await s.svc.addVersion('kanzlei', 'editor', d.id, { title: 'v', content: 'x' });
  for (const t of steps) await s.svc.transition('kanzlei', 'editor', v.id, t, { comment: 'ok' });
  return { ...s, d, v };
}

describe('LegalDocumentService', () => {
  it('creates a draft document stamped with the clock and stores it', async () => {
    const { svc, stored } = await setup();
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
    expect((await stored('id-1')).document).toEqual(d);
    expect(await svc.get('kanzlei', 'id-1')).toEqual(d);
    expect(await svc.list('kanzlei', {})).toEqual([d]);
  });

  it('names what it cannot find', async () => {
    const { svc } = await setup();
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
    const { svc, stored, at, locked } = await setup();
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
    expect((await stored(d.id)).document!.updated_at).toBe(LATER);
    // versions of one document are numbered in turns: the document is locked first
    expect(locked).toEqual([d.id]);
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
    const { svc, hooks } = await setup();
    const d = await svc.create('kanzlei', { title: 'DSE', document_type: 'privacy_policy', language: 'de' });
    hooks.listed = (versions) => [...versions].reverse();
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
    const { svc, stored, v, at } = await versionAfter([...before]);
    at(LATER);
    const next = await svc.transition('kanzlei', 'editor', v.id, t, { comment: 'Kontakt fehlt' });
    expect(next).toMatchObject({ status, updated_at: LATER });
    expect((await stored(v.id)).version).toEqual(next);
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
    const { svc, stored, v } = await versionAfter([...before]);
    const unchanged = (await stored(v.id)).version;
    expect(await rejection(svc.transition('kanzlei', 'editor', v.id, t))).toMatchObject({
      code: 'conflict',
      message: msg,
    });
    expect((await stored(v.id)).version).toEqual(unchanged);
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
    const { svc, stored, d, v: v1, at, locked } = await versionAfter(['submit', 'approve', 'publish']);
    const v2 = await svc.addVersion('kanzlei', 'e', d.id, { title: 'v2', content: 'y' });
    const v3 = await svc.addVersion('kanzlei', 'e', d.id, { title: 'v3', content: 'z' });
    await svc.transition('kanzlei', 'e', v3.id, 'submit');
    await svc.transition('kanzlei', 'e', v3.id, 'approve');
    at(LATER);
    locked.length = 0;
    const p = await svc.transition('kanzlei', 'e', v3.id, 'publish');
    expect(p).toMatchObject({ status: 'published', published_at: LATER, updated_at: LATER });
    expect(locked).toEqual([d.id]);
    const after = await Promise.all([v1, v2, v3].map(async (v) => (await stored(v.id)).version!));
    expect(after.map((v) => [v.status, v.updated_at])).toEqual([
      ['archived', LATER],
      ['draft', v2.updated_at],
      ['published', LATER],
    ]);
    expect((await stored(d.id)).document).toMatchObject({ status: 'published', updated_at: LATER });
  });

  it('publishing reads the version again once it holds the document, and refuses what another publish took', async () => {
    const { svc, hooks, v } = await versionAfter(['submit', 'approve']);
    // another replica publishes the same version while this one waits for the lock
    hooks.afterLock = async (s) => {
      const current = (await s.getVersion('kanzlei', v.id))!;
      await s.updateVersion('kanzlei', { ...current, status: 'published' });
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
