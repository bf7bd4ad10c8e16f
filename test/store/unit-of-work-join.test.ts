import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import type { CookieBanner } from '../../src/domain/cookie-banner/cookie-banner.schema.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';
import { journalOf } from '../support/unit-of-work.js';

const T = 'join';
const banner = (color: string) =>
  ({
    tenant_id: T,
    categories: [],
    config: { color },
    updated_at: '2026-06-15T12:00:00.000Z',
  }) as unknown as CookieBanner & { updated_at: string };

/** A write that does not answer within `ms` fails the test instead of hanging it. */
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

// Two users of one store (a service of the backend, and sync or bundles beside it) may each hold a unit of work of
// that store: a write of one inside a write of the other joins it, as a nested write of one unit of work does,
// instead of queueing behind the transaction it runs in (which waits for it: for ever).
describe.each(ENGINE_NAMES)('a write inside another of the same store and tenant on %s', (engine) => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('joins it across two units of work, commits with it and rolls back with it', async () => {
    const store = await openStore(await freshStore(engine));
    stores.push(store);
    const a = createUnitOfWork(store, systemClock, uuidv7Source());
    const b = createUnitOfWork(store, systemClock, uuidv7Source());
    await forTenant(T, async () => {
      await within(
        5000,
        a.write(T, (tx) => b.write(T, (inner) => inner.cookieBanner.put(banner('#000000')).then(() => tx))),
      );
      expect((await a.read.cookieBanner.get(T))?.config).toEqual({ color: '#000000' });
      const before = (await journalOf(store, T)).length;
      const failure = new Error('outer fails');
      await expect(
        within(
          5000,
          a.write(T, async () => {
            await b.write(T, (inner) => inner.cookieBanner.put(banner('#ffffff')));
            throw failure;
          }),
        ),
      ).rejects.toBe(failure);
      expect((await b.read.cookieBanner.get(T))?.config).toEqual({ color: '#000000' });
      expect(await journalOf(store, T)).toHaveLength(before);
    });
  }, 20_000);
});
