import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Store } from '../store.js';
import { journaledWrite } from '../unit-of-work.js';
import { currentRequest, forRequest } from '../tenant-scope.js';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();

/** The store's own chain in the journal: the empty tenant id, which no request can name. */
const STORE_CHAIN = '';

/** A key's row as the journal records it: everything but the hash of the key. */
const journaled = ({ hash: _h, ...info }: ApiKeyInfo & { hash?: string }): ApiKeyInfo => info;

/**
 * API keys of `compliance serve`. A key is `cmp_<prefix>_<secret>`; only the SHA-256 of the whole key is stored,
 * the prefix finds the row and the hashes are compared in constant time. Creating and revoking a key are journaled
 * in the store's own chain; a key's use (`last_used_at`) is not a change of anyone's data and is not.
 */
export class ApiKeyStore {
  private cache: { at: number; active: number } | undefined;
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
    return request ? run() : forRequest({ tenant: STORE_CHAIN, actor, principal: this.principal }, run);
  }

  async create(name: string, actor?: string): Promise<ApiKeyInfo & { key: string }> {
    if (!name.trim())
      throw new DomainError('validation', 'invalid key name: must not be empty', [
        { path: 'name', message: 'must not be empty' },
      ]);
    const prefix = randomBytes(6).toString('hex');
    const key = `cmp_${prefix}_${randomBytes(24).toString('base64url')}`;
    const row = {
      id: this.ids.next(),
      name: name.trim(),
      prefix,
      hash: sha256(key).toString('hex'),
      created_at: isoZ(this.clock.now()),
      last_used_at: null,
      revoked_at: null,
    };
    await this.write(actor, async (trx, journal) => {
      journal.put('api_key', row.id, journaled(row), 'insert');
      await trx.insertInto('api_key').values(row).execute();
    });
    this.cache = undefined;
    const { hash: _h, ...info } = row;
    return { ...info, key };
  }

  async list(): Promise<ApiKeyInfo[]> {
    return this.db
      .selectFrom('api_key')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** Revokes by id or prefix. */
  async revoke(idOrPrefix: string, actor?: string): Promise<ApiKeyInfo> {
    const revoked = await this.write(actor, async (trx, journal) => {
      const row = await trx
        .selectFrom('api_key')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
        .executeTakeFirst();
      if (!row) throw notFound('API key', idOrPrefix);
      if (row.revoked_at) return row;
      const after = { ...row, revoked_at: isoZ(this.clock.now()) };
      journal.put('api_key', row.id, after);
      await trx.updateTable('api_key').set({ revoked_at: after.revoked_at }).where('id', '=', row.id).execute();
      return after;
    });
    this.cache = undefined;
    return revoked;
  }

  /** Number of usable keys, cached for a second so the server does not ask on every request. */
  async activeCount(): Promise<number> {
    const t = Date.now();
    if (this.cache && t - this.cache.at < 1000) return this.cache.active;
    const r = await this.db
      .selectFrom('api_key')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    this.cache = { at: t, active: Number(r.n) };
    return this.cache.active;
  }

  async verify(key: string): Promise<boolean> {
    const m = /^cmp_([0-9a-f]{12})_[A-Za-z0-9_-]+$/.exec(key);
    if (!m) return false;
    const row = await this.db
      .selectFrom('api_key')
      .select(['id', 'hash'])
      .where('prefix', '=', m[1]!)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return false;
    const ok = timingSafeEqual(Buffer.from(row.hash, 'hex'), sha256(key));
    return ok;
  }
}
