import { describe, expect, it } from 'vitest';
import type { IdSource } from '../../src/domain/clock.js';
import {
  consentTimeProblems,
  decideConsent,
  type IncomingDecision,
  type StoredDecision,
} from '../../src/domain/consents/consent.rules.js';
import { newConsent, statsFromCounts } from '../../src/domain/consents/consent.service.js';

/**
 * docs/decisions.md: consent timestamps may lie at most 5 minutes after the server's clock (the clock skew), and revoked_at must
 * not come before granted_at, which is now when absent. The bounds themselves are allowed.
 */
describe('the plausible times of a consent', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const MIN = 60_000;
  const future = 'must not lie in the future (more than 5 minutes after 2026-06-01T12:00:00.000Z)';
  const before = 'must not be before granted_at';

  it.each([
    ['nothing given', {}, []],
    ['granted at the skew', { granted_at: at(5 * MIN) }, []],
    ['granted 1 ms beyond the skew', { granted_at: at(5 * MIN + 1) }, [{ path: 'granted_at', message: future }]],
    ['revoked at the skew', { granted_at: at(-MIN), revoked_at: at(5 * MIN) }, []],
    [
      'revoked 1 ms beyond the skew',
      { granted_at: at(-MIN), revoked_at: at(5 * MIN + 1) },
      [{ path: 'revoked_at', message: future }],
    ],
    [
      'granted and revoked beyond the skew',
      { granted_at: at(6 * MIN), revoked_at: at(7 * MIN) },
      [
        { path: 'granted_at', message: future },
        { path: 'revoked_at', message: future },
      ],
    ],
    ['revoked when granted', { granted_at: at(-MIN), revoked_at: at(-MIN) }, []],
    [
      'revoked 1 ms before granted',
      { granted_at: at(-MIN), revoked_at: at(-MIN - 1) },
      [{ path: 'revoked_at', message: before }],
    ],
    ['revoked now, granted_at absent', { revoked_at: at(0) }, []],
    [
      'revoked 1 ms before now, granted_at absent',
      { revoked_at: at(-1) },
      [{ path: 'revoked_at', message: `${before} (now, when absent)` }],
    ],
  ])('%s', (_what, times, problems) => {
    expect(consentTimeProblems(times, now)).toEqual(problems);
  });
});

const counter = (): IdSource => {
  let n = 0;
  return { next: () => `id${++n}` };
};

/** A new consent keeps the client's details on its `granted` entry; a `revoked` entry is the system's own. */
describe('a new consent and its history', () => {
  const now = '2026-06-01T12:00:00.000Z';
  const input = {
    user_id: 'anna',
    data_point_id: 'newsletter',
    granted: true,
    consent_version: '2.0',
    source: 'shop',
    ip_address: '10.0.0.1',
    user_agent: 'UA',
  };
  const client = { ip_address: '10.0.0.1', user_agent: 'UA', source: 'shop' };
  const system = { ip_address: null, user_agent: null, source: null };
  const entry = (id: string, action: string, created_at: string, who: object) => ({
    id,
    consent_id: 'id1',
    action,
    consent_version: '2.0',
    ...who,
    created_at,
  });

  it('records a historic revoked consent with its times in UTC and both entries', () => {
    const r = newConsent(
      'shop',
      { ...input, granted_at: '2026-01-01T10:00:00+02:00', revoked_at: '2026-02-01T00:00:00-01:00' },
      now,
      counter(),
    );
    expect(r.consent).toEqual({
      id: 'id1',
      tenant_id: 'shop',
      ...input,
      granted_at: '2026-01-01T08:00:00.000Z',
      revoked_at: '2026-02-01T01:00:00.000Z',
      created_at: now,
      banner_revision: null,
      policy_version_id: null,
      policy_content_hash: null,
    });
    expect(r.history).toEqual([
      entry('id2', 'granted', '2026-01-01T08:00:00.000Z', client),
      entry('id3', 'revoked', '2026-02-01T01:00:00.000Z', system),
    ]);
  });

  it('records a consent given now with one entry', () => {
    const r = newConsent('shop', input, now, counter());
    expect(r.consent).toMatchObject({ granted_at: now, revoked_at: null });
    expect(r.history).toEqual([entry('id2', 'granted', now, client)]);
  });
});

