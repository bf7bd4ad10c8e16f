import { describe, expect, it } from 'vitest';
import {
  decideImportRow,
  equalsStored,
  type ImportRowState,
  type StoredMatch,
} from '../../src/domain/consents/import-match.js';

const G = '2026-01-01T10:00:00.000Z';
const R = '2026-03-01T10:00:00.000Z';
const stored = (o: Partial<StoredMatch> = {}): StoredMatch => ({
  id: 'c1',
  granted_at: G,
  revoked_at: null,
  source: 'shop',
  ip_address: '10.0.0.1',
  user_agent: 'UA',
  ...o,
});
const row = (o: Partial<ImportRowState> = {}): ImportRowState => ({
  granted_at: G,
  revoked_at: null,
  source: 'shop',
  ip_address: '10.0.0.1',
  user_agent: 'UA',
  ...o,
});

/** docs/consents.md, Bulk import: what a row that matches a stored consent does. */
describe('an import row against the consents it matches', () => {
  it.each([
    ['the same consent', row(), [stored()], { kind: 'unchanged' }],
    [
      'values the row leaves empty say nothing',
      row({ source: null, ip_address: null, user_agent: null }),
      [stored()],
      { kind: 'unchanged' },
    ],
    ['the same revocation', row({ revoked_at: R }), [stored({ revoked_at: R })], { kind: 'unchanged' }],
    [
      'an equal one among several',
      row({ granted_at: null }),
      [stored({ revoked_at: R }), stored({ id: 'c2' })],
      { kind: 'unchanged' },
    ],
    ['now revoked', row({ revoked_at: R }), [stored()], { kind: 'revoke', consent_id: 'c1' }],
    ['revoked when granted', row({ revoked_at: G }), [stored()], { kind: 'revoke', consent_id: 'c1' }],
    [
      'revoked, the active one among a revoked one',
      row({ granted_at: null, revoked_at: R }),
      [stored({ id: 'c0', revoked_at: '2026-02-01T00:00:00.000Z' }), stored()],
      { kind: 'revoke', consent_id: 'c1' },
    ],
  ] as const)('%s: %j', (_name, r, matches, expected) => {
    expect(decideImportRow(r, [...matches])).toEqual(expected);
  });

  it.each([
    [
      'would undo a revocation',
      row(),
      [stored({ revoked_at: R })],
      `revoked_at: consent c1 was revoked at ${R} and a revocation cannot be undone; the row says it is active (give revoked_at ${R} to match it)`,
    ],
    [
      'another revocation time',
      row({ revoked_at: '2026-04-01T00:00:00.000Z' }),
      [stored({ revoked_at: R })],
      `revoked_at: consent c1 was revoked at ${R}, the row says 2026-04-01T00:00:00.000Z`,
    ],
    ['another source', row({ source: 'crm' }), [stored()], 'source: consent c1 has "shop", the row says "crm"'],
    [
      'an IP address where none is stored, and another user agent',
      row({ ip_address: '10.0.0.2', user_agent: 'Other' }),
      [stored({ ip_address: null })],
      'ip_address: consent c1 has none, the row says "10.0.0.2"; user_agent: consent c1 has "UA", the row says "Other"',
    ],
    [
      'revoked, but with another source: no revocation',
      row({ revoked_at: R, source: 'crm' }),
      [stored()],
      'source: consent c1 has "shop", the row says "crm"',
    ],
    [
      'revoked before the stored consent was granted',
      row({ granted_at: null, revoked_at: '2025-12-01T00:00:00.000Z' }),
      [stored()],
      `revoked_at: 2025-12-01T00:00:00.000Z is before granted_at ${G} of consent c1`,
    ],
    [
      'without granted_at, against several that differ',
      row({ granted_at: null }),
      [stored({ revoked_at: R }), stored({ id: 'c2', revoked_at: R })],
      `revoked_at: consent c1 was revoked at ${R} and a revocation cannot be undone; the row says it is active (give revoked_at ${R} to match it) (the row has no granted_at and matches 2 consents; the first is shown)`,
    ],
    [
      'revoked without granted_at, and several active ones it could revoke',
      row({ granted_at: null, revoked_at: R }),
      [stored(), stored({ id: 'c2', granted_at: '2026-02-01T00:00:00.000Z' })],
      `granted_at: the row matches 2 active consents of this user and data point (c1 granted at ${G}, c2 granted at 2026-02-01T00:00:00.000Z); give granted_at to say which one it revokes`,
    ],
  ] as const)('refuses a row that %s', (_name, r, matches, reason) => {
    expect(decideImportRow(r, [...matches])).toEqual({ kind: 'refuse', reason });
  });

  it('calls equal only the same revocation and the values the row gives', () => {
    expect(equalsStored(row({ revoked_at: R }), stored())).toBe(false);
    expect(equalsStored(row(), stored({ revoked_at: R }))).toBe(false);
    expect(equalsStored(row({ user_agent: null }), stored({ user_agent: 'x' }))).toBe(true);
    expect(equalsStored(row({ user_agent: 'x' }), stored({ user_agent: null }))).toBe(false);
  });
});
