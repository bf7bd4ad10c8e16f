import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConsentInput } from '../../src/domain/consents/consent.schema.js';
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
