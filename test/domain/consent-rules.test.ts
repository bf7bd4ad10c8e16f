import { describe, expect, it } from 'vitest';
import type { IdSource } from '../../src/domain/clock.js';
import { consentTimeProblems } from '../../src/domain/consents/consent.rules.js';
import { newConsent, statsFromCounts } from '../../src/domain/consents/consent.service.js';

/**
 * README: consent timestamps may lie at most 5 minutes after the server's clock (the clock skew), and revoked_at must
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
