import { osPrincipal } from './os-principal.js';
import { verifyThreadRows } from './verify-thread-rows.js';
import { importBatchRows } from './import-batch-rows.js';
import { bundleMaxBytes } from './bundle-max.js';
import { bindWith, storeIdResolver } from './short-ids.js';
import { dsfaContract } from '../../contract/dsfa.contract.js';
import { systemClock, type Clock, type IdSource } from '../../domain/clock.js';
import { DsfaService } from '../../domain/dsfa/dsfa.service.js';
import type { Backend } from '../backend.js';
import type { RawRequest } from '../../contract/operation.js';
import { openStore } from '../../store/open-store.js';
import type { OpenOptions, Store, UpgradeListener } from '../../store/store.js';
import { forRequest } from '../../store/tenant-scope.js';
import { createUnitOfWork } from '../../store/unit-of-work.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import type { JournalService } from '../../domain/journal/journal.service.js';
import type { ApiKeyStore } from '../../store/kysely/api-key.store.js';
import type { LlmSettings } from './training.area.js';
import { uuidv7Source } from '../../store/ids.js';

export interface LocalBackend extends Backend {
  store: Store;
  /** The store's one unit of work, which every area, sync, bundles and the events of this backend write through. */
  uow: UnitOfWork;
  /** Every tenant's chain, read past row-level security: what `audit verify` and `db status` check. */
  auditor(): Promise<JournalService>;
  /** The API keys of `compliance serve` (store-wide; journaled in the store's own chain). */
  keys(): Promise<ApiKeyStore>;
}

type Operation = (raw: RawRequest) => Promise<unknown>;

/**
 * Every operation runs in its tenant's scope (the row-level-security key on PostgreSQL), and an engine failure in
 * the middle of it (busy, read-only, disk full, server gone) becomes a clear error instead of a driver's message.
 */
function guard<T extends Record<string, Operation>>(store: Store, client: T, principal: string): T {
  const out: Record<string, Operation> = {};
  for (const [name, fn] of Object.entries(client)) {
    out[name] = async (raw) => {
      const request = { tenant: raw.tenant, actor: raw.actor, principal: raw.principal ?? principal };
      try {
        return await forRequest(request, () => fn({ ...raw, principal: request.principal }));
      } catch (e) {
        throw store.mapError(e);
      }
    };
  }
  return out as T;
}

/**
 * An area whose modules (schemas, services) load on its first call, so a command that uses one area does not pay
 * for all of them at start-up. Each method resolves the area once and forwards the call.
 */
function lazy<T extends object>(store: Store, principal: string, load: () => Promise<Record<string, Operation>>): T {
  let area: Promise<Record<string, Operation>> | undefined;
  return new Proxy({} as T, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined; // never look like a promise
      return async (raw: RawRequest) => {
        area ??= load().then((a) => guard(store, a, principal));
        const fn = (await area)[name];
        if (!fn) throw new TypeError(`no operation ${name}`);
        return fn(raw);
      };
    },
  });
}

export interface LocalOptions {
  clock?: Clock;
  ids?: IdSource;
  /** Where content generation finds its language model (OLLAMA_HOST, COMPLIANCE_LLM_MODEL). */
  llm?: LlmSettings;
  /** An S3-compatible object store for the media instead (`--media`). */
  media?: OpenOptions['media'];
  /** Told before an existing store is upgraded to this version's schema (large stores take a moment). */
  onUpgrade?: UpgradeListener;
  /** Whether a store file that does not exist is created (the default), refused, or read as empty. */
  ifMissing?: OpenOptions['ifMissing'];
  onMissing?: OpenOptions['onMissing'];
  /** PostgreSQL's timeouts from the environment (the URL's parameters win). */
  timeouts?: OpenOptions['timeouts'];
  /** Who makes requests that do not say (the journal's principal): the operating-system user by default. */
  principal?: string;
  /** Rows per transaction of a consent import (COMPLIANCE_IMPORT_BATCH_ROWS, as given): 10,000 by default. */
  importBatchRows?: string;
  /** The most a bundle import takes, in megabytes (COMPLIANCE_BUNDLE_MAX_MB, as given): 2048 by default. */
  bundleMaxMb?: string;
  /** The size from which a verification reads in threads (COMPLIANCE_VERIFY_THREAD_ROWS, as given): 50,000 by default. */
  verifyThreadRows?: string;
}

