import type { Clock, IdSource } from '../../src/domain/clock.js';
import type { Stores, UnitOfWork } from '../../src/domain/unit-of-work.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';
import { toWire } from '../../src/domain/journal/journal.service.js';
import { KyselyJournalStore } from '../../src/store/journal/journal.store.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { atFileEnd } from './file-end.js';
import { tmpDb } from './helpers.js';

/** The unit of work of a fresh SQLite store (a temp file, closed after the test file): what services run on. */
export async function sqliteUnitOfWork(clock: Clock, ids: IdSource): Promise<{ store: Store; uow: UnitOfWork }> {
  const store = await openStore(tmpDb());
  atFileEnd(() => store.close());
  return { store, uow: createUnitOfWork(store, clock, ids) };
}

/** A tenant's journal entries after sequence number `after`, read straight from the store. */
export async function journalOf(store: Store, tenant: string, after = 0): Promise<JournalEntry[]> {
  return (await new KyselyJournalStore(store.db).page(tenant, after, 100_000)).map(toWire);
}

/** The stores of `tx` with one area's store replaced; the others are `tx`'s own. */
export function withStore<K extends keyof Stores>(tx: Stores, key: K, store: Stores[K]): Stores {
  return Object.create(tx, { [key]: { value: store, enumerable: true } }) as Stores;
}

/**
 * The same unit of work with its transactions' stores changed by `wrap` (reads stay as they are): how a test plays a
 * rival replica whose write lands inside our transaction, at the moment the race would have put it.
 */
export function wrapWrites(uow: UnitOfWork, wrap: (tx: Stores) => Stores): UnitOfWork {
  return { read: uow.read, write: (tenant, fn) => uow.write(tenant, (tx) => fn(wrap(tx))) };
}

/** Thrown inside a transaction to roll it back, as a clash with another replica does on PostgreSQL. */
const ROLLBACK = new Error('rolled back');

/**
 * The same unit of work playing PostgreSQL after clashes with other replicas: while `h.conflicts` is above zero, a
 * transaction runs to its end, is rolled back (its journal entries with it) and runs again.
 */
export function rollingBack(uow: UnitOfWork, h: { conflicts: number }): UnitOfWork {
  return {
    read: uow.read,
    async write(tenant, fn) {
      for (; h.conflicts > 0; h.conflicts--)
        await uow
          .write(tenant, async (tx) => {
            await fn(tx);
            throw ROLLBACK;
          })
          .catch((e: unknown) => {
            if (e !== ROLLBACK) throw e;
          });
      return uow.write(tenant, fn);
    },
  };
}
