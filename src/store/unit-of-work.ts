import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { isoZ, type Clock, type IdSource } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import type { Stores, UnitOfWork } from '../domain/unit-of-work.js';
import type { DB } from './db-types.js';
import { JournalWriter, readOnly, type Recorder } from './journal/journal-writer.js';
import { KyselyConsentStore } from './kysely/consent.store.js';
import { KyselyImportRunStore } from './kysely/consent-import-run.store.js';
import { KyselyCookieBannerStore } from './kysely/cookie-banner.store.js';
import { KyselyDsfaStore } from './kysely/dsfa.store.js';
import { KyselyLegalDocumentStore } from './kysely/legal-document.store.js';
import { KyselyNotificationStore } from './kysely/notification.store.js';
import { KyselyCanonicalStore } from './kysely/canonical.store.js';
import { KyselyTrainingBlockStore } from './kysely/training-block.store.js';
import { KyselyTrainingContentStore } from './kysely/training-content.store.js';
import { KyselyTrainingMediaStore } from './kysely/training-media.store.js';
import { KyselyTrainingStore } from './kysely/training.store.js';
import { KyselyReplicaStore } from './kysely/replica.store.js';
import { KyselySyncStateStore } from './kysely/sync-state.store.js';
import { KyselyWebhookStore } from './events/webhook.store.js';
import { KyselyJournalStore } from './journal/journal.store.js';
import { KyselyManagementReportStore } from './kysely/management-report.store.js';
import { KyselyTenantStore } from './kysely/tenant.store.js';
import type { Store } from './store.js';
import { currentRequest } from './tenant-scope.js';
import { writeTransaction } from './transaction.js';
import { KeyedMutex } from './keyed-mutex.js';
import { ConnectionLostError } from './connection-lost.js';

/** Every area's store over one connection (or transaction), each made when first asked for. */
function bindStores(db: Kysely<DB>, journal: Recorder, clock: Clock, everyTenant: Kysely<DB> = db): Stores {
  const made = new Map<keyof Stores, unknown>();
  const lazy = <K extends keyof Stores>(key: K, make: () => Stores[K]) => ({
    get: () => (made.get(key) ?? made.set(key, make()).get(key)) as Stores[K],
    enumerable: true,
  });
  return Object.defineProperties({} as Stores, {
    dsfa: lazy('dsfa', () => new KyselyDsfaStore(db, journal)),
    consents: lazy('consents', () => new KyselyConsentStore(db, journal)),
    consentImports: lazy('consentImports', () => new KyselyImportRunStore(db, journal)),
    legalDocuments: lazy('legalDocuments', () => new KyselyLegalDocumentStore(db, journal)),
    cookieBanner: lazy('cookieBanner', () => new KyselyCookieBannerStore(db, journal)),
    training: lazy('training', () => new KyselyTrainingStore(db, journal)),
    trainingContent: lazy('trainingContent', () => new KyselyTrainingContentStore(db, journal)),
    trainingMedia: lazy('trainingMedia', () => new KyselyTrainingMediaStore(db, journal)),
    trainingBlocks: lazy('trainingBlocks', () => new KyselyTrainingBlockStore(db, journal)),
    canonical: lazy('canonical', () => new KyselyCanonicalStore(db, clock, journal)),
    notifications: lazy('notifications', () => new KyselyNotificationStore(db, journal)),
    replica: lazy('replica', () => new KyselyReplicaStore(db, journal, everyTenant)),
    syncState: lazy('syncState', () => new KyselySyncStateStore(db)),
    webhooks: lazy('webhooks', () => new KyselyWebhookStore(db)),
    journal: lazy('journal', () => new KyselyJournalStore(db)),
    reports: lazy('reports', () => new KyselyManagementReportStore(db)),
    tenants: lazy('tenants', () => new KyselyTenantStore(everyTenant)),
  });
}

/** The write a store runs in now: its tenant, its transaction and journal, and every area's store over them. */
interface Active {
  tenant: string;
  trx: Kysely<DB>;
  journal: JournalWriter;
  tx?: Stores;
}

/**
 * Benchmarks only (`npm run bench` compares the same build with and without the journal): COMPLIANCE_BENCH_NO_JOURNAL=1
 * skips the appends. A store written that way has changes without entries, which `audit verify` cannot see.
 */
const journalOff = () => process.env.COMPLIANCE_BENCH_NO_JOURNAL === '1';

/**
 * The write each store runs in now, in this async context: one per store, not per unit of work, so a write inside
 * another of the same store joins it whichever door of that store it comes through (a unit of work, another one, the
 * API keys' journaledWrite); a second transaction would queue behind the one it runs in, which waits for it.
 */
const activeOf = new WeakMap<Store, AsyncLocalStorage<Active>>();

