import type { Kysely } from 'kysely';
import { bindHandlers } from '../../contract/bind.js';
import type { Client, Contract, Handlers, IdResolver } from '../../contract/operation.js';
import { ID_KINDS, resolveId } from '../../domain/short-id.js';
import type { DB } from '../../store/db-types.js';
import { idsMatching } from '../../store/kysely/id-match.js';

/**
 * Short ids resolved in the store. `lookup` is the store's administrative connection: on PostgreSQL, row-level
 * security keeps the planner from using an index on `substr(id, 29)` (substr is not leakproof), so under the policy
 * every lookup would read the tenant's whole table. The lookup filters by the tenant itself and yields ids only; the
 * record is then read under row-level security as always.
 */
export const storeIdResolver =
  (lookup: Kysely<DB>): IdResolver =>
  (kind, tenant, given) =>
    resolveId(given, ID_KINDS[kind], (match, limit) => idsMatching(lookup, kind, tenant, match, limit));

/** `bindHandlers` with the short ids of the contract's operations resolved by `resolve`. */
export const bindWith =
  (resolve: IdResolver) =>
  <C extends Contract>(contract: C, handlers: Handlers<C>): Client<C> =>
    bindHandlers(contract, handlers, resolve);
