import { describe, expect, it } from 'vitest';
import { evidenceProblem, reachable } from '../../src/domain/legal-documents/legal-document.row-rules.js';
import { refusal, refusals, rows, T0, T1, T2 } from '../support/sync-rows.js';

// A legal document's versions at the door: the workflow draft → review → approved → published → archived, each
// status with the facts it needs (an approval, a publication), one version per number, facts kept once set.
const held = { legal_document: [rows.legal_document()] };
const v = rows.legal_document_version;
const published = (o: Record<string, unknown> = {}) =>
  v({ status: 'published', approved_by: 'bob', approved_at: T1, published_at: T2, updated_at: T2, ...o });

describe('the workflow of a version', () => {
  it('leads only forward, and back from review to draft', () => {
    const to = (from: string) =>
      ['draft', 'review', 'approved', 'published', 'archived'].filter((s) => reachable(from, s));
    expect(to('draft')).toEqual(['draft', 'review', 'approved', 'published', 'archived']);
    expect(to('review')).toEqual(['draft', 'review', 'approved', 'published', 'archived']);
    expect(to('approved')).toEqual(['approved', 'published', 'archived']);
    expect(to('published')).toEqual(['published', 'archived']);
    expect(to('archived')).toEqual(['archived']);
    expect(reachable('hacked', 'draft')).toBe(false);
  });

  it('holds the facts of its status', () => {
    expect(evidenceProblem(v())).toBeNull();
    expect(evidenceProblem(published())).toBeNull();
    expect(evidenceProblem(published({ status: 'archived' }))).toBeNull();
    expect(evidenceProblem(v({ status: 'approved', approved_at: T1 }))).toBeNull();
    expect(evidenceProblem(v({ status: 'published', published_at: T2 }))).toBe(
      'it is published but was never approved (approved_at)',
    );
    expect(evidenceProblem(v({ status: 'review', approved_at: T1 }))).toBe('it is review but carries an approval');
    expect(evidenceProblem(v({ status: 'approved', approved_at: T1, published_at: T2 }))).toBe(
      'it is approved but carries published_at',
    );
    expect(evidenceProblem(published({ published_at: null }))).toBe(
      'it is published but was never published (published_at)',
    );
    expect(evidenceProblem(published({ approved_at: '2026-04-01T00:00:00Z' }))).toBe(
      'approved_at lies before created_at',
    );
    expect(evidenceProblem(published({ published_at: T0 }))).toBe('published_at lies before approved_at');
  });
});

describe('a version at the door', () => {
  it('published offline (submitted, approved, published) arrives at once', async () => {
    expect(await refusal(held, { entity: 'legal_document_version', before: v(), after: published() })).toBeUndefined();
    expect(await refusal(held, { entity: 'legal_document_version', before: null, after: published() })).toBeUndefined();
  });

  it('refuses a draft published without an approval, and a step back', async () => {
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: v(),
        after: v({ status: 'published', published_at: T2 }),
      }),
    ).toBe('version v1: it is published but was never approved (approved_at)');
    expect(
      await refusal(held, { entity: 'legal_document_version', before: published(), after: v({ updated_at: T2 }) }),
    ).toBe(
      'version v1 is published: the workflow (draft → review → approved → published → archived) does not lead to draft',
    );
  });

  it('keeps its text, its approval and its publication once they are there', async () => {
    expect(await refusal(held, { entity: 'legal_document_version', before: v(), after: v({ content: 'Neu' }) })).toBe(
      'legal_document_version v1 cannot change content: it is fixed once the record is written',
    );
    const approved = v({ status: 'approved', approved_by: 'bob', approved_at: T1 });
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: approved,
        after: published({ approved_by: 'eve' }),
      }),
    ).toBe(`version v1 was approved at ${T1}: its approval no longer changes`);
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: approved,
        after: published({ approved_at: '2026-05-11T10:00:00.000Z' }),
      }),
    ).toBe(`version v1 was approved at ${T1}: its approval no longer changes`);
    expect(
      await refusal(held, { entity: 'legal_document_version', before: approved, after: published() }),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: published(),
        after: published({ status: 'archived', published_at: '2026-05-21T10:00:00.000Z' }),
      }),
    ).toBe(`version v1 was published at ${T2}: its publication no longer changes`);
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: published(),
        after: published({ status: 'archived' }),
      }),
    ).toBeUndefined();
    // a review sent back keeps no approval it never had
    const review = v({ status: 'review' });
    expect(
      await refusal(held, { entity: 'legal_document_version', before: review, after: v({ comment: 'nein' }) }),
    ).toBeUndefined();
  });

  it('one version per number of a document; times in order; a document of the tenant', async () => {
    const other = v({ id: 'v2' });
    expect(
      await refusal(
        { ...held, legal_document_version: [v()] },
        { entity: 'legal_document_version', before: null, after: other },
      ),
    ).toBe('document doc1 already has a version 1 (v1)');
    expect(
      await refusal(
        { ...held, legal_document_version: [v()] },
        { entity: 'legal_document_version', before: null, after: v({ id: 'v2', version_number: 2 }) },
      ),
    ).toBeUndefined();
    expect(
      await refusal(held, {
        entity: 'legal_document_version',
        before: null,
        after: v({ updated_at: '2026-04-01T00:00:00Z' }),
      }),
    ).toBe('version v1: updated_at lies before created_at');
    expect(await refusal({}, { entity: 'legal_document_version', before: null, after: v() })).toBe(
      'legal_document_version v1 names legal_document doc1 (document_id), which this tenant does not hold',
    );
  });
});

describe('a legal document at the door', () => {
  it('stays published, keeps its title and type, and is dated after its creation', async () => {
    const d = rows.legal_document();
    const pub = { ...d, status: 'published', updated_at: T1 };
    expect(await refusal({}, { entity: 'legal_document', before: d, after: pub })).toBeUndefined();
    expect(await refusal({}, { entity: 'legal_document', before: pub, after: d })).toBe(
      'legal document doc1 is published and stays published',
    );
    expect(await refusal({}, { entity: 'legal_document', before: d, after: { ...d, document_type: 'terms' } })).toBe(
      'legal_document doc1 cannot change document_type: it is fixed once the record is written',
    );
    expect(
      await refusal(
        {},
        { entity: 'legal_document', before: null, after: { ...d, updated_at: '2026-04-01T00:00:00Z' } },
      ),
    ).toBe('legal document doc1: updated_at lies before created_at');
    expect(await refusals({}, [{ entity: 'legal_document', before: d, after: null }])).toEqual({
      'legal_document doc1': 'legal_document doc1 cannot be deleted: legal_document records are never deleted',
    });
  });
});
