import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConsentCsvRow, ConsentInput, ExportQuery } from '../../src/domain/consents/consent.schema.js';
import { detailsFromZod } from '../../src/domain/validation.js';

/**
 * The bulk import validates rows with zod's generated fast path of the API schema (`z.compile`). It must answer
 * exactly as the schema does: the same values on success, the same refusals and messages on failure.
 */
describe('the compiled consent schema of the import', () => {
  const compiled = z.compile(ConsentInput);
  const base = { user_id: 'jürgen@example.com', data_point_id: 'newsletter', granted: 'true' };
  const variants: Array<Record<string, unknown>> = [
    base,
    { ...base, granted: 'YES' },
    { ...base, granted: ' no ' },
    { ...base, granted: '1' },
    { ...base, granted: '0' },
    { ...base, granted: true },
    { ...base, granted: false },
    { ...base, granted: 'maybe' },
    { ...base, granted: '' },
    { ...base, granted: 2 },
    { ...base, granted: undefined },
    { user_id: 'u', data_point_id: 'd' },
    { ...base, user_id: '' },
    { ...base, user_id: '   ' },
    { ...base, user_id: '  padded  ' },
    { ...base, user_id: 'x'.repeat(321) },
    { ...base, user_id: 42 },
    { ...base, data_point_id: 'd'.repeat(201) },
    { ...base, data_point_id: null },
    { ...base, consent_version: '' },
    { ...base, consent_version: '2.1' },
    { ...base, consent_version: 'v'.repeat(51) },
    { ...base, source: '' },
    { ...base, source: ' web ' },
    { ...base, source: 's'.repeat(101) },
    { ...base, ip_address: '10.0.0.1' },
    { ...base, ip_address: '2001:db8::1' },
    { ...base, ip_address: '::ffff:10.0.0.1' },
    { ...base, ip_address: '300.1.1.1' },
    { ...base, ip_address: '10.0.0' },
    { ...base, ip_address: 'fe80::1%eth0' },
    { ...base, ip_address: '' },
    { ...base, ip_address: 'localhost' },
    { ...base, user_agent: '' },
    { ...base, user_agent: 'u'.repeat(1000) },
    { ...base, user_agent: 'u'.repeat(1001) },
    { ...base, granted_at: '2026-01-01T10:00:00Z' },
    { ...base, granted_at: '2026-01-01T10:00:00.123+02:00' },
    { ...base, granted_at: '2026-01-01' },
    { ...base, granted_at: '2026-02-30T10:00:00Z' },
    { ...base, granted_at: 'yesterday' },
    { ...base, granted_at: '2026-01-01T10:00:00' },
    { ...base, granted_at: '' },
    { ...base, granted_at: '2026-01-01T10:00:00Z', revoked_at: '2026-02-01T00:00:00Z' },
    { ...base, granted_at: '2026-03-01T10:00:00Z', revoked_at: '2026-02-01T00:00:00Z' },
    { ...base, granted: 'false', revoked_at: '2026-02-01T00:00:00Z' },
    { ...base, revoked_at: 'soon' },
    { ...base, extra: 'ignored' },
    { ...base, user_id: 'b\uFFFDd' },
  ];

  it.each(variants.map((v, i) => [i, v] as const))('answers row %i as the schema does', (_i, row) => {
    const a = ConsentInput.safeParse(row, { reportInput: true });
    const b = compiled.safeParse(row, { reportInput: true });
    expect(b.success).toBe(a.success);
    if (a.success && b.success) expect(b.data).toEqual(a.data);
    else expect(detailsFromZod(b.error!)).toEqual(detailsFromZod(a.error!));
  });

  it('covers both outcomes', () => {
    const outcomes = variants.map((v) => ConsentInput.safeParse(v).success);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(10);
    expect(outcomes.filter((o) => !o).length).toBeGreaterThan(10);
  });
});

