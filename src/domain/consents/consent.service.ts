import { isoZ, type Clock, type IdSource } from '../clock.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { summarize } from '../validation.js';
import { consentTimeProblems, decideConsent, type IncomingDecision } from './consent.rules.js';
import type {
  Consent,
  ConsentHistoryEntry,
  ConsentInput,
  ConsentListQuery,
  ConsentStats,
  ConsentWithHistory,
} from './consent.schema.js';
import type { ConsentCountRow, ConsentStore } from './consent-store.port.js';
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

/** What recording a decision did: created a consent, found it recorded already, or renewed the grant in force. */
export type ConsentOutcome = 'created' | 'unchanged' | 'renewed';

/** A decision as recorded: the consent that holds it now, what happened, and the grants it revoked. */
export interface RecordedDecision {
  consent: Consent;
  outcome: ConsentOutcome;
  revoked: string[];
}

/** An incoming consent as the decision rule reads it, `now` standing in for a granted_at not given. */
export function incomingDecision(input: ConsentInput, now: string): IncomingDecision {
  return {
    granted: input.granted,
    consent_version: input.consent_version,
    at: input.granted_at ? new Date(input.granted_at).toISOString() : now,
    timed: Boolean(input.granted_at),
    revoked_at: input.revoked_at ? new Date(input.revoked_at).toISOString() : null,
    banner_revision: input.banner_revision ?? null,
    policy_version_id: input.policy_version_id ?? null,
    policy_content_hash: input.policy_content_hash ?? null,
  };
}

/** A history entry written on behalf of a decision: its version, and where it came from when the client said. */
const entryOf = (
  ids: IdSource,
  consent_id: string,
  action: ConsentHistoryEntry['action'],
  consent_version: string,
  at: string,
  from: Pick<ConsentInput, 'ip_address' | 'user_agent' | 'source'>,
): ConsentHistoryEntry => ({
  id: ids.next(),
  consent_id,
  action,
  consent_version,
  ip_address: from.ip_address ?? null,
  user_agent: from.user_agent ?? null,
  source: from.source ?? null,
  created_at: at,
});

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

  /**
   * Records a decision under the rule of one decision in force per user and data point (decideConsent): a new
   * consent (a refusal also revoking the grants it withdraws), the grant in force renewed, or nothing when the
   * decision is recorded already. Read and written in one transaction of the tenant, so two requests take turns.
   */
  async create(tenant: string, input: ConsentInput): Promise<RecordedDecision> {
    const now = this.clock.now();
    const problems = consentTimeProblems(input, now);
    if (problems.length) throw new DomainError('validation', `invalid body: ${summarize(problems)}`, problems);
    const incoming = incomingDecision(input, isoZ(now));
    return this.uow.write(tenant, async ({ consents: s }) => {
      const stored = await s.decisions(tenant, input.user_id, input.data_point_id);
      const decision = decideConsent(stored, incoming);
      if (decision.kind === 'unchanged')
        return { consent: await this.mustGet(s, tenant, decision.consent_id), outcome: 'unchanged', revoked: [] };
      if (decision.kind === 'renew') {
        const c = await this.mustGet(s, tenant, decision.consent_id);
        const next: Consent = {
          ...c,
          consent_version: input.consent_version,
          banner_revision: input.banner_revision ?? c.banner_revision,
          policy_version_id: input.policy_version_id ?? c.policy_version_id,
          policy_content_hash: input.policy_content_hash ?? c.policy_content_hash,
        };
        const action = next.consent_version === c.consent_version ? 'renewed' : 'version_update';
        await s.update(next);
        await s.appendHistory(tenant, entryOf(this.ids, c.id, action, next.consent_version, decision.at, input));
        return { consent: next, outcome: 'renewed', revoked: [] };
      }
      const { consent, history } = newConsent(
        tenant,
        { ...input, revoked_at: decision.revoked_at ?? undefined },
        isoZ(now),
        this.ids,
      );
      await s.insert(consent, history);
      for (const r of decision.revokes) {
        const grant = stored.find((c) => c.id === r.consent_id)!;
        if (!(await s.markRevoked(tenant, r.consent_id, r.at)))
          throw conflict(`consent ${r.consent_id} was revoked while this refusal was recorded`);
        await s.appendHistory(tenant, entryOf(this.ids, r.consent_id, 'revoked', grant.consent_version, r.at, input));
      }
      return { consent, outcome: 'created', revoked: decision.revokes.map((r) => r.consent_id) };
    });
  }

  /** One consent with its history. */
  async get(tenant: string, id: string): Promise<ConsentWithHistory> {
    const c = await this.mustGet(this.store, tenant, id);
    return { ...c, history: (await this.store.histories(tenant, [id])).get(id) ?? [] };
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
