import * as z from 'zod';
import { ApiKey, ApiKeyCreate, ApiKeyList, CreatedApiKey } from '../domain/api-keys/api-key.schema.js';
import { op } from './operation.js';

/**
 * API keys managed through the API by admin keys (our addition). They are the store's, not a tenant's: no tenant
 * header; an admin key that opens named tenants sees and makes only keys within those tenants.
 */
export const apiKeysContract = {
  list: op({
    method: 'GET',
    path: '/keys',
    summary: 'API keys with scope, tenants, origins, expiry and last use, never the keys (admin; our addition)',
    tenant: 'none',
    scope: 'admin',
    output: ApiKeyList,
    status: 200,
  }),
  create: op({
    method: 'POST',
    path: '/keys',
    summary: 'Create an API key; the answer is the only time the key itself is shown (admin; our addition)',
    tenant: 'none',
    scope: 'admin',
    body: ApiKeyCreate,
    output: CreatedApiKey,
    status: 201,
  }),
  revoke: op({
    method: 'DELETE',
    path: '/keys/{id}',
    summary: 'Revoke an API key by id or prefix (admin; our addition)',
    tenant: 'none',
    scope: 'admin',
    params: z.object({ id: z.string().min(1) }),
    output: ApiKey,
    status: 200,
  }),
};