/** What the API answers (422) and the import writes as a row's reason: the schema's own words, field by field. */
describe('the consent schema', () => {
  const base = { user_id: 'u', data_point_id: 'newsletter', granted: true };
  const problems = (row: unknown) => {
    const r = ConsentInput.safeParse(row, { reportInput: true });
    return r.success ? [] : detailsFromZod(r.error);
  };

  it.each([
    [
      { ...base, granted_at: '' },
      'granted_at',
      'must not be empty: leave the field out (or null) when there is no time',
    ],
    [
      { ...base, revoked_at: '' },
      'revoked_at',
      'must not be empty: leave the field out (or null) when there is no time',
    ],
    [{ ...base, granted_at: 'yesterday' }, 'granted_at', 'Invalid ISO datetime'],
    [{ ...base, granted_at: '2026-01-01T10:00:00' }, 'granted_at', 'Invalid ISO datetime'],
    [{ ...base, ip_address: '300.1.1.1' }, 'ip_address', 'expected an IPv4 or IPv6 address'],
    [{ ...base, ip_address: 'localhost' }, 'ip_address', 'expected an IPv4 or IPv6 address'],
  ])('refuses %j: %s %s', (row, path, message) => {
    expect(problems(row)).toEqual([{ path, message }]);
  });

  it('reads timestamps with any zone offset, trims the source and fills in the version', () => {
    const row = { ...base, granted_at: '2026-01-01T10:00:00+02:00', revoked_at: '2026-02-01T00:00:00.5-05:30' };
    expect(ConsentInput.parse({ ...row, source: ' web banner ' })).toEqual({
      ...row,
      consent_version: '1.0',
      source: 'web banner',
    });
  });

  // a refusal has nothing to revoke, whatever its times; the order of the times is consentTimeProblems' rule
  it.each([
    [{ ...base, granted: false, granted_at: '2026-01-01T00:00:00Z', revoked_at: '2026-02-01T00:00:00Z' }, false],
    [{ ...base, granted: 'no', revoked_at: '2020-01-01T00:00:00Z' }, false],
    [{ ...base, granted: false }, true],
    [{ ...base, granted: false, revoked_at: null }, true],
    [{ ...base, granted_at: '2026-01-01T00:00:00Z', revoked_at: '2026-02-01T00:00:00Z' }, true],
    [{ ...base, granted_at: '2026-03-01T00:00:00Z', revoked_at: '2026-02-01T00:00:00Z' }, true],
  ])('a refusal cannot be revoked: %j is accepted: %s', (row, accepted) => {
    expect(problems(row)).toEqual(
      accepted ? [] : [{ path: 'revoked_at', message: 'a refusal (granted=false) cannot be revoked' }],
    );
  });
});

describe('a CSV row of the import', () => {
  // an empty time cell means "not given" in a CSV row only
  it('reads empty time cells as not given', () => {
    const row = { user_id: 'u', data_point_id: 'd', granted: 'yes', granted_at: '', revoked_at: '' };
    expect(ConsentCsvRow.parse(row)).toEqual({
      user_id: 'u',
      data_point_id: 'd',
      granted: true,
      consent_version: '1.0',
    });
  });

  it.each([null, undefined, 'u,d,true', 42, false])('refuses %j as the API schema does', (row) => {
    const r = ConsentCsvRow.safeParse(row, { reportInput: true });
    expect(r.success).toBe(false);
    expect(detailsFromZod(r.error!)).toEqual(detailsFromZod(ConsentInput.safeParse(row, { reportInput: true }).error!));
  });
});

describe('the query of an export', () => {
  it('exports NDJSON unless told otherwise', () => {
    expect(ExportQuery.parse({})).toEqual({ format: 'ndjson' });
  });

  it.each([
    [{ user_id: 'Müller', data_point_id: 'newsletter' }, true],
    [{ user_id: 'x', data_point_id: 'y' }, true],
    [{ user_id: '' }, false],
    [{ data_point_id: '' }, false],
  ])('filters by user and data point: %j is accepted: %s', (query, accepted) => {
    expect(ExportQuery.safeParse(query).success).toBe(accepted);
  });
});
