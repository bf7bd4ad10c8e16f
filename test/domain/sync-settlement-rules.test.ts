import { describe, expect, it } from 'vitest';
import {
  BUNDLE_SIDES,
  historyKept,
  revokedBeforeRenewal,
  secondRevocation,
} from '../../src/domain/sync/merge-rules.js';

// What `sync resolve` checks before it accepts a settlement (issue 36, item 5): nothing it writes may be refused by
// the other side at the next sync.
const REVOKED = '2026-05-01T00:00:00.000Z';
const RENEWED = '2026-05-02T00:00:00.000Z';
const consent = (revoked_at: string | null, consent_version = '1.0') => ({ id: 'c1', revoked_at, consent_version });
const entry = (action: string, created_at: string, consent_id = 'c1') => ({
  id: `h-${action}`,
  consent_id,
  action,
  consent_version: '2.0',
  created_at,
});
const renewal = entry('version_update', RENEWED);

describe('revokedBeforeRenewal: a revocation the other side does not hold yet, dated before a renewal there', () => {
  it('names the renewal, its version and time, and the side', () => {
    expect(revokedBeforeRenewal('consent', consent(REVOKED), consent(null, '2.0'), [renewal])).toBe(
      `consent c1 is revoked at ${REVOKED} and was renewed on the server after (version_update to version 2.0 at ${RENEWED}): a revoked consent is not renewed and a revocation keeps its time, so this revocation is refused there`,
    );
    expect(
      revokedBeforeRenewal('consent', consent(REVOKED), consent(null), [entry('renewed', RENEWED)], BUNDLE_SIDES),
    ).toContain('was renewed in the bundle after (renewed to version 2.0');
  });

  it.each([
    ['another table', 'training_assignment', consent(REVOKED), consent(null), [renewal]],
    ['a settlement that keeps the consent in force', 'consent', consent(null), consent(null), [renewal]],
    ['a settlement that deletes the consent', 'consent', null, consent(null), [renewal]],
    ['a consent the other side does not hold', 'consent', consent(REVOKED), null, [renewal]],
    ['a revocation the other side holds at the same time', 'consent', consent(REVOKED), consent(REVOKED), [renewal]],
    ['no renewal in the history', 'consent', consent(REVOKED), consent(null), [entry('granted', RENEWED)]],
    ['a renewal of another consent', 'consent', consent(REVOKED), consent(null), [entry('renewed', RENEWED, 'c2')]],
    ['a renewal before the revocation', 'consent', consent(RENEWED), consent(null), [entry('renewed', REVOKED)]],
  ])('allows %s', (_, entity, result, theirs, history) => {
    expect(revokedBeforeRenewal(entity, result, theirs, history)).toBeNull();
  });

  it('refuses a revocation at another time than the one the other side holds', () => {
    expect(revokedBeforeRenewal('consent', consent(REVOKED), consent(RENEWED), [renewal])).toContain(
      'a revocation keeps its time',
    );
  });
});

describe('historyKept: history the other side holds cannot be left out', () => {
  const held = entry('revoked', REVOKED);

  it('refuses to keep "no such entry" for an entry of append-only history held there', () => {
    expect(historyKept('consent_history', 'h1', null, held)).toBe(
      'consent_history h1 is history held on the server, written once and never deleted, so it cannot be left out',
    );
    expect(historyKept('consent_history', 'h1', null, held, BUNDLE_SIDES)).toContain('held in the bundle,');
  });

  it.each([
    ['the entry kept', 'consent_history', held, held],
    ['an entry the other side does not hold', 'consent_history', null, null],
    ['a record that is not history', 'consent', null, consent(null)],
    ['a table no rule knows', 'no_such_table', null, held],
    ['a name inherited by every object', 'constructor', null, held],
  ])('allows %s', (_, entity, result, theirs) => {
    expect(historyKept(entity, 'h1', result, theirs)).toBeNull();
  });
});

describe('secondRevocation: a consent revoked on both sides at different times, to keep one revocation', () => {
  const LATER = '2026-05-03T00:00:00.000Z';
  const row = (revoked_at: string | null, consent_version = '1.0', user_id = 'u1') => ({
    ...consent(revoked_at, consent_version),
    user_id,
  });
  it('is one when both are revoked at different times and otherwise alike, the version aside', () => {
    expect(secondRevocation('consent', row(REVOKED), row(LATER), [])).toBe(true);
    expect(secondRevocation('consent', row(REVOKED), row(LATER, '2.0'), [entry('version_update', RENEWED)])).toBe(true);
  });
  it('is none for one revocation, the same instant, another record, or other facts', () => {
    expect(secondRevocation('consent', row(REVOKED), row(null), [])).toBe(false);
    expect(secondRevocation('consent', row(null), row(REVOKED), [])).toBe(false);
    expect(secondRevocation('consent', row(REVOKED), row('2026-05-01T02:00:00+02:00'), [])).toBe(false);
    expect(secondRevocation('consent', row(REVOKED), row(LATER, '1.0', 'u2'), [])).toBe(false);
    expect(secondRevocation('consent_history', row(REVOKED), row(LATER), [])).toBe(false);
    expect(secondRevocation('consent', null, row(LATER), [])).toBe(false);
  });
  it('is none when a renewal held here comes at or after the other revocation: never revoked, then renewed', () => {
    expect(secondRevocation('consent', row(REVOKED), row(RENEWED), [entry('renewed', RENEWED)])).toBe(false);
    expect(secondRevocation('consent', row(REVOKED), row(RENEWED), [entry('renewed', LATER)])).toBe(false);
    expect(secondRevocation('consent', row(REVOKED), row(LATER), [entry('renewed', RENEWED)])).toBe(true);
    expect(secondRevocation('consent', row(REVOKED), row(LATER), [entry('granted', LATER)])).toBe(true);
  });
});
