import { describe, expect, it } from 'vitest';
import { supersededGrants, type StoredDecision } from '../../src/domain/consents/consent.rules.js';

// How a merge (a sync, a bundle) keeps one decision in force per user and data point (issue 36, item 1): the rule
// reads only the decisions, so both sides of a sync settle them alike.
const T = (m: number) => new Date(Date.UTC(2026, 5, 1, 12, m)).toISOString();

function decision(id: string, granted: boolean, at: number, more: Partial<StoredDecision> = {}): StoredDecision {
  return {
    id,
    granted,
    granted_at: T(at),
    revoked_at: null,
    consent_version: '1.0',
    affirmations: granted ? [{ at: T(at), consent_version: '1.0' }] : [],
    banner_revision: null,
    policy_version_id: null,
    policy_content_hash: null,
    ...more,
  };
}

describe('the grants a merge of decisions revokes', () => {
  it.each<[string, StoredDecision[], ReturnType<typeof supersededGrants>]>([
    ['nothing held', [], []],
    ['one grant', [decision('g', true, 1)], []],
    ['a grant after a refusal stands', [decision('r', false, 1), decision('g', true, 2)], []],
    [
      'a refusal after a grant revokes it at its time',
      [decision('g', true, 1), decision('r', false, 2)],
      [{ consent_id: 'g', at: T(2), by: 'r' }],
    ],
    [
      'a refusal at the instant of the grant revokes it',
      [decision('g', true, 1), decision('r', false, 1)],
      [{ consent_id: 'g', at: T(1), by: 'r' }],
    ],
    [
      'the first refusal after the grant is the one that revokes it',
      [decision('r2', false, 5), decision('g', true, 1), decision('r1', false, 3), decision('r0', false, 0)],
      [{ consent_id: 'g', at: T(3), by: 'r1' }],
    ],
    [
      'of two refusals at one instant, the smaller id',
      [decision('g', true, 1), decision('rb', false, 3), decision('ra', false, 3)],
      [{ consent_id: 'g', at: T(3), by: 'ra' }],
    ],
    [
      'a grant revoked already is left alone',
      [decision('g', true, 1, { revoked_at: T(2) }), decision('r', false, 3)],
      [],
    ],
    [
      'a renewal after the refusal keeps the grant',
      [
        decision('g', true, 1, {
          affirmations: [
            { at: T(1), consent_version: '1.0' },
            { at: T(4), consent_version: '2.0' },
          ],
        }),
        decision('r', false, 3),
      ],
      [],
    ],
    [
      'two grants: the later stands, the earlier is revoked when the later was given',
      [decision('b', true, 2), decision('a', true, 1)],
      [{ consent_id: 'a', at: T(2), by: 'b' }],
    ],
    [
      'two grants at one instant: the greater id stands',
      [decision('a', true, 1), decision('b', true, 1)],
      [{ consent_id: 'a', at: T(1), by: 'b' }],
    ],
    [
      'two grants and a refusal between them: the refusal revokes the first, the second stands',
      [decision('a', true, 1), decision('r', false, 2), decision('b', true, 3)],
      [{ consent_id: 'a', at: T(2), by: 'r' }],
    ],
    [
      'two grants and a refusal after both: both revoked by it',
      [decision('a', true, 1), decision('b', true, 2), decision('r', false, 3)],
      [
        { consent_id: 'b', at: T(3), by: 'r' },
        { consent_id: 'a', at: T(3), by: 'r' },
      ],
    ],
    [
      'two grants: the later stands, whatever their ids say',
      [decision('b', true, 1), decision('a', true, 2)],
      [{ consent_id: 'b', at: T(2), by: 'a' }],
    ],
    [
      'the first refusal in time revokes, whatever the ids say',
      [decision('g', true, 1), decision('a', false, 5), decision('b', false, 3)],
      [{ consent_id: 'g', at: T(3), by: 'b' }],
    ],
    [
      'a grant given after every refusal stands',
      [decision('r', false, 1), decision('g', true, 2, { revoked_at: null }), decision('h', true, 0)],
      [{ consent_id: 'h', at: T(1), by: 'r' }],
    ],
  ])('%s', (_, stored, expected) => {
    // the stored order is the engine's and means nothing
    expect(supersededGrants(stored)).toEqual(expected);
    expect(supersededGrants([...stored].reverse())).toEqual(expected);
  });

  it('settles to nothing once its revocations are written', () => {
    const stored = [decision('a', true, 1), decision('b', true, 2), decision('r', false, 0)];
    const after = stored.map((c) => {
      const s = supersededGrants(stored).find((x) => x.consent_id === c.id);
      return s ? { ...c, revoked_at: s.at } : c;
    });
    expect(supersededGrants(after)).toEqual([]);
  });
});
