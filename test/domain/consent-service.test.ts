import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { ConsentService } from '../../src/domain/consents/consent.service.js';
import type { ConsentStore } from '../../src/domain/consents/consent.store.js';
import { KyselyConsentStore } from '../../src/store/kysely/consent.store.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tmpDb } from '../support/helpers.js';

const GRANTED = '2026-01-01T00:00:00.000Z';
const WINNER = '2026-06-01T11:59:59.000Z';
const LOSER = '2026-06-01T12:00:00.000Z';

let store: Store;
beforeAll(async () => {
  store = await openStore(tmpDb());
});
afterAll(async () => {
  await store.close();
});

/**
 * The store of the replica that loses: right after it read the consent (active), `other` revokes it for real. SQLite
 * takes its write lock when a transaction begins, so two replicas cannot interleave on it, and a revoke played inside
 * this transaction would be rolled back with it when this replica refuses. This replica's statements therefore run
 * one by one, each committed on its own, as on an engine that lets another transaction commit between them.
 */
const revokedMeanwhile = (inner: ConsentStore, other: ConsentService): ConsentStore =>
  new Proxy(inner, {
    get(target, key: keyof ConsentStore, self: ConsentStore) {
      if (key === 'transaction') return (fn: (s: ConsentStore) => Promise<unknown>) => fn(self);
      if (key === 'get')
        return async (tenant: string, id: string) => {
          const read = await target.get(tenant, id);
          await other.revoke(tenant, id);
          return read;
        };
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

/**
 * Two replicas revoke one consent at once: both read it active, the store's conditional update lets one win. The
 * other answers 409 without a time, as it never read one.
 */
describe('revoking a consent another replica revokes at the same moment', () => {
  it("answers that it was already revoked and leaves the winner's revocation as it is", async () => {
    const real = new KyselyConsentStore(store.db);
    let n = 0;
    const ids = { next: () => `c${++n}` };
    const input = { user_id: 'anna', data_point_id: 'newsletter', granted: true, consent_version: '1.0' };
    const { id } = await new ConsentService(real, fixedClock(GRANTED), ids).create('shop', input);
    expect(id).toBe('c1');
    const winner = new ConsentService(real, fixedClock(WINNER), ids);
    const loser = new ConsentService(revokedMeanwhile(real, winner), fixedClock(LOSER), ids);

    await expect(loser.revoke('shop', 'c1')).rejects.toMatchObject({
      code: 'conflict',
      message: 'consent c1 was already revoked',
    });
    expect((await real.get('shop', 'c1'))?.revoked_at).toBe(WINNER);
    const history = (await real.histories('shop', ['c1'])).get('c1') ?? [];
    expect(history.map((h) => `${h.action}@${h.created_at}`)).toEqual([`granted@${GRANTED}`, `revoked@${WINNER}`]);
  });
});
