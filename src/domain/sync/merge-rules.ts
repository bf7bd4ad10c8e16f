import { renewedSince } from '../consents/consent.row-rules.js';
import { timeOf } from './row-rule.js';
import { ROW_RULES } from './row-rules.js';
import { sameRow, type SyncRow } from './version.js';

/** How the rules name the two sides of a merge in their messages: this store, and the server or a bundle. */
export interface MergeSides {
  ours: string;
  theirs: string;
  /** Where a person revokes a consent so that the other side's renewal ends too. */
  revokeThere: string;
}

export const SERVER_SIDES: MergeSides = {
  ours: 'here',
  theirs: 'on the server',
  revokeThere: 'revoke the consent on the server too',
};
export const BUNDLE_SIDES: MergeSides = {
  ours: 'here',
  theirs: 'in the bundle',
  revokeThere: 'revoke the consent in the store the bundle came from too and export it again',
};

const level = (row: SyncRow | null): number => (row ? Number(row.escalation_level ?? 0) : -1);

/**
 * The rule of one record that `result`, a merge of two versions of it, breaks (null: none): a consent revoked on
 * either side stays revoked, and an assignment's escalation level is not below either side's. These hold for merges
 * only — a record changed on both sides, and how that conflict is settled. A change of one side onto a record the
 * other side left as it was is sequential and may lower a level (a later deadline) or lift a revocation (an undone
 * import run): the domain decided it with the record in front of it. A deletion breaks no rule of a record.
 */
export function mergeBreaks(
  entity: string,
  result: SyncRow | null,
  ours: SyncRow | null,
  theirs: SyncRow | null,
  sides: MergeSides = SERVER_SIDES,
): string | null {
  if (!result) return null;
  if (entity === 'consent' && !result.revoked_at) {
    const where = ours?.revoked_at ? sides.ours : theirs?.revoked_at ? sides.theirs : null;
    if (where) return `consent ${String(result.id)} is revoked ${where} and stays revoked`;
  }
  if (entity === 'consent' && result.revoked_at) {
    const renewal = renewedAfterRevocation(ours, theirs, sides);
    if (renewal && result.consent_version !== renewal.version) return renewal.message(String(result.id));
  }
  if (entity === 'training_assignment') {
    const highest = Math.max(level(ours), level(theirs));
    if (level(result) < highest) {
      const where = level(ours) === highest ? sides.ours : sides.theirs;
      return `the escalation level of assignment ${String(result.id)} never goes down: it is ${highest} ${where}, not ${level(result)}`;
    }
  }
  return null;
}

/**
 * A consent revoked on one side at one version while the other side renewed it to another: a revoked consent is not
 * renewed (the API refuses it), so both cannot hold. A merge keeps the version the consent was revoked at; a merged
 * revoked consent at the renewed version would read "revoked, then renewed". Answers that version and the message.
 */
function renewedAfterRevocation(
  ours: SyncRow | null,
  theirs: SyncRow | null,
  sides: MergeSides,
): { version: unknown; message: (id: string) => string } | null {
  if (!ours || !theirs || ours.consent_version === theirs.consent_version) return null;
  const [revoked, renewed, where, there] = ours.revoked_at
    ? [ours, theirs, sides.ours, sides.theirs]
    : [theirs, ours, sides.theirs, sides.ours];
  if (!revoked.revoked_at || renewed.revoked_at) return null;
  const at = String(revoked.consent_version);
  // a revocation here ends the other side's renewal once that side revokes too; a renewal here after the other
  // side's revocation cannot be sent there, and a revocation here would not settle it ("revoked, then renewed")
  const advice = ours.revoked_at
    ? `to end the renewal, ${sides.revokeThere} (a new decision, not a merge)`
    : `the revocation ${where} stands and the renewal ${there} cannot follow it, so the conflict stays open (docs/sync.md, "Merged history")`;
  return {
    version: revoked.consent_version,
    message: (id) =>
      `consent ${id} is revoked ${where} at version ${at} and renewed ${there} to version ${String(renewed.consent_version)}: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: ${advice}`,
  };
}

/**
 * Whether `ours` and `theirs`, two versions of one record, are a consent revoked on both sides at different times
 * and otherwise alike (its version aside: a consent renewed and then revoked on one side), with no renewal in
 * `history` (this store's entries of it) at or after the server's revocation. A consent is revoked once,
 * and the revocation the server holds is shared already (its consent.revoked went out): the one to keep. A store
 * pulling it may give up its own revocation for it only while its own was never shared (the sync engine asks that).
 */
