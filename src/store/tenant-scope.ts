import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `fn` on behalf of one tenant. Every query it makes, however deep, runs with that tenant as the
 * row-level-security context on PostgreSQL (the engine reads it when it hands out a connection); the queries keep
 * their own tenant filters, so this is defence in depth. On SQLite it only marks the scope.
 */
export function forTenant<T>(tenant: string, fn: () => T): T {
  return scope.run(tenant, fn);
}

/** The tenant of the current scope; undefined outside one (migrations, administration), where no tenant row is visible. */
export function currentTenant(): string | undefined {
  return scope.getStore();
}