function activeWrites(store: Store): AsyncLocalStorage<Active> {
  let active = activeOf.get(store);
  if (!active) activeOf.set(store, (active = new AsyncLocalStorage<Active>()));
  return active;
}

/** Each store's queue of writers per tenant (see KeyedMutex). */
const queues = new WeakMap<Store, KeyedMutex>();

/** The error of each write that got no answer, as the writers queued behind it fail with it. */
const notTried = new WeakMap<object, Error>();

/**
 * A writer queued behind a write of its tenant that got no answer from the database is not tried: it would wait out
 * a timeout of its own after that one's, and the last of many queued writers would answer only after all of them
 * (the bound docs/server.md promises is one timeout). It fails with an error saying it was not tried (nothing saved).
 */
function passOnNoAnswer(failure: unknown): Error | undefined {
  if (!(failure instanceof ConnectionLostError) || failure.kind !== 'timeout') return undefined;
  let passed = notTried.get(failure);
  if (!passed) {
    const why = failure.message.split('\n')[0];
    passed = new ConnectionLostError(
      `a write of this tenant queued before this one got no answer (${why}); this one was not tried`,
      failure,
      'timeout',
      false,
    );
    notTried.set(failure, passed);
    notTried.set(passed, passed);
  }
  return passed;
}

/**
 * One journaled transaction of one tenant: `fn` writes through `trx` and tells `journal` what it wrote; the entries
 * are appended just before the commit, in the same transaction. Writers of one tenant of this process queue in
 * memory (so waiting for the tenant's turn holds no connection), then on the tenant's lock (see writeTransaction).
 * Actor and principal come from the request scope (tenant-scope.ts). `fn` may run more than once. Inside a write of
 * the same store and tenant `fn` joins it (its transaction and journal); inside one of another tenant it is refused.
 */
export function journaledWrite<T>(
  store: Store,
  tenant: string,
  clock: Clock,
  ids: IdSource,
  fn: (trx: Kysely<DB>, journal: JournalWriter) => Promise<T>,
): Promise<T> {
  return joined(store, tenant, (outer) => fn(outer.trx, outer.journal)) ?? begin(store, tenant, clock, ids, fn);
}

/** `fn` inside the write this store runs in now, or undefined outside any. */
function joined<T>(store: Store, tenant: string, fn: (outer: Active) => Promise<T>): Promise<T> | undefined {
  const outer = activeWrites(store).getStore();
  if (!outer) return undefined;
  if (outer.tenant !== tenant)
    return Promise.reject(
      new DomainError('internal', `a write of tenant ${outer.tenant} cannot write for tenant ${tenant}`),
    );
  return fn(outer);
}

function begin<T>(
  store: Store,
  tenant: string,
  clock: Clock,
  ids: IdSource,
  fn: (trx: Kysely<DB>, journal: JournalWriter) => Promise<T>,
): Promise<T> {
  let queue = queues.get(store);
  if (!queue) queues.set(store, (queue = new KeyedMutex()));
  return queue.run(
    tenant,
    () =>
      writeTransaction(
        store.db,
        async (trx) => {
          const request = currentRequest();
          let txn: string | undefined;
          const journal = new JournalWriter(tenant, {
            // drawn with the first entry: a transaction that journals nothing (a sync's bookkeeping) draws no id
            get txn() {
              return (txn ??= ids.next());
            },
            time: isoZ(clock.now()),
            actor: request?.actor ?? 'system',
            principal: request?.principal ?? 'unknown',
            origin: request?.origin ?? null,
          });
          const result = await activeWrites(store).run({ tenant, trx, journal }, () => fn(trx, journal));
          if (!journalOff()) await journal.flush(trx);
          return result;
        },
        { lock: tenant },
      ),
    passOnNoAnswer,
  );
}

/**
 * The unit of work of a store: one journaled transaction per change (journaledWrite) with every area's store inside
 * it. A write inside another of the same store and tenant joins it, through this unit of work or another of the
 * store. The backend composes one per store (local-backend.ts) and hands it to every area, sync, bundles and keys.
 */
export function createUnitOfWork(store: Store, clock: Clock, ids: IdSource): UnitOfWork {
  const storesOf = (w: Active) => (w.tx ??= bindStores(w.trx, w.journal, clock, store.everyTenant(w.trx)));
  return {
    read: bindStores(store.db, readOnly, clock, store.everyTenant(store.db)),
    write<T>(tenant: string, fn: (tx: Stores) => Promise<T>): Promise<T> {
      return (
        joined(store, tenant, (outer) => fn(storesOf(outer))) ??
        begin(store, tenant, clock, ids, () => fn(storesOf(activeWrites(store).getStore()!)))
      );
    },
  };
}
