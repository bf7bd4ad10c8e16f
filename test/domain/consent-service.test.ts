import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import type { Consent } from '../../src/domain/consents/consent.schema.js';
import { ConsentService } from '../../src/domain/consents/consent.service.js';
import type { ConsentStore } from '../../src/domain/consents/consent.store.js';

/**
 * Two replicas revoke one consent at once: both read it active, the store's conditional update lets one win. The
 * other answers 409 without a time, as it never read one.
 */
describe('revoking a consent another replica revokes at the same moment', () => {
  const active: Consent = {
    id: 'c1',
    tenant_id: 'shop',
    user_id: 'anna',
    data_point_id: 'newsletter',
    granted: true,
    granted_at: '2026-01-01T00:00:00.000Z',
    revoked_at: null,
    consent_version: '1.0',
    source: null,
    ip_address: null,
    user_agent: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
  const lost = {
    transaction: (fn) => fn(lost),
    get: async () => active,
    markRevoked: async () => false,
  } as Partial<ConsentStore> as ConsentStore;

  it('answers that it was already revoked', async () => {
    const svc = new ConsentService(lost, fixedClock('2026-06-01T12:00:00Z'), { next: () => 'h1' });
    await expect(svc.revoke('shop', 'c1')).rejects.toMatchObject({
      code: 'conflict',
      message: 'consent c1 was already revoked',
    });
  });
});
