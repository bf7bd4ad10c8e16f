import type { IncomingMessage } from 'node:http';
import { isExpired, refusal, type KeyGrant, type KeyNeed } from '../domain/api-keys/api-key.rules.js';
import { DomainError } from '../domain/errors.js';

/** What the server needs to know about API keys. */
export interface KeyCheck {
  /** Keys the store has ever had: with none, every request is accepted (and `serve` listens on 127.0.0.1 only). */
  activeCount(): Promise<number>;
  /** The key's grant, or null when it is unknown, revoked or wrong. */
  verify(key: string): Promise<KeyGrant | null>;
  /** Origins of the usable publishable keys: the only origins a CORS preflight is answered for. */
  browserOrigins?(): Promise<ReadonlySet<string>>;
  /** Told of each accepted use; records it cheaply (`last_used_at`). */
  touch?(grant: KeyGrant): void;
}

/** Who made a request: the journal's principal (`key:PREFIX`, `anonymous` without keys) and the key's grant. */
export interface Caller {
  principal: string;
  grant?: KeyGrant;
}

export const ANONYMOUS: Caller = { principal: 'anonymous' };

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Checks the request's bearer key: 401 when missing, malformed, unknown, revoked or expired; its scope comes later. */
export async function authenticate(keys: KeyCheck | undefined, req: IncomingMessage, now: Date): Promise<Caller> {
  if (!keys || (await keys.activeCount()) === 0) return ANONYMOUS;
  const auth = header(req, 'authorization') ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) throw new DomainError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
  const grant = await keys.verify(m[1]!);
  if (!grant) throw new DomainError('unauthorized', 'invalid API key');
  if (isExpired(grant, now))
    throw new DomainError('unauthorized', `API key ${grant.prefix} expired at ${grant.expires_at}`);
  return { principal: `key:${grant.prefix}`, grant };
}

/**
 * Whether the caller may make a request that needs `need`: throws 401 for an expired key and 403 for one used
 * beyond its scope, for another tenant, from a browser (a secret key) or from an origin not listed (a publishable
 * key). Without keys configured every request is allowed, as before keys had scopes.
 */
export function authorize(caller: Caller, need: KeyNeed, now: Date): void {
  if (!caller.grant) return;
  const refused = refusal(caller.grant, need, now);
  if (refused) throw refused;
}

/** Request headers a browser may send cross-origin (the banner sends the first three). */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, X-Tenant-ID, X-User-ID, X-Request-ID';
/** Response headers a page may read: the request id, and when to come back (Retry-After and the quota fields). */
export const CORS_EXPOSE_HEADERS = 'X-Request-ID, Retry-After, RateLimit-Policy, RateLimit';
/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE = 600;
