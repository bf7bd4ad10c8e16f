import { DomainError } from '../errors.js';
import { TENANT_PATTERN, TENANT_RULE } from '../tenant.js';

/**
 * What an API key may do, least first: `publishable` (a browser's key: the banner, published documents, recording
 * consents), `read`, `write`, `admin` (also keys and webhooks). Each scope includes the ones before it, except that
 * only a publishable key is accepted from a browser.
 */
export const KEY_SCOPES = ['publishable', 'read', 'write', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const RANK: Record<KeyScope, number> = { publishable: 0, read: 1, write: 2, admin: 3 };

/** What a verified key may do: its scope, the tenants it opens (`null`: every tenant), its browser origins. */
export interface KeyGrant {
  id: string;
  prefix: string;
  scope: KeyScope;
  /** `null` for a key stored before scopes existed (migration 0020): every tenant. */
  tenants: string[] | null;
  origins: string[];
  expires_at: string | null;
}

/** What one request needs of its key. */
export interface KeyNeed {
  scope: KeyScope;
  /** The request's method: a secret key needs write for any change, also on a publishable route. */
  method: string;
  /** Absent on routes that name no tenant (key management). */
  tenant?: string;
  /** The request's Origin header: sent by browsers, never by the CLI. */
  origin?: string;
}

export function parseScope(value: string, path = 'scope'): KeyScope {
  if ((KEY_SCOPES as readonly string[]).includes(value)) return value as KeyScope;
  const rule = `expected one of ${KEY_SCOPES.join(', ')}`;
  throw new DomainError('validation', `invalid ${path} "${value}": ${rule}`, [{ path, message: rule }]);
}

const ORIGIN_RULE = 'an origin: http or https, a host and an optional port, no path (https://www.example.com)';

/**
 * What an origin looks like before the URL parser normalises it: scheme, `://`, the host with an optional port, at
 * most a trailing slash. No user (`https://@host` and `https://:@host` too, which the parser would reduce to the bare
 * host), no path, query or fragment (a bare `?` or `#` included), no backslash or space the parser would repair.
 */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\\\s]+\/?$/i;

/**
 * The origin exactly as a browser sends it in its Origin header (lower-case scheme and host, the default port left
 * out), so a stored origin and a request's compare as strings.
 */
export function normalizeOrigin(value: string, path = 'origins'): string {
  const fail = () =>
    new DomainError('validation', `invalid ${path} "${value}": expected ${ORIGIN_RULE}`, [
      { path, message: `"${value}": expected ${ORIGIN_RULE}` },
    ]);
  if (!ORIGIN_SHAPE.test(value)) throw fail();
  try {
    return new URL(value).origin;
  } catch {
    throw fail();
  }
}

export function checkTenants(tenants: readonly string[], path = 'tenants'): string[] {
  if (tenants.length === 0)
    throw new DomainError('validation', `${path}: name at least one tenant`, [{ path, message: 'at least one' }]);
  for (const t of tenants)
    if (!TENANT_PATTERN.test(t))
      throw new DomainError('validation', `invalid tenant "${t}": ${TENANT_RULE}`, [{ path, message: TENANT_RULE }]);
  return [...new Set(tenants)];
}

const DAY_MS = 86_400_000;
const EXPIRY_RULE = 'a number of days (90d), a date (2027-01-31: valid through that day, UTC) or an ISO time with Z';

/** The expiry of a new key from `90d`, `2027-01-31` or an ISO timestamp; it must lie in the future. */
export function parseExpiry(value: string, now: Date, path = 'expires'): string {
  const fail = (why = `expected ${EXPIRY_RULE}`) =>
    new DomainError('validation', `invalid ${path} "${value}": ${why}`, [{ path, message: why }]);
  let at: Date;
  const days = /^(\d{1,5})d$/.exec(value);
  if (days) at = new Date(now.getTime() + Number(days[1]) * DAY_MS);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) throw fail();
    at = new Date(d.getTime() + DAY_MS);
  } else if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value)) {
    at = new Date(value);
    if (Number.isNaN(at.getTime())) throw fail();
  } else throw fail();
  if (at.getTime() <= now.getTime()) throw fail('lies in the past: a key must expire in the future');
  return at.toISOString();
}

/** What a new key is allowed to be: a publishable key names its tenants and at least one origin, a secret one none. */
export function checkNewKey(k: { scope: KeyScope; tenants: string[] | null; origins: string[] }): void {
  if (k.scope === 'publishable') {
    if (k.tenants === null)
      throw new DomainError('validation', 'a publishable key names its tenants (--tenant)', [
        { path: 'tenants', message: 'required for a publishable key' },
      ]);
    if (k.origins.length === 0)
      throw new DomainError('validation', 'a publishable key needs at least one origin (--origin https://…)', [
        { path: 'origins', message: 'at least one for a publishable key' },
      ]);
  } else if (k.origins.length > 0)
    throw new DomainError(
      'validation',
      `origins are for publishable keys only: a ${k.scope} key is refused from every browser`,
      [{ path: 'origins', message: 'only with scope publishable' }],
    );
}

export const isExpired = (g: Pick<KeyGrant, 'expires_at'>, now: Date): boolean =>
  g.expires_at !== null && Date.parse(g.expires_at) <= now.getTime();

/** Whether `grant` may make a request that needs `need`; the refusal says why (401 for an expired key, else 403). */
export function refusal(grant: KeyGrant, need: KeyNeed, now: Date): DomainError | undefined {
  const key = `API key ${grant.prefix}`;
  if (isExpired(grant, now)) return new DomainError('unauthorized', `${key} expired at ${grant.expires_at}`);
  if (grant.scope === 'publishable') {
    if (need.scope !== 'publishable')
      return new DomainError(
        'forbidden',
        `${key} is publishable: it may only read the banner configuration and published documents and record consents`,
      );
    if (need.origin === undefined)
      return new DomainError(
        'forbidden',
        `${key} is publishable: it is accepted only from its origins (Origin header)`,
      );
    if (!grant.origins.includes(need.origin))
      return new DomainError('forbidden', `${key} is not valid for origin ${need.origin}`);
  } else {
    if (need.origin !== undefined)
      return new DomainError(
        'forbidden',
        `${key} is a secret (${grant.scope}) key and is refused from a browser (Origin ${need.origin}): use a publishable key`,
      );
    // what a browser may do with a publishable key, a secret key does by its method: a read key never writes
    const wanted = need.scope === 'publishable' ? (need.method === 'GET' ? 'read' : 'write') : need.scope;
    if (RANK[grant.scope] < RANK[wanted])
      return new DomainError('forbidden', `${key} has scope ${grant.scope}: this operation needs ${wanted}`);
  }
  if (need.tenant !== undefined && grant.tenants !== null && !grant.tenants.includes(need.tenant))
    return new DomainError('forbidden', `${key} is not valid for tenant ${need.tenant}`);
  return undefined;
}

/** The least scope an operation needs: its own, else read for GET and write for the rest. */
export const neededScope = (op: { method: string; scope?: KeyScope }): KeyScope =>
  op.scope ?? (op.method === 'GET' ? 'read' : 'write');
