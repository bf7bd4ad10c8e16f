import { createHash } from 'node:crypto';
import { supersededGrants, type StoredDecision } from '../../domain/consents/consent.rules.js';
import type { Stores } from '../../domain/unit-of-work.js';
import type { SyncRow } from '../../domain/sync/version.js';

/** A time as the decision rule compares them: UTC with milliseconds and Z. */
const utc = (t: string): string => new Date(t).toISOString();

const normalized = (c: StoredDecision): StoredDecision => ({
  ...c,
  granted_at: utc(c.granted_at),
  revoked_at: c.revoked_at === null ? null : utc(c.revoked_at),
  affirmations: c.affirmations.map((a) => ({ ...a, at: utc(a.at) })),
});

/**
 * The id of the `revoked` entry a merge writes when decision `by` supersedes grant `consent`: derived from both (a
 * UUID of version 8 from their SHA-256), so every store that settles the same decisions writes the same entry, and a
 * sync carries it as one record, not two.
 */
export function supersessionEntryId(tenant: string, consent: string, by: string): string {
  const h = createHash('sha256').update(`consent-superseded\u0000${tenant}\u0000${consent}\u0000${by}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A record a settlement wrote, to push it on; a revoked consent with its row before. */
export interface SettledRecord {
  entity: 'consent' | 'consent_history';
  id: string;
  before?: SyncRow;
}

const pairOf = (row: SyncRow): string => JSON.stringify([row.user_id, row.data_point_id]);

/** The users and data points among `rows` (consent rows) that hold two decisions or more, one a grant in force. */
async function contested(tx: Stores, tenant: string, rows: SyncRow[]): Promise<Array<[string, string]>> {
  const wanted = new Set(rows.map(pairOf));
  const users = [...new Set(rows.map((r) => r.user_id))];
  const held = new Map<string, SyncRow[]>();
  for (const r of await tx.replica.rowsWhere(tenant, 'consent', 'user_id', users)) {
    const k = pairOf(r);
    if (wanted.has(k)) held.set(k, [...(held.get(k) ?? []), r]);
  }
  return [...held.values()]
    .filter((list) => list.length > 1 && list.some((r) => r.granted === 1 && r.revoked_at === null))
    .map((list) => [String(list[0]!.user_id), String(list[0]!.data_point_id)]);
}

/**
 * Settles the decisions of every user and data point the consent rows `written` concern, after a merge wrote them
 * (a push on the server, a page of a pull, a bundle): each grant in force that a later decision supersedes
 * (supersededGrants, the rule of one decision in force) is revoked with its `revoked` history entry, in the caller's
 * transaction, so the merge, the revocation and their journal entries commit together and the journal's
 * consent.revoked events follow. The entry records where the superseding decision came from (its source, IP
 * address and user agent), as a refusal through the API does. Answers the records it wrote.
 */
export async function settleDecisions(
  tx: Stores,
  tenant: string,
  written: Iterable<SyncRow>,
): Promise<SettledRecord[]> {
  const rows = [...written].filter((r) => typeof r.user_id === 'string' && typeof r.data_point_id === 'string');
  const out: SettledRecord[] = [];
  if (!rows.length) return out;
  for (const [user, dataPoint] of await contested(tx, tenant, rows)) {
    const stored = (await tx.consents.decisions(tenant, user, dataPoint)).map(normalized);
    for (const s of supersededGrants(stored)) {
      const grant = stored.find((c) => c.id === s.consent_id)!;
      const by = await tx.consents.get(tenant, s.by);
      const before = (await tx.replica.read(tenant, 'consent', s.consent_id))!;
      if (!(await tx.consents.markRevoked(tenant, s.consent_id, s.at))) continue;
      const id = supersessionEntryId(tenant, s.consent_id, s.by);
      await tx.consents.appendHistory(tenant, {
        id,
        consent_id: s.consent_id,
        action: 'revoked',
        consent_version: grant.consent_version,
        ip_address: by?.ip_address ?? null,
        user_agent: by?.user_agent ?? null,
        source: by?.source ?? null,
        created_at: s.at,
      });
      out.push({ entity: 'consent', id: s.consent_id, before }, { entity: 'consent_history', id });
    }
  }
  return out;
}