/** Domain services bound to a store: what the CLI uses by default and what `compliance serve` exposes. */
export function createLocalBackendFromStore(store: Store, opts: LocalOptions = {}): LocalBackend {
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? uuidv7Source();
  const principal = opts.principal ?? osPrincipal();
  const batchRows = importBatchRows(opts.importBatchRows);
  const threadRows = verifyThreadRows(opts.verifyThreadRows);
  const bundleMax = bundleMaxBytes(opts.bundleMaxMb);
  const uow = createUnitOfWork(store, clock, ids);
  const dsfa = new DsfaService(uow, clock, ids);
  const shortIds = storeIdResolver(store.admin);
  // one key store per backend, so the server's caches (key count, browser origins, last use) are shared
  let keyStore: Promise<ApiKeyStore> | undefined;
  const keys = () =>
    (keyStore ??= import('../../store/kysely/api-key.store.js').then(
      (m) => new m.ApiKeyStore(store, clock, ids, principal),
    ));
  return {
    location: store.location,
    store,
    uow,
    dsfa: guard(
      store,
      bindWith(shortIds)(dsfaContract, {
        list: (r) => dsfa.list(r.tenant, r.query),
        create: (r) => dsfa.create(r.tenant, r.actor, r.body),
        stats: (r) => dsfa.stats(r.tenant),
        auditLog: (r) => dsfa.auditLog(r.tenant, r.query),
        get: (r) => dsfa.get(r.tenant, r.params.id),
        update: (r) => dsfa.update(r.tenant, r.actor, r.params.id, r.body, r.principal),
        setStatus: (r) => dsfa.setStatus(r.tenant, r.actor, r.params.id, r.body, r.principal),
        settings: (r) => dsfa.settings(r.tenant),
        updateSettings: (r) => dsfa.updateSettings(r.tenant, r.actor, r.body),
        delete: (r) => dsfa.delete(r.tenant, r.actor, r.params.id),
      }),
      principal,
    ),
    consents: lazy(store, principal, async () =>
      (await import('./consents.area.js')).createConsentsArea(store, uow, clock, ids, batchRows),
    ),
    legalDocuments: lazy(store, principal, async () =>
      (await import('./legal-documents.area.js')).createLegalDocumentsArea(uow, clock, ids, shortIds),
    ),
    cookieBanner: lazy(store, principal, async () =>
      (await import('./cookie-banner.area.js')).createCookieBannerArea(uow, clock),
    ),
    training: lazy(store, principal, async () =>
      (await import('./training.area.js')).createTrainingArea(uow, clock, ids, shortIds),
    ),
    reports: lazy(store, principal, async () => (await import('./reports.area.js')).createReportsArea(uow, clock)),
    trainingContent: lazy(store, principal, async () =>
      (await import('./training.area.js')).createTrainingContentArea(uow, clock, ids, shortIds, opts.llm),
    ),
    canonical: lazy(store, principal, async () => (await import('./canonical.area.js')).createCanonicalArea(uow)),
    trainingBlocks: lazy(store, principal, async () =>
      (await import('./training.area.js')).createTrainingBlocksArea(uow, clock, ids, shortIds, opts.llm),
    ),
    trainingMedia: lazy(store, principal, async () => {
      const objects = await store.mediaObjects();
      return (await import('./training.area.js')).createTrainingMediaArea(uow, clock, ids, objects, shortIds);
    }),
    journal: lazy(store, principal, async () => (await import('./journal.area.js')).createJournalArea(uow)),
    apiKeys: lazy(store, principal, async () => (await import('./api-keys.area.js')).createApiKeysArea(await keys())),
    webhooks: lazy(store, principal, async () =>
      (await import('./webhooks.area.js')).createWebhooksArea(store, uow, clock, ids),
    ),
    notifications: lazy(store, principal, async () =>
      (await import('./notifications.area.js')).createNotificationsArea(uow, clock),
    ),
    sync: lazy(store, principal, async () => (await import('./sync.area.js')).createSyncArea(store, uow, clock)),
    tenants: lazy(store, principal, async () => (await import('./tenants.area.js')).createTenantsArea(uow)),
    bundles: lazy(store, principal, async () =>
      (await import('./bundles.area.js')).createBundlesArea(store, uow, clock, bundleMax),
    ),
    auditor: async () => {
      const [{ createAuditor }, { everyTenantJournal }] = await Promise.all([
        import('./journal.area.js'),
        import('../../store/journal/journal.store.js'),
      ]);
      return createAuditor(everyTenantJournal(store, threadRows));
    },
    keys,
    close: () => store.close(),
  };
}

/** Opens the store at a file path (SQLite) or a postgres:// URL and binds the domain services to it. */
export async function createLocalBackend(target: string, opts: LocalOptions = {}): Promise<LocalBackend> {
  const { onUpgrade, ifMissing, onMissing, timeouts, media } = opts;
  // a wrong setting is refused before the store is opened, or created
  importBatchRows(opts.importBatchRows);
  verifyThreadRows(opts.verifyThreadRows);
  bundleMaxBytes(opts.bundleMaxMb);
  return createLocalBackendFromStore(
    await openStore(target, { onUpgrade, ifMissing, onMissing, timeouts, media }),
    opts,
  );
}
