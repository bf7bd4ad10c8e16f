import { bindWith, storeIdResolver } from './short-ids.js';
import { consentsContract } from '../../contract/consents.contract.js';
import type { Clock, IdSource } from '../../domain/clock.js';
import { generateKeyPairSync } from 'node:crypto';
import { ConsentService } from '../../domain/consents/consent.service.js';
import { ConsentReceiptService } from '../../domain/consents/receipt.service.js';
import { importConsents } from './consents.import.js';
import { ImportRunService } from '../../domain/consents/import-run.service.js';
import type { Store } from '../../store/store.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The consent routes bound to a store; an import writes `batchRows` rows per transaction. */
export function createConsentsArea(store: Store, uow: UnitOfWork, clock: Clock, ids: IdSource, batchRows: number) {
  const svc = new ConsentService(uow, clock, ids);
  const runs = new ImportRunService(uow, clock);
  const receipts = new ConsentReceiptService(uow, clock, () =>
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  return bindWith(storeIdResolver(store.admin))(consentsContract, {
    list: (r) => svc.list(r.tenant, r.query),
    create: async (r) => {
      const { consent: c, outcome, revoked } = await svc.create(r.tenant, r.body);
      return {
        success: true,
        id: c.id,
        user_id: c.user_id,
        data_point_id: c.data_point_id,
        granted: c.granted,
        granted_at: c.granted_at,
        outcome,
        revoked_consent_ids: revoked,
      };
    },
    get: (r) => svc.get(r.tenant, r.params.id),
    stats: (r) => svc.stats(r.tenant),
    import: (r) =>
      importConsents(store, { tenant: r.tenant, actor: r.actor, clock, ids, uow, batchRows }, r.stream!, r.query),
    imports: (r) => runs.list(r.tenant, r.query),
    importRun: (r) => runs.get(r.tenant, r.params.id),
    revertImport: (r) => runs.revert(r.tenant, r.actor ?? 'system', r.params.id),
    export: async (r) => ({
      content_type: r.query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      body: await store.exportConsents(r.tenant, r.query),
    }),
    revoke: async (r) => {
      const c = await svc.revoke(r.tenant, r.params.id);
      return { success: true, id: c.id, revoked_at: c.revoked_at! };
    },
    renew: (r) => svc.renew(r.tenant, r.params.id, r.body.consent_version),
    history: (r) => svc.history(r.tenant, r.params.id),
    receipt: (r) => receipts.receipt(r.tenant, r.params.id),
  });
}
