import { describe, expect, it } from 'vitest';
import { BUNDLE_SIDES, exclusiveClaim, mergeBreaks, ruleField } from '../../src/domain/sync/merge-rules.js';

// The rules of one record a merge keeps, case by case (issue 35): each rule binds its own table only, either side
// may be missing (a record deleted there), and a revoked consent is renewed on neither side.
const R = '2026-05-01T00:00:00.000Z';
const consent = (revoked_at: string | null, consent_version = '1.0') => ({
  id: 'c1',
  granted: 1,
  revoked_at,
  consent_version,
});

describe('mergeBreaks: a revoked consent stays revoked, whatever side is missing', () => {
  it.each([
    ['revoked on both sides, kept revoked', consent(R), consent(R), consent(R)],
    ['revoked here, the server left it as agreed, kept revoked', consent(R), consent(R), consent(null)],
    ['in force on both sides', consent(null), consent(null), consent(null)],
    ['deleted here, in force there', consent(null), null, consent(null)],
    ['in force here, deleted on the server', consent(null), consent(null), null],
    ['revoked, deleted here', consent(R), null, consent(R)],
    ['revoked, deleted on the server', consent(R), consent(R), null],
    // both revoked, at two versions: no renewal after a revocation on either side
    ['revoked on both sides at two versions', consent(R, '2.0'), consent(R), consent(R, '2.0')],
    ['revoked on both sides at two versions, the other taken', consent(R), consent(R), consent(R, '2.0')],
    // neither side revoked: a merge that revokes breaks no rule of the record
    ['revoked by the merge at the version here', consent(R), consent(null), consent(null, '2.0')],
    ['revoked by the merge at the version there', consent(R, '2.0'), consent(null), consent(null, '2.0')],
  ])('%s', (_, result, ours, theirs) => {
    expect(mergeBreaks('consent', result, ours, theirs)).toBeNull();
  });

  it('a consent deleted here and revoked on the server stays revoked', () => {
    expect(mergeBreaks('consent', consent(null), null, consent(R))).toBe(
      'consent c1 is revoked on the server and stays revoked',
    );
  });

  it('revoked at one version on both sides, renewed to another by a choice of fields: the version it was revoked at', () => {
    expect(mergeBreaks('consent', consent(R, '2.0'), consent(R), consent(null))).toBeNull();
    expect(mergeBreaks('consent', consent(R, '3.0'), consent(R), consent(null))).toBeNull();
  });

  it('renewed here and revoked on the server: it stays revoked at the server’s version', () => {
    const message =
      'consent c1 is revoked on the server at version 1.0 and renewed here to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: the revocation on the server stands and the renewal here cannot follow it, so the conflict stays open (docs/sync.md, "Merged history")';
    expect(mergeBreaks('consent', consent(R, '2.0'), consent(null, '2.0'), consent(R))).toBe(message);
    expect(mergeBreaks('consent', consent(R), consent(null, '2.0'), consent(R))).toBeNull();
  });

  it('the rules of consents bind consents only', () => {
    const row = (revoked_at: string | null, consent_version: string) => ({ id: 'x', revoked_at, consent_version });
    expect(mergeBreaks('legal_document_version', row(null, '1.0'), row(R, '1.0'), row(null, '1.0'))).toBeNull();
    expect(mergeBreaks('legal_document_version', row(R, '1.0'), row(R, '1.0'), row(null, '2.0'))).toBeNull();
    expect(mergeBreaks('legal_document_version', row(null, '2.0'), row(R, '1.0'), row(null, '2.0'))).toBeNull();
    expect(mergeBreaks('legal_document_version', row(R, '2.0'), row(R, '1.0'), row(null, '2.0'))).toBeNull();
  });

  it('names the sides as the caller does: here, and the bundle', () => {
    expect(mergeBreaks('consent', consent(null), consent(R), consent(null), BUNDLE_SIDES)).toBe(
      'consent c1 is revoked here and stays revoked',
    );
    expect(mergeBreaks('consent', consent(R, '2.0'), consent(R), consent(null, '2.0'), BUNDLE_SIDES)).toBe(
      'consent c1 is revoked here at version 1.0 and renewed in the bundle to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: to end the renewal, revoke the consent in the store the bundle came from too and export it again (a new decision, not a merge)',
    );
    expect(mergeBreaks('consent', consent(R, '2.0'), consent(null, '2.0'), consent(R), BUNDLE_SIDES)).toBe(
      'consent c1 is revoked in the bundle at version 1.0 and renewed here to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: the revocation in the bundle stands and the renewal here cannot follow it, so the conflict stays open (docs/sync.md, "Merged history")',
    );
  });
});

describe('mergeBreaks: an escalation level never goes down, on assignments only', () => {
  const assignment = (escalation_level: number | null) => ({ id: 'a1', escalation_level });
  it('a missing level counts as 0, a missing side as none', () => {
    expect(mergeBreaks('training_assignment', assignment(null), assignment(0), assignment(null))).toBeNull();
    expect(mergeBreaks('training_assignment', assignment(0), null, null)).toBeNull();
    expect(mergeBreaks('training_assignment', assignment(null), assignment(1), null)).toBe(
      'the escalation level of assignment a1 never goes down: it is 1 here, not 0',
    );
  });

  it('binds no other table', () => {
    const row = (escalation_level: number) => ({ id: 'x', escalation_level });
    expect(mergeBreaks('dsfa', row(0), row(2), row(1))).toBeNull();
    expect(
      mergeBreaks(
        'consent',
        { ...consent(null), escalation_level: 0 },
        { ...consent(null), escalation_level: 1 },
        consent(null),
      ),
    ).toBeNull();
  });
});

describe('ruleField: the field a table’s rule of one record is about', () => {
  it.each([
    ['consent', 'revoked_at'],
    ['training_assignment', 'escalation_level'],
    ['dsfa', undefined],
    ['legal_document_version', undefined],
  ])('%s: %s', (entity, field) => {
    expect(ruleField(entity)).toBe(field);
  });
});

describe('exclusiveClaim: what only one record of a tenant may hold', () => {
  const claimOf = (entity: string, row: Record<string, unknown> | null) => {
    const c = exclusiveClaim(entity, row);
    return c && { claim: c.claim, taken: c.taken('other-1') };
  };

  it.each([
    [
      'training_assignment',
      { status: 'pending', user_id: 'u7', module_id: 'm1' },
      { claim: 'open u7 m1', taken: 'user u7 already has an open assignment other-1 of this module' },
    ],
    [
      'training_assignment',
      { status: 'in_progress', user_id: 'u7', module_id: 'm1' },
      { claim: 'open u7 m1', taken: 'user u7 already has an open assignment other-1 of this module' },
    ],
    ['training_assignment', { status: 'completed', user_id: 'u7', module_id: 'm1' }, null],
    [
      'legal_document_version',
      { status: 'published', document_id: 'd1' },
      { claim: 'published d1', taken: 'document d1 already has a published version other-1' },
    ],
    ['legal_document_version', { status: 'draft', document_id: 'd1' }, null],
    // the same columns on another table claim nothing
    ['dsfa', { status: 'published', document_id: 'd1' }, null],
    ['legal_document', { status: 'pending', user_id: 'u7', module_id: 'm1' }, null],
    ['training_assignment', null, null],
  ])('%s %j', (entity, row, expected) => {
    expect(claimOf(entity, row)).toEqual(expected);
  });
});
