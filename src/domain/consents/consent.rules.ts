import type { ErrorDetail } from '../errors.js';
import type { ConsentInput } from './consent.schema.js';

/**
 * How far a consent timestamp may lie ahead of the server's clock: the systems that record consents (a web
 * banner, a shop) keep their own clocks, which differ by seconds, rarely by minutes.
 */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether the timestamps of a consent are plausible at `now`: neither granted_at nor revoked_at lies in the future
 * (beyond the clock skew), and revoked_at does not come before granted_at, which defaults to now when absent.
 * Empty, one entry per problem; the API answers them with 422, the import refuses the row with its line number.
 */
export function consentTimeProblems(c: Pick<ConsentInput, 'granted_at' | 'revoked_at'>, now: Date): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const latest = now.getTime() + CONSENT_CLOCK_SKEW_MS;
  // the message is written only when it is needed: this runs for every row of an import
  const future = () =>
    `must not lie in the future (more than ${CONSENT_CLOCK_SKEW_MS / 60_000} minutes after ${now.toISOString()})`;
  const granted = c.granted_at ? Date.parse(c.granted_at) : now.getTime();
  if (c.granted_at && granted > latest) problems.push({ path: 'granted_at', message: future() });
  if (c.revoked_at) {
    const revoked = Date.parse(c.revoked_at);
    if (revoked > latest) problems.push({ path: 'revoked_at', message: future() });
    else if (revoked < granted)
      problems.push({
        path: 'revoked_at',
        message: c.granted_at ? 'must not be before granted_at' : 'must not be before granted_at (now, when absent)',
      });
  }
  return problems;
}

/**
 * The texts a consent refers to: the cookie banner's revision, the privacy-policy version and the SHA-256 of its
 * content (null where none is recorded or given).
 */
export interface ConsentTexts {
  banner_revision: string | null;
  policy_version_id: string | null;
  policy_content_hash: string | null;
}

/** A stored consent of one user on one data point, as the decision rule reads it. */
export interface StoredDecision extends ConsentTexts {
  id: string;
  granted: boolean;
  granted_at: string;
  revoked_at: string | null;
  consent_version: string;
  /** When the user said yes on it and to which version: its `granted`, `renewed` and `version_update` entries. */
  affirmations: ReadonlyArray<{ at: string; consent_version: string }>;
}

/**
 * A decision as a door receives it. Times are UTC with milliseconds and `Z`, so they compare as text.
 */
export interface IncomingDecision extends ConsentTexts {
  granted: boolean;
  consent_version: string;
  /** When it was made: the granted_at given, else now. */
  at: string;
  /** Whether the time was given (a decision of the past: an import row, a client's own record) rather than now. */
  timed: boolean;
  /** A grant given as revoked already: a record of the past, which changes no decision in force. */
  revoked_at: string | null;
}

/**
 * What a door does with an incoming decision:
 * - `unchanged`: the decision is recorded already (or a later one stands): nothing is written, the door answers
 *   the consent named;
 * - `renew`: the grant named stands and takes the incoming version and texts, with a `version_update` entry for
 *   another version, else `renewed` (same version, other texts), at `at` (the decision's time);
 * - `record`: the decision is stored as a new consent (revoked at `revoked_at` when that is not null), and the
 *   grants in `revokes` are revoked, each at its time with a `revoked` entry.
 */
export type ConsentDecision =
  | { kind: 'unchanged'; consent_id: string }
  | { kind: 'renew'; consent_id: string; at: string }
  | { kind: 'record'; revoked_at: string | null; revokes: Array<{ consent_id: string; at: string }> };

/** A grant not revoked: the decision in force. */
const inForce = (c: StoredDecision): boolean => c.granted && c.revoked_at === null;

/** The last time the user said yes on a grant (its granted_at when no entry says so). */
const lastYes = (c: StoredDecision): string => c.affirmations.reduce((t, a) => (a.at > t ? a.at : t), c.granted_at);

/** Whether the incoming decision names a text the grant does not refer to. */
const otherTexts = (c: ConsentTexts, d: ConsentTexts): boolean =>
  (['banner_revision', 'policy_version_id', 'policy_content_hash'] as const).some(
    (k) => d[k] !== null && d[k] !== c[k],
  );

/** Whether the decision is recorded already: a decision of the past given again (a retried request, a re-import). */
function recorded(c: StoredDecision, d: IncomingDecision): boolean {
  if (c.granted !== d.granted) return false;
  if (d.revoked_at !== null && c.revoked_at !== d.revoked_at) return false;
  if (!d.granted) return c.granted_at === d.at && c.consent_version === d.consent_version;
  return c.affirmations.some((a) => a.at === d.at && a.consent_version === d.consent_version);
}

/** Whether a decision on the same instant as `than` counts after it: by rank, then by the greater id. */
const later = (rank: number, id: string, than: { rank: number; c: StoredDecision }): boolean =>
  rank !== than.rank ? rank > than.rank : id > than.c.id;

/**
 * The last decision at or before `at` among the stored ones (a yes, a refusal, or the revocation of a grant): whether
 * it is a refusal, and the consent that holds it. On one instant a refusal counts after the revocation it caused, and
 * both after a yes; of two of a kind the greater id counts last, as of two grants the greater id stands, so the
 * answer does not depend on the order an engine returns the rows in.
 */
