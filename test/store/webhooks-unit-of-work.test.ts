import { afterAll, describe, expect, it } from 'vitest';
import { createLocalBackendFromStore, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { openStore } from '../../src/store/open-store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

const T = 'hooks-uow';
const endpoint = { url: 'http://127.0.0.1:9/hook', events: ['*'], allow_private: true };

/** A write that does not answer within `ms` fails the test instead of hanging it. */
const within = <R>(ms: number, p: Promise<R>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

// Webhook endpoints are written through the backend's unit of work: inside another write of the tenant they join it,
// so they commit with it and roll back with it (before, they were written on the store's connection beside it).
describe.each(ENGINE_NAMES)('webhook endpoints written inside a unit of work on %s', (engine) => {
  const backends: LocalBackend[] = [];
  afterAll(async () => {
    for (const b of backends) await b.close();
  });

  it('roll back with a unit of work that fails, and commit with one that does not', async () => {
    const b = createLocalBackendFromStore(await openStore(await freshStore(engine)));
    backends.push(b);
    const failure = new Error('outer fails');
    await forTenant(T, async () => {
      await expect(
        within(
          5000,
          b.uow.write(T, async () => {
            await b.webhooks.add({ tenant: T, body: endpoint });
            throw failure;
          }),
        ),
      ).rejects.toBe(failure);
      expect(await b.webhooks.list({ tenant: T })).toEqual([]);

      const added = await within(
        5000,
        b.uow.write(T, () => b.webhooks.add({ tenant: T, body: endpoint })),
      );
      await expect(
        within(
          5000,
          b.uow.write(T, async () => {
            await b.webhooks.remove({ tenant: T, params: { id: added.id } });
            throw failure;
          }),
        ),
      ).rejects.toBe(failure);
      expect((await b.webhooks.list({ tenant: T })).map((e) => e.id)).toEqual([added.id]);
    });
  }, 30_000);
});
