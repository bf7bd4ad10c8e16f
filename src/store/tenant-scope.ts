import { AsyncLocalStorage } from 'node:async_hooks';

/** On whose behalf a piece of work runs: the tenant, the user the request names, and who made the request. */
export interface RequestScope {
  tenant: string;
  /** The user the request names (`X-User-ID`, `--user`); recorded as the actor of journal entries. */
  actor?: string;
  /** What made the request: an API key (`key:PREFIX`) or an operating-system user (`os:NAME`). */
  principal?: string;
  /** Where its changes came from when another store sent them: `sync:REPLICA` (a push), `bundle:SHA` (an import). */
  origin?: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `fn` on behalf of one tenant. Every query it makes, however deep, runs with that tenant as the
 * row-level-security context on PostgreSQL (the engine reads it when it hands out a connection); the queries keep
 * their own tenant filters, so this is defence in depth. On SQLite it only marks the scope. The actor and principal
 * of an enclosing request are kept.
 */
export function forTenant<T>(tenant: string, fn: () => T): T {
  const outer = scope.getStore();
  return scope.run({ actor: outer?.actor, principal: outer?.principal, tenant }, fn);
}

/** Runs `fn` for one request: its tenant (as forTenant) and who is behind it, for the journal. */
export function forRequest<T>(request: RequestScope, fn: () => T): T {
  return scope.run({ ...request }, fn);
}

/** Runs work in a scope kept earlier (keepScope). */
export type Scoped = <T>(fn: () => T) => T;

/**
 * Keeps the current scope for work that runs later, outside it (a file read as it is sent, after the request's
 * handler returned): the runner runs `fn` in the scope this was called in, so row-level security still applies.
 */
export function keepScope(): Scoped {
  const kept = scope.getStore();
  return (fn) => (kept ? scope.run(kept, fn) : fn());
}

/** The tenant of the current scope; undefined outside one (migrations, administration), where no tenant row is visible. */
export function currentTenant(): string | undefined {
  return scope.getStore()?.tenant;
}

/** The request of the current scope, if any. */
export function currentRequest(): RequestScope | undefined {
  return scope.getStore();
}
