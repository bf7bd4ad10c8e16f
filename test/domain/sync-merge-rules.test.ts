import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { mergeByField } from '../../src/domain/sync/field-merge.js';
import { BUNDLE_SIDES, mergeBreaks, wholeSideBreaks, withRule } from '../../src/domain/sync/merge-rules.js';

const consent = (revoked_at: string | null, consent_version = '1.0') => ({
  id: 'c1',
  granted: 1,
  revoked_at,
  consent_version,
});
const assignment = (escalation_level: number, user_name = 'Erika') => ({ id: 'a1', escalation_level, user_name });
const R = '2026-05-01T00:00:00.000Z';

describe('mergeBreaks: the rules of one record a merge keeps', () => {
  it.each([
    ['consent', consent(null), consent(R), consent(null), 'consent c1 is revoked here and stays revoked'],
    ['consent', consent(null), consent(null), consent(R), 'consent c1 is revoked on the server and stays revoked'],
    // revoked at 1.0 and renewed to 2.0: never "revoked, then renewed" (issue 36 item 5)
    [
      'consent',
      consent(R, '2.0'),
      consent(R),
      consent(null, '2.0'),
      'consent c1 is revoked here at version 1.0 and renewed on the server to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: to end the renewal, revoke the consent on the server too (a new decision, not a merge)',
    ],
    ['consent', consent(null, '2.0'), consent(null), consent(null, '2.0'), null],
    ['consent', null, consent(R), null, null], // a deletion breaks no rule of a record
    [
      'training_assignment',
      assignment(0),
      assignment(1),
      assignment(0),
      'the escalation level of assignment a1 never goes down: it is 1 here, not 0',
    ],
    [
      'training_assignment',
      assignment(1),
      assignment(1),
      assignment(2),
      'the escalation level of assignment a1 never goes down: it is 2 on the server, not 1',
    ],
    ['training_assignment', assignment(2, 'x'), assignment(1), assignment(2), null],
    ['training_assignment', assignment(0, 'x'), null, assignment(0), null],
    ['dsfa', { id: 'd', title: 'x' }, { id: 'd', title: 'y' }, { id: 'd', title: 'z' }, null],
  ])('%s: %j from %j and %j', (entity, result, ours, theirs, expected) => {
    expect(mergeBreaks(entity, result, ours, theirs)).toBe(expected);
  });

  it('names the sides as the caller does (a bundle)', () => {
    expect(mergeBreaks('consent', consent(null), consent(null), consent(R), BUNDLE_SIDES)).toBe(
      'consent c1 is revoked in the bundle and stays revoked',
    );
  });

  it('says which rule taking one side whole breaks, and adds it to a conflict reason once', () => {
    expect(wholeSideBreaks('training_assignment', assignment(1), assignment(0, 'y'))).toContain('it is 1 here');
    expect(wholeSideBreaks('training_assignment', assignment(0), assignment(2, 'y'))).toContain('2 on the server');
    expect(wholeSideBreaks('training_assignment', assignment(1, 'x'), assignment(1, 'y'))).toBeNull();
    const reason = withRule('changed on both sides', 'consent', consent(R), consent(null, '2.0'));
    expect(reason).toBe(
      'changed on both sides; consent c1 is revoked here at version 1.0 and renewed on the server to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: to end the renewal, revoke the consent on the server too (a new decision, not a merge)',
    );
    // revoked on one side, changed otherwise on the other at the same version: the revocation stays
    expect(withRule('changed', 'consent', consent(R), consent(null))).toBe(
      'changed; consent c1 is revoked here and stays revoked',
    );
    expect(withRule('changed', 'consent', consent(null), consent(R), BUNDLE_SIDES)).toBe(
      'changed; consent c1 is revoked in the bundle and stays revoked',
    );
    expect(withRule(reason, 'consent', consent(R), consent(null, '2.0'))).toBe(reason);
  });
});

describe('mergeByField: the record a choice of fields makes', () => {
  const c = {
    entity: 'dsfa',
    entity_id: 'd1',
    ours: { id: 'd1', title: 'A', description: 'a', updated_at: '2026-01-01T00:00:01' },
    theirs: { id: 'd1', title: 'B', description: 'b', updated_at: '2026-01-01T00:00:02' },
    fields: ['description', 'title', 'updated_at'],
  };
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      return e as DomainError;
    }
    throw new Error('expected a refusal');
  };

  it('takes named fields from their side and the rest from the side given', () => {
    expect(mergeByField(c, { side: 'theirs', fields: { title: 'ours' } })).toEqual({
      row: { id: 'd1', title: 'A', description: 'b', updated_at: '2026-01-01T00:00:02' },
      from: { title: 'ours', description: 'theirs' },
    });
    // updated_at is nobody's choice: a record of both versions takes the later
    expect(mergeByField(c, { fields: { title: 'theirs', description: 'ours' } }).row).toEqual({
      id: 'd1',
      title: 'B',
      description: 'a',
      updated_at: '2026-01-01T00:00:02',
    });
  });

  it('refuses an unknown field, a side that is neither, missing fields without a side, and a deletion', () => {
    const unknown = refusal(() => mergeByField(c, { side: 'ours', fields: { titel: 'ours' } }));
    expect(unknown).toMatchObject({ code: 'validation', details: [{ path: '--field' }] });
    expect(unknown.message).toBe(
      '--field titel: dsfa has no field titel; the fields that differ: description, title, updated_at',
    );
    expect(refusal(() => mergeByField(c, { side: 'ours', fields: { title: 'mine' } })).message).toContain(
      'one of ours, theirs',
    );
    expect(refusal(() => mergeByField(c, { fields: { title: 'ours' } })).message).toContain('missing: description');
    expect(
      refusal(() => mergeByField({ ...c, theirs: null }, { side: 'ours', fields: { title: 'ours' } })).message,
    ).toContain('deleted on the other side');
  });
});
