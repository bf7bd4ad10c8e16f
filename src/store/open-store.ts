import { engineOf, type OpenOptions, type Store } from './store.js';

// A module of its own, so that the port (store.ts) does not import the engines that implement it; each engine is
// loaded only when a store of its kind is opened.

/** Opens the store at a file path (SQLite) or a postgres:// URL, creating and migrating it as needed. */
export async function openStore(target: string, opts: OpenOptions = {}): Promise<Store> {
  if (engineOf(target) === 'postgres') {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(target, opts);
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(target, opts);
}
