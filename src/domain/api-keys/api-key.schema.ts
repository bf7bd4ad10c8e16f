import * as z from 'zod';
import { KEY_SCOPES } from './api-key.rules.js';

/** An API key as `keys list` and `GET /keys` show it: never the key or its hash. */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the 12 hex digits after cmp_ or pk_, also the journal principal key:PREFIX'),
  scope: z.enum(KEY_SCOPES),
  tenants: z
    .array(z.string())
    .nullable()
    .describe('the tenants the key opens; null: every tenant (keys stored before scopes existed)'),
  origins: z.array(z.string()).describe('browser origins of a publishable key (scheme://host[:port])'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe('recorded at most once a minute per key'),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** A key just created: the only time the key itself is shown. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyCreate = z.object({
  name: z.string().min(1).default('default'),
  scope: z.enum(KEY_SCOPES),
  tenants: z
    .array(z.string())
    .min(1)
    .nullable()
    .describe('the tenants the key opens; null: every tenant (only an admin key of every tenant may say so)'),
  origins: z.array(z.string()).default([]).describe('required for a publishable key, refused for the others'),
  expires: z.string().optional().describe('90d, 2027-01-31 (valid through that day, UTC) or an ISO time with Z'),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyList = z.array(ApiKey);