describe('consent statistics', () => {
  // the answer lists data points by name, whatever order the store counted them in
  it('lists data points in order of their names', () => {
    const s = statsFromCounts(
      [
        { data_point_id: 'tracking', granted: true, revoked: false, n: 1 },
        { data_point_id: 'ads', granted: false, revoked: false, n: 2 },
        { data_point_id: 'newsletter', granted: true, revoked: true, n: 1 },
      ],
      3,
    );
    expect(Object.keys(s.by_data_point)).toEqual(['ads', 'newsletter', 'tracking']);
  });
});

/**
 * docs/consents.md (one decision in force): a user has at most one decision in force per data point. A refusal
 * withdraws the grant in force, the same decision again changes nothing, a grant while one is in force renews it.
 */
describe('the decision in force of a user on a data point', () => {
  const T1 = '2026-01-01T10:00:00.000Z';
  const T2 = '2026-02-01T10:00:00.000Z';
  const T3 = '2026-03-01T10:00:00.000Z';
  const NOW = '2026-06-01T12:00:00.000Z';
  const T0 = '2025-12-01T10:00:00.000Z';
  const T4 = '2026-04-01T10:00:00.000Z';
  /** The affirmations of a grant of version 1.0 at T1, renewed to 2.0 at `at`. */
  const renewedAt = (at: string) => [
    { at: T1, consent_version: '1.0' },
    { at, consent_version: '2.0' },
  ];
  const none = { banner_revision: null, policy_version_id: null, policy_content_hash: null };
  const grant = (id: string, at: string, extra: Partial<StoredDecision> = {}): StoredDecision => ({
    id,
    granted: true,
    granted_at: at,
    revoked_at: null,
    consent_version: '1.0',
    ...none,
    affirmations: [{ at, consent_version: extra.consent_version ?? '1.0' }],
    ...extra,
  });
  const refusal = (id: string, at: string, version = '1.0'): StoredDecision => ({
    id,
    granted: false,
    granted_at: at,
    revoked_at: null,
    consent_version: version,
    ...none,
    affirmations: [],
  });
  const now = (granted: boolean, extra: Partial<IncomingDecision> = {}): IncomingDecision => ({
    granted,
    consent_version: '1.0',
    at: NOW,
    timed: false,
    revoked_at: null,
    ...none,
    ...extra,
  });
  const past = (granted: boolean, at: string, extra: Partial<IncomingDecision> = {}) =>
    now(granted, { at, timed: true, ...extra });
  const record = (revoked_at: string | null = null, revokes: Array<{ consent_id: string; at: string }> = []) => ({
    kind: 'record',
    revoked_at,
    revokes,
  });

  it.each<[string, StoredDecision[], IncomingDecision, unknown]>([
    ['a first grant is recorded', [], now(true), record()],
    ['a first refusal is recorded', [], now(false), record()],
    [
      'a refusal withdraws the grant in force at its time',
      [grant('g', T1)],
      now(false),
      record(null, [{ consent_id: 'g', at: NOW }]),
    ],
    [
      'a refusal withdraws every grant in force (two stored before the rule held)',
      [grant('g1', T1), grant('g2', T2)],
      now(false),
      record(null, [
        { consent_id: 'g2', at: NOW },
        { consent_id: 'g1', at: NOW },
      ]),
    ],
    ['the same grant again changes nothing', [grant('g', T1)], now(true), { kind: 'unchanged', consent_id: 'g' }],
    [
      'a grant of another version renews the grant in force',
      [grant('g', T1)],
      now(true, { consent_version: '2.0' }),
      { kind: 'renew', consent_id: 'g', at: NOW },
    ],
    [
      'a grant of the same version naming other texts renews it',
      [grant('g', T1, { banner_revision: 'aaaaaaaa' })],
      now(true, { banner_revision: 'bbbbbbbb' }),
      { kind: 'renew', consent_id: 'g', at: NOW },
    ],
    [
      'a grant of the same version naming the same texts changes nothing',
      [grant('g', T1, { banner_revision: 'aaaaaaaa' })],
      now(true, { banner_revision: 'aaaaaaaa' }),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a grant of a version the grant in force had before changes nothing',
      [
        grant('g', T1, {
          consent_version: '2.0',
          affirmations: [
            { at: T1, consent_version: '1.0' },
            { at: T2, consent_version: '2.0' },
          ],
        }),
      ],
      now(true),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'the same refusal again changes nothing',
      [grant('g', T1, { revoked_at: T2 }), refusal('r', T2)],
      now(false),
      { kind: 'unchanged', consent_id: 'r' },
    ],
    ['a refusal of another version is recorded', [refusal('r', T2)], now(false, { consent_version: '2.0' }), record()],
    [
      'a refusal after a revocation by request is recorded (no refusal was)',
      [grant('g', T1, { revoked_at: T2 })],
      now(false),
      record(),
    ],
    ['a grant after a refusal is recorded', [refusal('r', T1)], now(true), record()],
    ['a grant after a withdrawn grant is recorded', [grant('g', T1, { revoked_at: T2 })], now(true), record()],
    [
      'a grant of the past given again is recorded already, whatever happened to it since',
      [grant('g', T1, { revoked_at: T2 }), refusal('r', T2)],
      past(true, T1),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a version update of the past given again is recorded already',
      [
        grant('g', T1, {
          consent_version: '2.0',
          affirmations: [
            { at: T1, consent_version: '1.0' },
            { at: T2, consent_version: '2.0' },
          ],
        }),
      ],
      past(true, T2, { consent_version: '2.0' }),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a refusal of the past given again is recorded already',
      [refusal('r', T1)],
      past(false, T1),
      { kind: 'unchanged', consent_id: 'r' },
    ],
    [
      'a refusal of the past older than the grant in force withdraws nothing',
      [grant('g', T2)],
      past(false, T1),
      record(),
    ],
    [
      'a refusal of the past after the grant in force withdraws it at its own time',
      [grant('g', T1)],
      past(false, T2),
      record(null, [{ consent_id: 'g', at: T2 }]),
    ],
    [
      'a grant of the past older than a stored refusal is recorded revoked at that refusal',
      [refusal('r', T2)],
      past(true, T1),
      record(T2),
    ],
    [
      'a grant of the past older than the grant in force changes nothing',
      [grant('g', T2)],
      past(true, T1, { consent_version: '0.9' }),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a grant given as revoked is a record of the past',
      [grant('g', T1)],
      past(true, T2, { revoked_at: T3 }),
      record(T3),
    ],
    [
      'a grant given as revoked that is stored so is recorded already',
      [grant('g', T1, { revoked_at: T3 })],
      past(true, T1, { revoked_at: T3 }),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a refusal now withdraws a grant whose clock ran ahead, at that grant’s own time',
      [grant('g', '2026-06-01T12:03:00.000Z')],
      now(false),
      record(null, [{ consent_id: 'g', at: '2026-06-01T12:03:00.000Z' }]),
    ],
    [
      'a refusal of the past withdraws a grant given at that very instant',
      [grant('g', T2)],
      past(false, T2),
      record(null, [{ consent_id: 'g', at: T2 }]),
    ],
    [
      'a refusal of the past names the same instant as a grant, not the same decision',
      [grant('g', T1)],
      past(false, T1),
      record(null, [{ consent_id: 'g', at: T1 }]),
    ],
    [
      'a grant given as revoked is not the grant in force given at the same time',
      [grant('g', T1)],
      past(true, T1, { revoked_at: T3 }),
      record(T3),
    ],
    [
      'a refusal of the past of another version is not the refusal stored then',
      [refusal('r', T1)],
      past(false, T1, { consent_version: '2.0' }),
      record(),
    ],
    [
      'a refusal of the past given again is recorded already, also when another refusal shares its instant',
      [refusal('r2', T1, '2.0'), refusal('r', T1)],
      past(false, T1),
      { kind: 'unchanged', consent_id: 'r' },
    ],
    [
      'a renewal of the past given again is recorded already on a grant withdrawn since',
      [grant('g', T1, { revoked_at: T3, consent_version: '2.0', affirmations: renewedAt(T2) })],
      past(true, T2, { consent_version: '2.0' }),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a grant of the past at the time of a renewal but of another version is recorded',
      [grant('g', T1, { revoked_at: T3, consent_version: '2.0', affirmations: renewedAt(T2) })],
      past(true, T2, { consent_version: '3.0' }),
      record(),
    ],
    [
      'a grant of the past of a renewed version but at another time is recorded',
      [grant('g', T1, { revoked_at: T3, consent_version: '2.0', affirmations: renewedAt(T2) })],
      past(true, T4, { consent_version: '2.0' }),
      record(),
    ],
    [
      'the last yes on a grant is its latest affirmation, in whatever order they are stored',
      [grant('g', T1, { affirmations: [...renewedAt(T3)].reverse() })],
      past(false, T2),
      record(),
    ],
    [
      'a grant naming no text changes nothing on a grant that names one',
      [grant('g', T1, { banner_revision: 'aaaaaaaa' })],
      now(true),
      { kind: 'unchanged', consent_id: 'g' },
    ],
    [
      'a grant of the past at the instant of the last yes, of another version, renews it then',
      [grant('g', T1)],
      past(true, T1, { consent_version: '2.0' }),
      { kind: 'renew', consent_id: 'g', at: T1 },
    ],
    [
      'a grant of the past at the instant of a stored refusal is recorded in force (the refusal came first)',
      [refusal('r', T2)],
      past(true, T2),
      record(),
    ],
    [
      'a grant of the past older than two stored refusals is recorded revoked at the earlier one',
      [refusal('r3', T3), refusal('r2', T2)],
      past(true, T1),
      record(T2),
    ],
    [
      'a refusal after a revocation by request that followed a refusal is recorded (the revocation came last)',
      [grant('g', T1, { revoked_at: T3 }), refusal('r', T2)],
      now(false),
      record(),
    ],
    [
      'a refusal of the past after a yes that follows a refusal is recorded (the yes came last)',
      [refusal('r', T1), grant('g', T2, { revoked_at: T4 })],
      past(false, T3),
      record(),
    ],
    [
      'a refusal of the past reads only the decisions up to its time',
      [grant('g', T1, { revoked_at: T2 }), refusal('r', T4)],
      past(false, T3),
      record(),
    ],
    [
      'a refusal of the past counts a revocation at its very instant',
      [refusal('r', T1), grant('g', T0, { revoked_at: T2 })],
      past(false, T2),
      record(),
    ],
    [
      'the latest decision counts, not the one of the highest rank',
      [grant('g', T1, { revoked_at: T3 }), refusal('r', T2)],
      now(false),
      record(),
    ],
    [
      'on one instant a refusal counts after a revocation',
      [refusal('r', T2), grant('g', T1, { revoked_at: T2 })],
      now(false),
      { kind: 'unchanged', consent_id: 'r' },
    ],
    [
      'on one instant a refusal counts after a revocation, whatever their ids',
      [refusal('a', T2), grant('z', T1, { revoked_at: T2 })],
      now(false),
      { kind: 'unchanged', consent_id: 'a' },
    ],
    [
      'of two refusals on one instant, the greater id counts last',
      [refusal('r2', T1, '2.0'), refusal('r', T1)],
      now(false),
      record(),
    ],
    [
      'of two refusals on one instant, the greater id counts last, whatever its version',
      [refusal('r', T1, '2.0'), refusal('s', T1)],
      now(false),
      { kind: 'unchanged', consent_id: 's' },
    ],
    [
      'a decision made now is never taken for a stored one, even at the same instant',
      [refusal('r', NOW), grant('g', T1)],
      now(false),
      record(null, [{ consent_id: 'g', at: NOW }]),
    ],
    [
      'of two grants in force, the one given last is renewed',
      [grant('b', T1), grant('a', T2)],
      now(true, { consent_version: '2.0' }),
      { kind: 'renew', consent_id: 'a', at: NOW },
    ],
    [
      'of two grants in force given at one instant, the greater id is renewed',
      [grant('a', T1), grant('b', T1)],
      now(true, { consent_version: '2.0' }),
      { kind: 'renew', consent_id: 'b', at: NOW },
    ],
  ])('%s', (_what, stored, incoming, decision) => {
    // the stored order is the engine's and means nothing
    expect(decideConsent(stored, incoming)).toEqual(decision);
    expect(decideConsent([...stored].reverse(), incoming)).toEqual(decision);
  });

  it('decides the same whatever the order the consents are stored in', () => {
    const stored = [grant('g1', T1, { revoked_at: T2 }), refusal('r', T2), grant('g2', T3)];
    for (const order of [stored, [...stored].reverse()])
      expect(decideConsent(order, now(false))).toEqual(record(null, [{ consent_id: 'g2', at: NOW }]));
  });
});
