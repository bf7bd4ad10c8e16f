import { decideConsent, type StoredDecision } from './consent.rules.js';

/**
 * How a row of a bulk import compares with the consents already stored.
 *
 * A row **matches** a stored consent of its tenant when user_id, data_point_id, granted and consent_version are equal,
 * and granted_at too when the row gives one (a row without granted_at matches such a consent of any time). A matched
 * row is **equal** to the consent when revoked_at is the same (both absent, or the same instant) and every one of
 * source, ip_address and user_agent that the row gives is the same (a value the row leaves empty says nothing).
 *
 * - no match: the row is a new consent;
 * - an equal match: unchanged;
 * - a match that differs only in that the row is revoked and the consent is not: the consent is revoked;
 * - a grant the row otherwise equals that a later refusal of the user withdrew (a refusal further down the same file,
 *   imported before): unchanged, the row is that grant as it was given;
 * - anything else (the row would un-revoke it, names another revocation time, differs in source, IP address or user
 *   agent, or is ambiguous): the row is refused with the reason, never skipped.
 *
 * A row that matches nothing is a decision like any other (decideConsent, the rule of one decision in force): a
 * refusal withdraws the grant in force, a grant while one is in force renews it or changes nothing, else it is new.
 *
 * The engines' bulk writers find the new and the equal rows themselves (set-based, in SQL that states the same
 * rule); the few rows left are decided here.
 */

/** The values of an import row that matching compares beyond the key; null where the row gives none. */
export interface ImportRowState {
  granted_at: string | null;
  revoked_at: string | null;
  source: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

/** A stored consent that an import row matched (same user, data point, granted, version and granted_at). */
export interface StoredMatch {
  id: string;
  granted_at: string;
  revoked_at: string | null;
  source: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

export type ImportDecision =
  { kind: 'unchanged' } | { kind: 'revoke'; consent_id: string } | { kind: 'refuse'; reason: string };

const GIVEN_FIELDS = ['source', 'ip_address', 'user_agent'] as const;

/** The fields the row gives that differ from the stored consent, with both values. */
function differences(row: ImportRowState, m: StoredMatch): string[] {
  const out: string[] = [];
  for (const f of GIVEN_FIELDS) {
    const v = row[f];
    if (v !== null && v !== m[f])
      out.push(
        `${f}: consent ${m.id} has ${m[f] === null ? 'none' : JSON.stringify(m[f])}, the row says ${JSON.stringify(v)}`,
      );
  }
  return out;
}

/** Whether the row is the stored consent as it is. */
export const equalsStored = (row: ImportRowState, m: StoredMatch): boolean =>
  row.revoked_at === m.revoked_at && differences(row, m).length === 0;

/** What the row says that the stored consent contradicts, one problem per field. */
function problems(row: ImportRowState, m: StoredMatch): string[] {
  const out = differences(row, m);
  if (m.revoked_at !== null && row.revoked_at === null)
    out.unshift(
      `revoked_at: consent ${m.id} was revoked at ${m.revoked_at} and a revocation cannot be undone; the row says it is active (give revoked_at ${m.revoked_at} to match it)`,
    );
  else if (m.revoked_at !== null && row.revoked_at !== null && m.revoked_at !== row.revoked_at)
    out.unshift(`revoked_at: consent ${m.id} was revoked at ${m.revoked_at}, the row says ${row.revoked_at}`);
  else if (m.revoked_at === null && row.revoked_at !== null && row.revoked_at < m.granted_at)
    out.unshift(`revoked_at: ${row.revoked_at} is before granted_at ${m.granted_at} of consent ${m.id}`);
  return out;
}

/**
 * The decision for a row that matched `matches` (at least one, ordered by id). Answers `unchanged` for an equal match,
 * `revoke` when the row revokes exactly one active consent that it otherwise equals, and else `refuse` with a reason
 * that names the consent and every field in conflict.
 */
export function decideImportRow(
  row: ImportRowState,
  matches: StoredMatch[],
  refusedAt: ReadonlySet<string> = new Set(),
): ImportDecision {
  if (matches.some((m) => equalsStored(row, m))) return { kind: 'unchanged' };
  const withdrawn = (m: StoredMatch) =>
    row.revoked_at === null && m.revoked_at !== null && refusedAt.has(m.revoked_at) && !differences(row, m).length;
  if (matches.some(withdrawn)) return { kind: 'unchanged' };
  if (row.revoked_at !== null) {
    const revocable = matches.filter((m) => m.revoked_at === null && problems(row, m).length === 0);
    if (revocable.length === 1) return { kind: 'revoke', consent_id: revocable[0]!.id };
    if (revocable.length > 1)
      return {
        kind: 'refuse',
        reason: `granted_at: the row matches ${revocable.length} active consents of this user and data point (${revocable
          .slice(0, 3)
          .map((m) => `${m.id} granted at ${m.granted_at}`)
          .join(', ')}${revocable.length > 3 ? ', …' : ''}); give granted_at to say which one it revokes`,
      };
  }
  const first = matches[0]!;
  const more =
    matches.length > 1 ? ` (the row has no granted_at and matches ${matches.length} consents; the first is shown)` : '';
  return { kind: 'refuse', reason: problems(row, first).join('; ') + more };
}

/** An import row as the rule reads it: what it decides, and its values. */
export interface ImportRow extends ImportRowState {
  granted: boolean;
  consent_version: string;
}

/** A stored consent of the row's user and data point, with what matching and the decision rule read. */
export type StoredConsent = StoredMatch & StoredDecision;

/**
 * What an import row does against every stored consent of its user and data point:
 * - `unchanged`, `refuse`, `revoke` (the consent it otherwise equals): as decideImportRow;
 * - `create`: a new consent, revoked at `revoked_at` (the row's own, or that of a later refusal stored already),
 *   revoking the grants in `revokes` (a refusal withdrawing the grant in force);
 * - `renew`: the grant in force takes the row's version, at `at`.
 */
export type ImportRowDecision =
  | ImportDecision
  | { kind: 'create'; revoked_at: string | null; revokes: Array<{ consent_id: string; at: string }> }
  | { kind: 'renew'; consent_id: string; at: string };

/**
 * The decision for a row against `stored`, every consent of its user and data point (ordered by id); `now` is the
 * import's time, which a row without granted_at takes.
 */
export function decideImport(row: ImportRow, stored: readonly StoredConsent[], now: string): ImportRowDecision {
  const matches = stored.filter(
    (c) =>
      c.granted === row.granted &&
      c.consent_version === row.consent_version &&
      (row.granted_at === null || c.granted_at === row.granted_at),
  );
  if (matches.length) {
    const refusedAt = new Set(stored.filter((c) => !c.granted).map((c) => c.granted_at));
    return decideImportRow(row, matches, refusedAt);
  }
  const d = decideConsent(stored, {
    granted: row.granted,
    consent_version: row.consent_version,
    at: row.granted_at ?? now,
    timed: row.granted_at !== null,
    revoked_at: row.revoked_at,
    banner_revision: null,
    policy_version_id: null,
    policy_content_hash: null,
  });
  if (d.kind === 'unchanged') return { kind: 'unchanged' };
  if (d.kind === 'renew') return d;
  return { kind: 'create', revoked_at: d.revoked_at, revokes: d.revokes };
}
