import { isoZ, type Clock, type IdSource } from '../clock.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { summarize } from '../validation.js';
import { consentTimeProblems } from './consent.rules.js';
import type {
  Consent,
  ConsentHistoryEntry,
  ConsentInput,
  ConsentListQuery,
  ConsentStats,
  ConsentWithHistory,
} from './consent.schema.js';
import type { ConsentCountRow, ConsentStore } from './consent.store.js';
import type { UnitOfWork } from '../unit-of-work.js';

export const isActive = (c: Pick<Consent, 'granted' | 'revoked_at'>): boolean => c.granted && c.revoked_at === null;

/** conversion_rate = 100 × granted / total, one decimal, 0 without consents (decisions.md). */
export function statsFromCounts(rows: ConsentCountRow[], uniqueUsers: number): ConsentStats {
  const by: ConsentStats['by_data_point'] = {};
  let total = 0,
    active = 0,
    revoked = 0,
    granted = 0;
  for (const r of rows) {
    const d = (by[r.data_point_id] ??= { total: 0, active: 0, revoked: 0 });
    d.total += r.n;
    total += r.n;
    if (r.granted) granted += r.n;
    if (r.revoked) {
      d.revoked += r.n;
      revoked += r.n;
    } else if (r.granted) {
      d.active += r.n;
      active += r.n;
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(by)
      .sort()
      .map((k) => [k, by[k]!]),
  );
  return {
    total_consents: total,
    active_consents: active,
    revoked_consents: revoked,
    unique_users: uniqueUsers,
    conversion_rate: total ? Math.round((1000 * granted) / total) / 10 : 0,
    by_data_point: sorted,
  };
}

/** The new consent and its history for one validated input: granted, and revoked when the input says so. */
export function newConsent(
  tenant: string,
  input: ConsentInput,
  now: string,
  ids: IdSource,
): { consent: Consent; history: ConsentHistoryEntry[] } {
  const granted_at = input.granted_at ? new Date(input.granted_at).toISOString() : now;
  const revoked_at = input.revoked_at ? new Date(input.revoked_at).toISOString() : null;
  const consent: Consent = {
    id: ids.next(),
    tenant_id: tenant,
    user_id: input.user_id,
    data_point_id: input.data_point_id,
    granted: input.granted,
    granted_at,
    revoked_at,
    consent_version: input.consent_version,
    source: input.source ?? null,
    ip_address: input.ip_address ?? null,
    user_agent: input.user_agent ?? null,
    created_at: now,
    banner_revision: input.banner_revision ?? null,
    policy_version_id: input.policy_version_id ?? null,
    policy_content_hash: input.policy_content_hash ?? null,
  };
  const entry = (action: ConsentHistoryEntry['action'], at: string, withClient: boolean): ConsentHistoryEntry => ({
    id: ids.next(),
    consent_id: consent.id,
    action,
    consent_version: consent.consent_version,
    ip_address: withClient ? consent.ip_address : null,
    user_agent: withClient ? consent.user_agent : null,
    source: withClient ? consent.source : null,
    created_at: at,
  });
  const history = [entry('granted', granted_at, true)];
  if (revoked_at) history.push(entry('revoked', revoked_at, false));
  return { consent, history };
}

/** Consents per user and data point, with an append-only history. */
export class ConsentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  private get store(): ConsentStore {
    return this.uow.read.consents;
  }

  private async mustGet(s: ConsentStore, tenant: string, id: string): Promise<Consent> {
    const c = await s.get(tenant, id);
    if (!c) throw notFound('consent', id);
    return c;
  }

  async create(tenant: string, input: ConsentInput): Promise<Consent> {
    const now = this.clock.now();
    const problems = consentTimeProblems(input, now);
    if (problems.length) throw new DomainError('validation', `invalid body: ${summarize(problems)}`, problems);
    const { consent, history } = newConsent(tenant, input, isoZ(now), this.ids);
    await this.uow.write(tenant, (tx) => tx.consents.insert(consent, history));
    return consent;
  }

  async list(
    tenant: string,
    q: ConsentListQuery,
  ): Promise<{ total: number; offset: number; limit: number; consents: ConsentWithHistory[] }> {
    const { total, rows } = await this.store.list(tenant, q);
    const histories = await this.store.histories(
      tenant,
      rows.map((r) => r.id),
    );
    return {
      total,
      offset: q.offset,
      limit: q.limit,
      consents: rows.map((r) => ({ ...r, history: histories.get(r.id) ?? [] })),
    };
  }

  revoke(tenant: string, id: string): Promise<Consent> {
    return this.uow.write(tenant, async ({ consents: s }) => {
      const c = await this.mustGet(s, tenant, id);
      if (!c.granted) throw conflict(`consent ${id} records a refusal (granted=false) and cannot be revoked`);
      const now = isoZ(this.clock.now());
      // the update itself decides (only a consent not revoked yet changes), so of two replicas revoking at once one
      // wins and the other answers 409, whatever each read before
      if (!(await s.markRevoked(tenant, id, now)))
        throw conflict(`consent ${id} was already revoked${c.revoked_at ? ` at ${c.revoked_at}` : ''}`);
      const next = { ...c, revoked_at: now };
      await s.appendHistory(tenant, {
        id: this.ids.next(),
        consent_id: id,
        action: 'revoked',
        consent_version: c.consent_version,
        ip_address: null,
        user_agent: null,
        source: null,
        created_at: now,
      });
      return next;
    });
  }

  /** Keeps the consent active: `renewed` for the same version, `version_update` (stored) for a new one. */
  renew(tenant: string, id: string, version?: string | null): Promise<ConsentWithHistory> {
    return this.uow.write(tenant, async ({ consents: s }) => {
      const c = await this.mustGet(s, tenant, id);
      if (!isActive(c))
        throw conflict(`consent ${id} is not active (${c.granted ? 'revoked' : 'a refusal'}) and cannot be renewed`);
      const now = isoZ(this.clock.now());
      const changed = Boolean(version) && version !== c.consent_version;
      const next = changed ? { ...c, consent_version: version! } : c;
      if (changed) await s.update(next);
      await s.appendHistory(tenant, {
        id: this.ids.next(),
        consent_id: id,
        action: changed ? 'version_update' : 'renewed',
        consent_version: next.consent_version,
        ip_address: null,
        user_agent: null,
        source: null,
        created_at: now,
      });
      const h = await s.histories(tenant, [id]);
      return { ...next, history: h.get(id) ?? [] };
    });
  }

  async history(tenant: string, id: string): Promise<ConsentHistoryEntry[]> {
    await this.mustGet(this.store, tenant, id);
    return (await this.store.histories(tenant, [id])).get(id) ?? [];
  }

  async stats(tenant: string): Promise<ConsentStats> {
    const [rows, users] = await Promise.all([this.store.counts(tenant), this.store.uniqueUsers(tenant)]);
    return statsFromCounts(rows, users);
  }
}
