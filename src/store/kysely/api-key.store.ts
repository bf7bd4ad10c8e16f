import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { DomainError, notFound } from '../../domain/errors.js';
import {
  checkNewKey,
  checkTenants,
  isExpired,
  normalizeOrigin,
  parseExpiry,
  parseScope,
  type KeyGrant,
  type KeyScope,
} from '../../domain/api-keys/api-key.rules.js';
import type { ApiKey, CreatedApiKey } from '../../domain/api-keys/api-key.schema.js';
import type { ApiKeyRow } from '../db-types.js';
import type { Store } from '../store.js';
import { journaledWrite } from '../unit-of-work.js';
import { currentRequest, forRequest } from '../tenant-scope.js';

/** What a new key is: its scope, the tenants it opens (null: every tenant), browser origins, expiry. */
export interface NewKey {
  name?: string;
  scope?: KeyScope | string;
  /** Omitted or null: every tenant (an admin key of the whole store; not for publishable keys). */
  tenants?: string[] | null;
  origins?: string[];
  /** `90d`, `2027-01-31` or an ISO time with Z. */
  expires?: string;
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();

/** The store's own chain in the journal: the empty tenant id, which no request can name. */
const STORE_CHAIN = '';

/** `cmp_` for secret keys, `pk_` for publishable ones (a browser's key is recognisable at a glance). */
const KEY_PATTERN = /^(cmp|pk)_([0-9a-f]{12})_[A-Za-z0-9_-]{16,64}$/;

/** last_used_at is written at most this often per key, so a busy key costs no write per request. */
const TOUCH_EVERY_MS = 60_000;

/** How long the set of publishable origins (what preflights are answered for) is reused. */
const ORIGINS_TTL_MS = 5_000;

const COLUMNS = [
  'id',
  'name',
  'prefix',
  'scope',
  'tenants',
  'origins',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
] as const;

type Row = Omit<ApiKeyRow, 'hash'>;

/** A row as the API and the journal show it (JSON lists decoded). */
const decode = (r: Row): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scope: parseScope(r.scope),
  tenants: r.tenants === null ? null : (JSON.parse(r.tenants) as string[]),
  origins: JSON.parse(r.origins) as string[],
  created_at: r.created_at,
  expires_at: r.expires_at,
  last_used_at: r.last_used_at,
  revoked_at: r.revoked_at,
});

/** A key's row as the journal records it: everything but the hash of the key. */
const journaled = ({ hash: _h, ...row }: ApiKeyRow): Row => row;

/**
 * API keys of `compliance serve`. A key is `cmp_<prefix>_<secret>` (secret scopes) or `pk_<prefix>_<secret>`
 * (publishable); only the SHA-256 of the whole key is stored, the prefix finds the row by its unique index and the
 * hashes are compared in constant time. Creating and revoking a key are journaled in the store's own chain; a key's
 * use (`last_used_at`) is not a change of anyone's data and is not.
 */
