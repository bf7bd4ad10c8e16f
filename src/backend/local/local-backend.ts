import { bindHandlers } from '../../contract/bind.js';
import { dsfaContract } from '../../contract/dsfa.contract.js';
import { systemClock, type Clock, type IdSource } from '../../domain/clock.js';
import { DsfaService } from '../../domain/dsfa/dsfa.service.js';
import type { Backend } from '../backend.js';
import { isSqliteError, openStore, storageError, type Store, type UpgradeListener } from './database.js';
import type { LlmSettings } from './training.area.js';
import { dirname, join } from 'node:path';
import { SqliteDsfaStore } from './dsfa.sqlite-store.js';
import { uuidv7Source } from './ids.js';

export interface LocalBackend extends Backend {
  store: Store;
}

/** SQLite failures in the middle of an operation (busy, read-only, disk full) become clear storage errors. */
function guard<T extends Record<string, (...a: never[]) => Promise<unknown>>>(file: string, client: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(client)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        throw isSqliteError(e) ? storageError(file, e) : e;
      }
    };
  }
  return out as T;
}

/**
 * An area whose modules (schemas, services) load on its first call, so a command that uses one area does not pay
 * for all of them at start-up. Each method resolves the area once and forwards the call.
 */
function lazy<T extends object>(
  file: string,
  load: () => Promise<Record<string, (...a: never[]) => Promise<unknown>>>,
): T {
  let area: Promise<Record<string, (...a: never[]) => Promise<unknown>>> | undefined;
  return new Proxy({} as T, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined; // never look like a promise
      return async (...args: never[]) => {
        area ??= load().then((a) => guard(file, a));
        const fn = (await area)[name];
        if (!fn) throw new TypeError(`no operation ${name}`);
        return fn(...args);
      };
    },
  });
}

export interface LocalOptions {
  clock?: Clock;
  ids?: IdSource;
  /** Where content generation finds its language model (OLLAMA_HOST, COMPLIANCE_LLM_MODEL). */
  llm?: LlmSettings;
  /** Folder of the media store (default: `media/` beside the database). */
  mediaRoot?: string;
  /** Told before an existing store is upgraded to this version's schema (large stores take a moment). */
  onUpgrade?: UpgradeListener;
}

/** Domain services bound to a store: what the CLI uses by default and what `compliance serve` exposes. */
export function createLocalBackendFromStore(store: Store, opts: LocalOptions = {}): LocalBackend {
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? uuidv7Source();
  const dsfa = new DsfaService(new SqliteDsfaStore(store.db), clock, ids);
  return {
    location: store.file,
    store,
    dsfa: guard(
      store.file,
      bindHandlers(dsfaContract, {
        list: (r) => dsfa.list(r.tenant, r.query),
        create: (r) => dsfa.create(r.tenant, r.actor, r.body),
        stats: (r) => dsfa.stats(r.tenant),
        auditLog: (r) => dsfa.auditLog(r.tenant, r.query),
        get: (r) => dsfa.get(r.tenant, r.params.id),
        update: (r) => dsfa.update(r.tenant, r.actor, r.params.id, r.body),
        setStatus: (r) => dsfa.setStatus(r.tenant, r.actor, r.params.id, r.body),
        delete: (r) => dsfa.delete(r.tenant, r.actor, r.params.id),
      }),
    ),
    consents: lazy(store.file, async () => (await import('./consents.area.js')).createConsentsArea(store, clock, ids)),
    legalDocuments: lazy(store.file, async () =>
      (await import('./legal-documents.area.js')).createLegalDocumentsArea(store.db, clock, ids),
    ),
    cookieBanner: lazy(store.file, async () =>
      (await import('./cookie-banner.area.js')).createCookieBannerArea(store.db, clock),
    ),
    training: lazy(store.file, async () =>
      (await import('./training.area.js')).createTrainingArea(store.db, clock, ids),
    ),
    trainingContent: lazy(store.file, async () =>
      (await import('./training.area.js')).createTrainingContentArea(store.db, clock, ids, opts.llm),
    ),
    canonical: lazy(store.file, async () => (await import('./canonical.area.js')).createCanonicalArea(store.db, clock)),
    trainingBlocks: lazy(store.file, async () =>
      (await import('./training.area.js')).createTrainingBlocksArea(store.db, clock, ids, opts.llm),
    ),
    trainingMedia: lazy(store.file, async () =>
      (await import('./training.area.js')).createTrainingMediaArea(
        store.db,
        clock,
        ids,
        opts.mediaRoot ?? join(dirname(store.file), 'media'),
      ),
    ),
    close: () => store.close(),
  };
}

export async function createLocalBackend(file: string, opts: LocalOptions = {}): Promise<LocalBackend> {
  return createLocalBackendFromStore(await openStore(file, { onUpgrade: opts.onUpgrade }), opts);
}