function lastDecision(stored: readonly StoredDecision[], at: string): { c: StoredDecision; refusal: boolean } | null {
  let best: { t: string; rank: number; c: StoredDecision } | null = null;
  for (const c of stored) {
    const events: Array<[string, number]> = c.granted
      ? [[lastYes(c), 0], ...(c.revoked_at === null ? [] : [[c.revoked_at, 1] as [string, number]])]
      : [[c.granted_at, 2]];
    for (const [t, rank] of events)
      if (t <= at && (!best || t > best.t || (t === best.t && later(rank, c.id, best)))) best = { t, rank, c };
  }
  return best && { c: best.c, refusal: best.rank === 2 };
}

/** Later than every timestamp: a decision made now comes after every stored one, whatever their clocks said. */
const NOW = '\uffff';

/**
 * The rule that a user has at most one decision in force per data point, applied to an incoming decision against the
 * stored consents of that user and data point. Every door applies it: a request, the banner, an import row; a sync or bundle merge settles what both sides hold with supersededGrants.
 * - The same decision recorded already (a decision of the past given again with its time): unchanged.
 * - A grant while a grant is in force: that grant stands. With another version it is renewed to that version
 *   (`version_update`), with other texts `renewed`, else unchanged; a version it had before counts as given, and a
 *   grant of the past older than the last yes on it changes nothing.
 * - A grant while none is in force: recorded. When a refusal stored already was given after it (decisions of the past
 *   arriving out of order), it is recorded as revoked at that refusal's time, as if they had arrived in order.
 * - A refusal: recorded, and every grant in force that was given (or last renewed) before it is revoked at its time.
 *   With no grant to withdraw, a refusal of the same version that is the last decision already changes nothing.
 * - A grant given as revoked already (`revoked_at`) is a record of the past: recorded unless recorded already.
 * A decision made now (`timed` false) comes after every stored one; a grant whose time lies ahead of it (a client's
 * clock, within the allowed skew) is revoked at its own last yes, so no revocation precedes its grant.
 */
export function decideConsent(stored: readonly StoredDecision[], d: IncomingDecision): ConsentDecision {
  const unchanged = (c: StoredDecision): ConsentDecision => ({ kind: 'unchanged', consent_id: c.id });
  const record = (revoked_at: string | null, revokes: Array<{ consent_id: string; at: string }> = []) =>
    ({ kind: 'record', revoked_at, revokes }) as const;
  if (d.timed) {
    const same = stored.find((c) => recorded(c, d));
    if (same) return unchanged(same);
  }
  if (d.revoked_at !== null) return record(d.revoked_at);
  const at = d.timed ? d.at : NOW;
  const active = stored.filter(inForce).sort((a, b) => {
    const [ta, tb] = [lastYes(a), lastYes(b)];
    return ta !== tb ? (tb > ta ? 1 : -1) : b.id > a.id ? 1 : -1;
  });
  // no entry of a grant may come before its last yes
  const after = (c: StoredDecision) => (lastYes(c) > d.at ? lastYes(c) : d.at);
  if (d.granted) {
    const current = active[0];
    if (current) {
      const renew: ConsentDecision = { kind: 'renew', consent_id: current.id, at: after(current) };
      if (lastYes(current) > at) return unchanged(current);
      if (current.consent_version === d.consent_version) return otherTexts(current, d) ? renew : unchanged(current);
      if (current.affirmations.some((a) => a.consent_version === d.consent_version)) return unchanged(current);
      return renew;
    }
    const laterRefusals = stored.filter((c) => !c.granted && c.granted_at > at).map((c) => c.granted_at);
    return record(laterRefusals.sort()[0] ?? null);
  }
  const revokes = active.filter((c) => lastYes(c) <= at).map((c) => ({ consent_id: c.id, at: after(c) }));
  if (revokes.length) return record(null, revokes);
  const last = lastDecision(stored, at);
  if (last?.refusal && last.c.consent_version === d.consent_version) return unchanged(last.c);
  return record(null);
}

/** A grant in force that a later decision of the same user and data point supersedes: revoked at `at`, by `by`. */
export interface Supersession {
  consent_id: string;
  at: string;
  /** The consent holding the later decision: a refusal, or the grant given last. */
  by: string;
}

/**
 * The grants in force that a merge of two stores' decisions (a sync, a bundle) revokes, so that a user keeps at most
 * one decision in force per data point, as decideConsent keeps it on the other doors. A merge cannot turn a second
 * grant into a renewal of the first (both records travel already), so:
 * - a grant in force is revoked by the first refusal given at or after its last yes, at that refusal's time (what a
 *   refusal arriving through the API does);
 * - of grants in force that no refusal follows, the one given last (then the greater id) stands, and each other is
 *   revoked when that one was given.
 * It reads only the decisions themselves, so every store that holds them settles them alike, whichever side of a
 * sync each decision came from; decisions that keep the rule already (every state the API reaches) settle to nothing.
 */
export function supersededGrants(stored: readonly StoredDecision[]): Supersession[] {
  const active = stored.filter(inForce).sort((a, b) => {
    const [ta, tb] = [lastYes(a), lastYes(b)];
    return ta !== tb ? (tb > ta ? 1 : -1) : b.id > a.id ? 1 : -1;
  });
  const refusals = stored
    .filter((c) => !c.granted)
    .sort((a, b) => (a.granted_at !== b.granted_at ? (a.granted_at > b.granted_at ? 1 : -1) : a.id > b.id ? 1 : -1));
  const out: Supersession[] = [];
  for (const [i, c] of active.entries()) {
    const refusal = refusals.find((r) => r.granted_at >= lastYes(c));
    if (refusal) out.push({ consent_id: c.id, at: refusal.granted_at, by: refusal.id });
    else if (i > 0) out.push({ consent_id: c.id, at: lastYes(active[0]!), by: active[0]!.id });
  }
  return out;
}