export class ApiKeyStore {
  private cache: { at: number; active: number } | undefined;
  private origins: { at: number; set: ReadonlySet<string> } | undefined;
  private readonly touched = new Map<string, number>();
  private readonly db: Store['db'];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    /** Who changes keys when no request says (a command on this machine: its operating-system user). */
    private readonly principal = 'unknown',
  ) {
    this.db = store.db;
  }

  /** A journaled change of the store's chain, by `actor` (the CLI's --user) unless a request names its own. */
  private write<T>(actor: string | undefined, fn: Parameters<typeof journaledWrite<T>>[4]): Promise<T> {
    const run = () => journaledWrite(this.store, STORE_CHAIN, this.clock, this.ids, fn);
    const request = currentRequest();
    return forRequest(
      { tenant: STORE_CHAIN, actor: request?.actor ?? actor, principal: request?.principal ?? this.principal },
      run,
    );
  }

  private forget(): void {
    this.cache = undefined;
    this.origins = undefined;
  }

  /** Creates a key; the result carries the key itself, shown this once. */
  async create(spec: NewKey | string, actor?: string): Promise<CreatedApiKey> {
    const k: NewKey = typeof spec === 'string' ? { name: spec } : spec;
    const name = (k.name ?? 'default').trim();
    if (!name)
      throw new DomainError('validation', 'invalid key name: must not be empty', [
        { path: 'name', message: 'must not be empty' },
      ]);
    const scope = parseScope(k.scope ?? 'admin');
    const tenants = k.tenants == null ? null : checkTenants(k.tenants);
    const origins = [...new Set((k.origins ?? []).map((o) => normalizeOrigin(o)))];
    checkNewKey({ scope, tenants, origins });
    const now = this.clock.now();
    const expires_at = k.expires === undefined ? null : parseExpiry(k.expires, now);
    const prefix = randomBytes(6).toString('hex');
    const key = `${scope === 'publishable' ? 'pk' : 'cmp'}_${prefix}_${randomBytes(24).toString('base64url')}`;
    const row: ApiKeyRow = {
      id: this.ids.next(),
      name,
      prefix,
      hash: sha256(key).toString('hex'),
      scope,
      tenants: tenants === null ? null : JSON.stringify(tenants),
      origins: JSON.stringify(origins),
      created_at: isoZ(now),
      expires_at,
      last_used_at: null,
      revoked_at: null,
    };
    await this.write(actor, async (trx, journal) => {
      journal.put('api_key', row.id, journaled(row), 'insert');
      await trx.insertInto('api_key').values(row).execute();
    });
    this.forget();
    return { ...decode(row), key };
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_key').select(COLUMNS).orderBy('created_at', 'desc').execute();
    return rows.map(decode);
  }

  /** One key by id or prefix (not found: 404 / exit 3). */
  async get(idOrPrefix: string): Promise<ApiKey> {
    const row = await this.db
      .selectFrom('api_key')
      .select(COLUMNS)
      .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
      .executeTakeFirst();
    if (!row) throw notFound('API key', idOrPrefix);
    return decode(row);
  }

  /** Revokes by id or prefix; `allowed` may refuse a key (one beyond the caller's tenants) as not found. */
  async revoke(idOrPrefix: string, actor?: string, allowed: (k: ApiKey) => boolean = () => true): Promise<ApiKey> {
    const revoked = await this.write(actor, async (trx, journal) => {
      const row = await trx
        .selectFrom('api_key')
        .select(COLUMNS)
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
        .executeTakeFirst();
      if (!row || !allowed(decode(row))) throw notFound('API key', idOrPrefix);
      if (row.revoked_at) return row;
      const after = { ...row, revoked_at: isoZ(this.clock.now()) };
      journal.put('api_key', row.id, after);
      await trx.updateTable('api_key').set({ revoked_at: after.revoked_at }).where('id', '=', row.id).execute();
      return after;
    });
    this.forget();
    return decode(revoked);
  }

  /**
   * Number of keys ever created, revoked and expired ones included: once a store has had a key, every request needs
   * one, so revoking the last key (or letting it expire) closes the server instead of opening it. Cached for a second
   * so the server does not ask on every request.
   */
  async activeCount(): Promise<number> {
    const t = Date.now();
    if (this.cache && t - this.cache.at < 1000) return this.cache.active;
    const r = await this.db
      .selectFrom('api_key')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    this.cache = { at: t, active: Number(r.n) };
    return this.cache.active;
  }

  /**
   * The key's grant, or null for a key that is malformed, unknown, revoked or does not match its hash. One indexed
   * lookup by prefix and a constant-time comparison of hashes; an expired key is returned (the caller answers 401).
   */
  async verify(key: string): Promise<KeyGrant | null> {
    const m = KEY_PATTERN.exec(key);
    if (!m) return null;
    const row = await this.db
      .selectFrom('api_key')
      .select(['id', 'hash', 'prefix', 'scope', 'tenants', 'origins', 'expires_at'])
      .where('prefix', '=', m[2]!)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    if (!timingSafeEqual(Buffer.from(row.hash, 'hex'), sha256(key))) return null;
    return {
      id: row.id,
      prefix: row.prefix,
      scope: parseScope(row.scope),
      tenants: row.tenants === null ? null : (JSON.parse(row.tenants) as string[]),
      origins: JSON.parse(row.origins) as string[],
      expires_at: row.expires_at,
    };
  }

  /**
   * Records that a key was used: at most once a minute per key and without waiting, so the hot path gains no write
   * per request. A failed write is dropped: last use is a hint, not a record.
   */
  touch(grant: KeyGrant): void {
    const t = this.clock.now().getTime();
    const last = this.touched.get(grant.id);
    if (last !== undefined && t - last < TOUCH_EVERY_MS) return;
    this.touched.set(grant.id, t);
    this.db
      .updateTable('api_key')
      .set({ last_used_at: new Date(t).toISOString() })
      .where('id', '=', grant.id)
      .execute()
      .catch(() => this.touched.delete(grant.id));
  }

  /**
   * Every origin listed on a publishable key that is neither revoked nor expired: the origins a CORS preflight is
   * answered for (it carries no key). Reused for a few seconds.
   */
  async browserOrigins(): Promise<ReadonlySet<string>> {
    const t = Date.now();
    if (this.origins && t - this.origins.at < ORIGINS_TTL_MS) return this.origins.set;
    const rows = await this.db
      .selectFrom('api_key')
      .select(['origins', 'expires_at'])
      .where('scope', '=', 'publishable')
      .where('revoked_at', 'is', null)
      .execute();
    const now = this.clock.now();
    const set = new Set<string>();
    for (const r of rows) if (!isExpired(r, now)) for (const o of JSON.parse(r.origins) as string[]) set.add(o);
    this.origins = { at: t, set };
    return set;
  }
}
