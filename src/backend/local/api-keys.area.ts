import { bindHandlers } from '../../contract/bind.js';
import { apiKeysContract } from '../../contract/api-keys.contract.js';
import type { ApiKey } from '../../domain/api-keys/api-key.schema.js';
import { DomainError } from '../../domain/errors.js';
import type { ApiKeyStore } from '../../store/kysely/api-key.store.js';

/** Whether a key opens nothing beyond `mine` (null: the caller opens every tenant). */
const within = (mine: string[] | null | undefined, theirs: string[] | null): boolean =>
  mine == null || (theirs !== null && theirs.every((t) => mine.includes(t)));

/**
 * Key management through the API. An admin key of every tenant manages every key; an admin key of named tenants
 * lists, creates and revokes only keys within its tenants (others read as not found), so it cannot widen itself.
 */
export function createApiKeysArea(keys: ApiKeyStore) {
  return bindHandlers(apiKeysContract, {
    list: async (r) => (await keys.list()).filter((k: ApiKey) => within(r.keyTenants, k.tenants)),
    create: async (r) => {
      if (!within(r.keyTenants, r.body.tenants))
        throw new DomainError('forbidden', `this key may only create keys for tenants ${r.keyTenants!.join(', ')}`, [
          { path: 'tenants', message: `within ${r.keyTenants!.join(', ')}` },
        ]);
      return keys.create(r.body, r.actor);
    },
    revoke: (r) => keys.revoke(r.params.id, r.actor, (k) => within(r.keyTenants, k.tenants)),
  });
}
