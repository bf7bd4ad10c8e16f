import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import type { SyncRow } from '../../src/domain/sync/version.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { tmpDb } from '../support/helpers.js';
import { tenantState } from '../support/hostile.js';

// Issue 35 item 5, at the store: consent ids are unique per tenant only, so on SQLite two tenants may hold a consent
// of the same id, and their history entries of the same id and time. Every statement that changes or deletes a row
// names its tenant, and the history's key begins with the tenant: one tenant's write never reaches the other's row.
// (PostgreSQL keys the history by id and keeps tenants apart by row-level security.)
describe('records of two tenants with the same ids on SQLite', () => {
  it('a write of one tenant never reaches the other’s row', async () => {
    const b = await createLocalBackend(tmpDb());
    try {
      const c = await b.consents.create({
        tenant: 'globex',
        actor: 'sam',
        body: { user_id: 'g', data_point_id: 'news', granted: true },
      });
      const [entry] = await b.consents.history({ tenant: 'globex', params: { id: c.id } });
      const globex = await tenantState(b, 'globex');
      const uow = createUnitOfWork(b.store, systemClock, uuidv7Source());
      const write = (fn: (tx: Parameters<Parameters<typeof uow.write>[1]>[0]) => Promise<void>) =>
        forRequest({ tenant: 'acme', actor: 'mallory', principal: 'test' }, () => uow.write('acme', fn));
      const consent = (await uow.read.replica.read('globex', 'consent', c.id))!;
      const history = { ...entry!, tenant_id: 'acme', import_run_id: null } as SyncRow;
      // acme's own consent and history entry, with globex's ids and times: a row of acme's, beside globex's
      await write(async (tx) => {
        await tx.replica.apply('acme', 'consent', c.id, { ...consent, tenant_id: 'acme' });
        await tx.replica.apply('acme', 'consent_history', entry!.id, history);
      });
      // changed and deleted by id: acme's rows only
      await write(async (tx) => {
        await tx.replica.apply('acme', 'consent_history', entry!.id, { ...history, action: 'revoked' });
        await tx.replica.apply('acme', 'consent', c.id, { ...consent, tenant_id: 'acme', consent_version: '9.9' });
      });
      expect(await tenantState(b, 'globex')).toBe(globex);
      expect((await b.consents.history({ tenant: 'acme', params: { id: c.id } })).map((h) => h.action)).toEqual([
        'revoked',
      ]);
      await write(async (tx) => {
        await tx.replica.apply('acme', 'consent_history', entry!.id, null);
      });
      expect(await tenantState(b, 'globex')).toBe(globex);
      expect(await b.consents.history({ tenant: 'globex', params: { id: c.id } })).toEqual([entry]);
    } finally {
      await b.close();
    }
  });
});
