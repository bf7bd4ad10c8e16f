import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { isoZ, type Clock, type IdSource } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import type { Stores, UnitOfWork } from '../domain/unit-of-work.js';
import type { DB } from './db-types.js';
import { JournalWriter, readOnly, type Recorder } from './journal/journal-writer.js';
import { KyselyConsentStore } from './kysely/consent.store.js';
import { KyselyCookieBannerStore } from './kysely/cookie-banner.store.js';
import { KyselyDsfaStore } from './kysely/dsfa.store.js';
import { KyselyLegalDocumentStore } from './kysely/legal-document.store.js';
import { KyselyCanonicalStore } from './kysely/canonical.store.js';
import { KyselyTrainingBlockStore } from './kysely/training-block.store.js';
import { KyselyTrainingContentStore } from './kysely/training-content.store.js';
import { KyselyTrainingMediaStore } from './kysely/training-media.store.js';
import { KyselyTrainingStore } from './kysely/training.store.js';
import type { Store } from './store.js';
import { currentRequest } from './tenant-scope.js';
import { writeTransaction } from './transaction.js';
import { KeyedMutex } from './keyed-mutex.js';

/** Every area's store over one connection (or transaction), each made when first asked for. */
function bindStores(db: Kysely<DB>, journal: Recorder, clock: Clock): Stores {
  const made = new Map<keyof Stores, unknown>();
  const lazy = <K extends keyof Stores>(key: K, make: () => Stores[K]) => ({
    get: () => (made.get(key) ?? made.set(key, make()).get(key)) as Stores[K],
    enumerable: true,
  });
  return Object.defineProperties({} as Stores, {
    dsfa: lazy('dsfa', () => new KyselyDsfaStore(db, journal)),
    consents: lazy('consents', () => new KyselyConsentStore(db, journal)),
    legalDocuments: lazy('legalDocuments', () => new KyselyLegalDocumentStore(db, journal)),
    cookieBanner: lazy('cookieBanner', () => new KyselyCookieBannerStore(db, journal)),
    training: lazy('training', () => new KyselyTrainingStore(db, journal)),
    trainingContent: lazy('trainingContent', () => new KyselyTrainingContentStore(db, journal)),
    trainingMedia: lazy('trainingMedia', () => new KyselyTrainingMediaStore(db, journal)),
    trainingBlocks: lazy('trainingBlocks', () => new KyselyTrainingBlockStore(db, journal)),
    canonical: lazy('canonical', () => new KyselyCanonicalStore(db, clock, journal)),
  });
}

interface Active {
  tenant: string;
  tx: Stores;
}

/**
 * Benchmarks only (`npm run bench` compares the same build with and without the journal): COMPLIANCE_BENCH_NO_JOURNAL=1
 * skips the appends. A store written that way has changes without entries, which `audit verify` cannot see.
 */
const journalOff = () => process.env.COMPLIANCE_BENCH_NO_JOURNAL === '1';

/**
 * The unit of work of a store: one transaction per change (serialised per tenant), every area's store inside it,
 * and the journal entries of everything the stores wrote appended just before it commits. Actor and principal come
 * from the request scope (tenant-scope.ts): the user the request names, and the key or operating-system user that
 * made it.
 */
export function createUnitOfWork(store: Store, clock: Clock, ids: IdSource): UnitOfWork {
  const active = new AsyncLocalStorage<Active>();
  const queue = new KeyedMutex();
  return {
    read: bindStores(store.db, readOnly, clock),
    write<T>(tenant: string, fn: (tx: Stores) => Promise<T>): Promise<T> {
      const outer = active.getStore();
      if (outer) {
        if (outer.tenant !== tenant)
          throw new DomainError('internal', `a unit of work of tenant ${outer.tenant} cannot write for ${tenant}`);
        return fn(outer.tx);
      }
      // a tenant's writers of this process queue here, so waiting for the tenant's turn holds no connection
      return queue.run(tenant, () =>
        writeTransaction(
          store.db,
          async (trx) => {
            const request = currentRequest();
            const journal = new JournalWriter(tenant, {
              txn: ids.next(),
              time: isoZ(clock.now()),
              actor: request?.actor ?? 'system',
              principal: request?.principal ?? 'unknown',
            });
            const tx = bindStores(trx, journal, clock);
            const result = await active.run({ tenant, tx }, () => fn(tx));
            if (!journalOff()) await journal.flush(trx);
            return result;
          },
          { lock: tenant },
        ),
      );
    },
  };
}
