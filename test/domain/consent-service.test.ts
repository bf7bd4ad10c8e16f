import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { ConsentService } from '../../src/domain/consents/consent.service.js';
import type { ConsentStore } from '../../src/domain/consents/consent-store.port.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { journalOf, sqliteUnitOfWork, withStore, wrapWrites } from '../support/unit-of-work.js';

const GRANTED = '2026-01-01T00:00:00.000Z';
const WINNER = '2026-06-01T11:59:59.000Z';
const LOSER = '2026-06-01T12:00:00.000Z';

/**
 * The store of the replica that loses: right after it read the consent (active), the winner's conditional update
 * lands, as a rival replica's commit lands between two statements on an engine that allows it. SQLite's write lock
 * makes replicas take turns, so the race is played inside the loser's transaction.
 */
const revokedMeanwhile = (inner: ConsentStore, at: string): ConsentStore =>
  new Proxy(inner, {
    get(target, key: keyof ConsentStore) {
      if (key === 'get')
        return async (tenant: string, id: string) => {
          const read = await target.get(tenant, id);
          await target.markRevoked(tenant, id, at);
          return read;
        };
      const v = target[key];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });

/**
 * Two replicas revoke one consent at once: both read it active, the store's conditional update lets one win. The
 * other answers 409 without a time, as it never read one, and its transaction leaves nothing behind: no history
 * entry and no journal entry.
 */
describe('revoking a consent another replica revokes at the same moment', () => {
  it('answers that it was already revoked and writes nothing', async () => {
    let n = 0;
    const ids = { next: () => `c${++n}` };
    const { store, uow } = await sqliteUnitOfWork(fixedClock(GRANTED), uuidv7Source());
    const input = { user_id: 'anna', data_point_id: 'newsletter', granted: true, consent_version: '1.0' };
    const { id } = (await new ConsentService(uow, fixedClock(GRANTED), ids).create('shop', input)).consent;
    expect(id).toBe('c1');
    const before = await journalOf(store, 'shop');
    expect(before.map((e) => `${e.entity}:${e.op}`)).toEqual(['consent:insert', 'consent_history:insert']);
    const raced = wrapWrites(uow, (tx) => withStore(tx, 'consents', revokedMeanwhile(tx.consents, WINNER)));
    const loser = new ConsentService(raced, fixedClock(LOSER), ids);

    await expect(loser.revoke('shop', 'c1')).rejects.toMatchObject({
      code: 'conflict',
      message: 'consent c1 was already revoked',
    });
    // the rival's update was played inside the losing transaction, which rolled back: the consent is as it was
    expect((await uow.read.consents.get('shop', 'c1'))?.revoked_at).toBeNull();
    const history = (await uow.read.consents.histories('shop', ['c1'])).get('c1') ?? [];
    expect(history.map((h) => `${h.action}@${h.created_at}`)).toEqual([`granted@${GRANTED}`]);
    expect(await journalOf(store, 'shop')).toEqual(before);
  });
});