export function secondRevocation(
  entity: string,
  ours: SyncRow | null,
  theirs: SyncRow | null,
  history: SyncRow[],
): boolean {
  if (entity !== 'consent' || !ours?.revoked_at || !theirs?.revoked_at) return false;
  // a renewal held here after the server's revocation would read "revoked, then renewed"
  if (history.some((h) => renewedSince(h, theirs.revoked_at))) return false;
  if (timeOf(ours.revoked_at) === timeOf(theirs.revoked_at)) return false;
  const aside = { revoked_at: null, consent_version: null };
  return sameRow({ ...ours, ...aside }, { ...theirs, ...aside });
}

/**
 * The rule the other side breaks when `result`, the settlement of a consent's conflict, is written there (null:
 * none): a revocation it does not hold yet, dated before a renewal in its history (`history`, the other side's
 * entries of this consent). The other side refuses that revocation (a revoked consent is not renewed, and a
 * revocation keeps its time), so a settlement that makes it would be refused there at the next sync.
 */
export function revokedBeforeRenewal(
  entity: string,
  result: SyncRow | null,
  theirs: SyncRow | null,
  history: SyncRow[],
  sides: MergeSides = SERVER_SIDES,
): string | null {
  if (entity !== 'consent' || !result?.revoked_at || !theirs) return null;
  if (theirs.revoked_at && timeOf(theirs.revoked_at) === timeOf(result.revoked_at)) return null;
  const renewal = history.find((h) => h.consent_id === result.id && renewedSince(h, result.revoked_at));
  if (!renewal) return null;
  return `consent ${String(result.id)} is revoked at ${String(result.revoked_at)} and was renewed ${sides.theirs} after (${String(renewal.action)} to version ${String(renewal.consent_version)} at ${String(renewal.created_at)}): a revoked consent is not renewed and a revocation keeps its time, so this revocation is refused there`;
}

/**
 * The rule a settlement breaks that keeps an entry of history the other side holds out of this store (null: none):
 * history is written once and never deleted (appendOnly), so keeping "no such entry" here would push a deletion the
 * other side refuses.
 */
export function historyKept(
  entity: string,
  id: string,
  result: SyncRow | null,
  theirs: SyncRow | null,
  sides: MergeSides = SERVER_SIDES,
): string | null {
  if (result || !theirs || !Object.hasOwn(ROW_RULES, entity) || !ROW_RULES[entity]!.appendOnly) return null;
  return `${entity} ${id} is history held ${sides.theirs}, written once and never deleted, so it cannot be left out`;
}

/**
 * The rule that taking one side's version whole would break (null: either may be taken), to say in a conflict why
 * a choice of fields may be needed. The other side's version is asked first (the one a sync would write here).
 */
export function wholeSideBreaks(
  entity: string,
  ours: SyncRow | null,
  theirs: SyncRow | null,
  sides: MergeSides = SERVER_SIDES,
): string | null {
  // revoked on one side and renewed on the other: neither side whole holds, and the reason says what can be done
  const renewal = entity === 'consent' ? renewedAfterRevocation(ours, theirs, sides) : null;
  if (renewal) return renewal.message(String(ours!.id));
  return mergeBreaks(entity, theirs, ours, theirs, sides) ?? mergeBreaks(entity, ours, ours, theirs, sides);
}

/** A conflict's reason, with the rule taking one side whole would break when there is one. */
export const withRule = (
  reason: string,
  entity: string,
  ours: SyncRow | null,
  theirs: SyncRow | null,
  sides: MergeSides = SERVER_SIDES,
): string => {
  const rule = wholeSideBreaks(entity, ours, theirs, sides);
  return rule && !reason.includes(rule) ? `${reason}; ${rule}` : reason;
};

/** The field a table's rule of one record is about, to name in a suggested choice of fields. */
export const ruleField = (entity: string): string | undefined =>
  entity === 'consent' ? 'revoked_at' : entity === 'training_assignment' ? 'escalation_level' : undefined;

/** Assignment statuses that count as open: one per user and module. */
export const OPEN_STATUSES = ['pending', 'in_progress'];

/**
 * What a record claims that only one record of the tenant may hold (an open assignment of a user and module, the
 * published version of a document), with the message for a second claimant; null when it claims nothing. The store
 * checks claims against its records (ReplicaStore.broken); this checks the records of one push among themselves,
 * before they are written together.
 */
export function exclusiveClaim(
  entity: string,
  row: SyncRow | null,
): { claim: string; taken: (other: string) => string } | null {
  if (!row) return null;
  if (entity === 'training_assignment' && OPEN_STATUSES.includes(String(row.status)))
    return {
      claim: `open ${String(row.user_id)} ${String(row.module_id)}`,
      taken: (other) => `user ${String(row.user_id)} already has an open assignment ${other} of this module`,
    };
  if (entity === 'legal_document_version' && row.status === 'published')
    return {
      claim: `published ${String(row.document_id)}`,
      taken: (other) => `document ${String(row.document_id)} already has a published version ${other}`,
    };
  return null;
}
