import { describe, expect, it } from 'vitest';
import { conflictFields, sameContent, unionOf } from '../../src/domain/sync/conflict-fields.js';
import { mergeByField } from '../../src/domain/sync/field-merge.js';
import { mergeBreaks } from '../../src/domain/sync/merge-rules.js';

const dsfa = (over: Record<string, unknown>) => ({
  id: 'd1',
  tenant_id: 't',
  title: 'Kamera',
  measures: '["A"]',
  updated_at: '2026-01-01T10:00:00.000',
  ...over,
});

describe('the fields of a sync conflict', () => {
  it.each([
    [
      'updated_at is never a field to choose',
      dsfa({ title: 'X', updated_at: '2026-02-01T00:00:00.000' }),
      dsfa({}),
      ['title'],
    ],
    [
      'a deletion against an edit: what the edit changed since the agreed version',
      dsfa({ title: 'X' }),
      null,
      ['title'],
    ],
  ])('%s', (_, ours, theirs, fields) => {
    expect(conflictFields('dsfa', ours, theirs, dsfa({}))).toEqual(fields);
  });

  it('a deletion without the agreed version: the content, never id or tenant_id', () => {
    expect(conflictFields('dsfa', null, dsfa({}))).toEqual(['measures', 'title']);
  });

  it('the same content but for updated_at is the same', () => {
    expect(sameContent('dsfa', dsfa({}), dsfa({ updated_at: '2026-03-01T00:00:00.000' }))).toBe(true);
    expect(sameContent('dsfa', dsfa({}), null)).toBe(false);
  });

  it('a list merges into the union, this side first, equal items once', () => {
    expect(unionOf('dsfa', 'measures', '["A","L"]', '["A","S"]')).toBe('["A","L","S"]');
    expect(unionOf('dsfa', 'measures', null, null)).toBeNull();
  });

  it('both is for list fields; a mixed record takes the later updated_at', () => {
    const c = {
      entity: 'dsfa',
      entity_id: 'd1',
      ours: dsfa({ title: 'L', measures: '["A","L"]', updated_at: '2026-02-01T00:00:00.000' }),
      theirs: dsfa({ title: 'S', measures: '["A","S"]', updated_at: '2026-03-01T00:00:00.000' }),
      fields: ['measures', 'title'],
    };
    expect(() => mergeByField(c, { side: 'ours', fields: { title: 'both' } })).toThrow(/only a list field/);
    expect(() => mergeByField(c, { side: 'ours', fields: { updated_at: 'theirs' } })).toThrow(
      /updated_at is bookkeeping/,
    );
    const { row } = mergeByField(c, { side: 'ours', fields: { measures: 'both' } });
    expect(row).toMatchObject({ title: 'L', measures: '["A","L","S"]', updated_at: '2026-03-01T00:00:00.000' });
    // every field from one side: that side's version whole
    expect(mergeByField(c, { side: 'ours', fields: { title: 'ours' } }).row).toEqual(c.ours);
  });
});

describe('merged consents', () => {
  const consent = (over: Record<string, unknown>) => ({ id: 'c1', consent_version: '1.0', revoked_at: null, ...over });
  const revoked = consent({ revoked_at: '2026-01-02T00:00:00Z' });
  const renewed = consent({ consent_version: '2.0' });
  it.each([
    ['revoked at 1.0 then renewed to 2.0', { ...renewed, revoked_at: revoked.revoked_at }, /both cannot hold/],
    ['the renewal whole lifts the revocation', renewed, /stays revoked/],
    ['the revocation whole keeps it', revoked, null],
  ])('%s', (_, result, rule) => {
    const found = mergeBreaks('consent', result, revoked, renewed);
    if (rule) expect(found).toMatch(rule);
    else expect(found).toBeNull();
  });
});
