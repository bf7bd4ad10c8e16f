import * as z from 'zod';
import { before, flag, jsonText, storedRow, storedTime, textBy, timeOf, type RowRule } from '../sync/row-rule.js';
import type { SyncRow } from '../sync/version.js';
import { consentTimeProblems } from './consent.rules.js';
import { ConsentInput, HISTORY_ACTIONS } from './consent.schema.js';
import { ImportRun, ImportRunOptions } from './import-run.schema.js';

const i = ConsentInput.shape;
/** A column the API fills from an optional field: NULL, or what the field takes. */
const optional = (s: z.ZodType) => textBy(s).nullable();

const ConsentRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  user_id: i.user_id,
  data_point_id: i.data_point_id,
  granted: flag,
  granted_at: storedTime,
  revoked_at: storedTime.nullable(),
  consent_version: textBy(i.consent_version),
  source: optional(i.source),
  ip_address: optional(i.ip_address),
  user_agent: optional(i.user_agent),
  created_at: storedTime,
  import_run_id: z.string().nullable(),
  banner_revision: optional(i.banner_revision),
  policy_version_id: optional(i.policy_version_id),
  policy_content_hash: optional(i.policy_content_hash),
});

const HistoryRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  consent_id: z.string(),
  action: z.enum(HISTORY_ACTIONS),
  consent_version: textBy(i.consent_version),
  ip_address: optional(i.ip_address),
  user_agent: optional(i.user_agent),
  source: optional(i.source),
  created_at: storedTime,
  import_run_id: z.string().nullable(),
});

const r = ImportRun.shape;
const count = z.int().min(0);
const ImportRunRow = storedRow({
  id: z.string(),
  tenant_id: z.string(),
  file_name: r.file_name,
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  format: r.format,
  options: jsonText(ImportRunOptions),
  status: r.status,
  read: count,
  created: count,
  unchanged: count,
  revoked: count,
  renewed: count,
  rejected: count,
  created_by: z.string(),
  started_at: storedTime,
  finished_at: storedTime.nullable(),
  reverted_at: storedTime.nullable(),
  reverted_by: z.string().nullable(),
});

type Facts = Parameters<NonNullable<RowRule['check']>>[1];

/** The lookup `reverted` answers from: the tenant's reverted import runs (a few). */
const REVERTED_RUNS: [string, string, unknown] = ['consent_import_run', 'status', 'reverted'];

/** Whether the import run `id` is reverted once the batch is written: what lets its records go. */
const reverted = (f: Facts, id: unknown): boolean =>
  id !== null && f.where(...REVERTED_RUNS).some((run) => run.id === id);

/**
 * Why a consent's revocation may not be lifted (null: it may): only a reverted import run undoes the revocation it
 * made, and its history entry goes with it (ImportRunService.revert).
 */
function liftProblem(id: string, was: SyncRow, f: Facts): string | null {
  const entry = f
    .heldWhere('consent_history', 'consent_id', id)
    .find((h) => h.action === 'revoked' && timeOf(h.created_at) === timeOf(was.revoked_at));
  const undone =
    entry !== undefined &&
    reverted(f, entry.import_run_id) &&
    !f.where('consent_history', 'consent_id', id).some((h) => h.id === entry.id);
  return undone ? null : `consent ${id} is revoked (at ${String(was.revoked_at)}) and stays revoked`;
}

/** The facts of a consent that never change: who consented to what, when, and whether it was a refusal. */
const CONSENT_FACTS = [
  'user_id',
  'data_point_id',
  'granted',
  'granted_at',
  'created_at',
  'source',
  'ip_address',
  'user_agent',
  'import_run_id',
  'banner_revision',
  'policy_version_id',
  'policy_content_hash',
];

/** Whether a history entry renews its consent at or after `revokedAt` (a revocation time; none: false). */
export const renewedSince = (h: SyncRow, revokedAt: unknown): boolean =>
  (h.action === 'renewed' || h.action === 'version_update') &&
  typeof revokedAt === 'string' &&
  !before(h.created_at, revokedAt);

/**
 * Why a `revoked` entry cannot be written: it records its consent's revocation, so it is dated when the consent was
 * revoked (the API, an import and a settlement write both together). An entry of a consent kept unrevoked would
 * read "revoked" for a consent in force; one at another time, a second revocation of a consent revoked once.
 */
function revocationEntryProblem(id: string, a: SyncRow, consent: SyncRow): string {
  const what = `consent_history ${id} revokes consent ${String(a.consent_id)} at ${String(a.created_at)}`;
  return consent.revoked_at
    ? `${what}, which is revoked at ${String(consent.revoked_at)} already: a consent is revoked once`
    : `${what}, which is not revoked: a revoked entry goes with its consent's revocation`;
}

export const CONSENT_ROW_RULES: Record<string, RowRule> = {
  consent: {
    schema: ConsentRow,
    fixed: CONSENT_FACTS,
    times: ['created_at'],
    refs: [{ column: 'import_run_id', entity: 'consent_import_run' }],
    // only a reverted import run removes the consents it created
    deletion: ({ id, before: b }, f) =>
      reverted(f, b.import_run_id)
        ? null
        : `consent ${id} cannot be deleted: consents are removed only by reverting the import run that created them`,
    needs: (c) =>
      c.after === null || (c.before?.revoked_at && !c.after.revoked_at)
        ? { where: [REVERTED_RUNS, ['consent_history', 'consent_id', c.id]] }
        : c.after.revoked_at && c.after.revoked_at !== (c.before?.revoked_at ?? null)
          ? { where: [['consent_history', 'consent_id', c.id]] }
          : {},
    check: ({ id, before: b, after: a }, f) => {
      if (a.granted === 0 && a.revoked_at !== null)
        return `consent ${id} records a refusal (granted=false) and cannot be revoked`;
      const times = consentTimeProblems(
        { granted_at: String(a.granted_at), revoked_at: (a.revoked_at as string | null) ?? undefined },
        f.now,
      );
      if (times.length) return `consent ${id}: ${times[0]!.path} ${times[0]!.message}`;
      if (b?.revoked_at && !a.revoked_at) return liftProblem(id, b, f);
      if (b?.revoked_at && timeOf(a.revoked_at) !== timeOf(b.revoked_at))
        return `consent ${id} was revoked at ${String(b.revoked_at)}: a revocation keeps its time`;
      if (a.revoked_at && a.revoked_at !== (b?.revoked_at ?? null)) {
        const renewal = f.where('consent_history', 'consent_id', id).find((h) => renewedSince(h, a.revoked_at));
        if (renewal)
          return `consent ${id} cannot be revoked at ${String(a.revoked_at)}: it was renewed after (${String(renewal.action)} to version ${String(renewal.consent_version)} at ${String(renewal.created_at)}), and a revoked consent is not renewed`;
      }
      return null;
    },
  },
  consent_history: {
    schema: HistoryRow,
    appendOnly: true,
    times: ['created_at'],
    refs: [
      { column: 'consent_id', entity: 'consent' },
      { column: 'import_run_id', entity: 'consent_import_run' },
    ],
    // an import run's entries go when the run is reverted: all of a consent it created, or the revocation it made
    deletion: ({ id, before: b }, f) => {
      const removed = f.row('consent', String(b.consent_id)) === null;
      const revocation = b.action === 'revoked' && b.source === 'import';
      return reverted(f, b.import_run_id) && (removed || revocation)
        ? null
        : `consent_history ${id} cannot be deleted: a consent's history is append-only`;
    },
    needs: (c) => ({
      rows: [['consent', String((c.after ?? c.before)!.consent_id)]],
      where: c.after === null ? [REVERTED_RUNS] : [],
    }),
    check: ({ id, after: a }, f) => {
      const consent = f.row('consent', String(a.consent_id))!;
      if (a.action === 'granted' && timeOf(a.created_at) !== timeOf(consent.granted_at))
        return `consent_history ${id}: the granted entry is dated when the consent was given (${String(consent.granted_at)})`;
      if (before(a.created_at, consent.granted_at))
        return `consent_history ${id} is dated ${String(a.created_at)}, before consent ${String(a.consent_id)} was given (${String(consent.granted_at)})`;
      if (a.action === 'revoked' && consent.granted === 0)
        return `consent_history ${id}: consent ${String(a.consent_id)} records a refusal and cannot be revoked`;
      if (a.action === 'revoked' && timeOf(a.created_at) !== timeOf(consent.revoked_at))
        return revocationEntryProblem(id, a, consent);
      if (renewedSince(a, consent.revoked_at))
        return `consent_history ${id}: consent ${String(a.consent_id)} is revoked (at ${String(consent.revoked_at)}) and a revoked consent is not renewed (${String(a.action)} to version ${String(a.consent_version)} at ${String(a.created_at)})`;
      return null;
    },
  },
  consent_import_run: {
    schema: ImportRunRow,
    fixed: ['file_name', 'sha256', 'format', 'options', 'created_by', 'started_at'],
    times: ['started_at', 'finished_at', 'reverted_at'],
    check: ({ id, before: b, after: a }) => {
      if (b?.status === 'reverted' && a.status !== 'reverted') return `import run ${id} is reverted and stays reverted`;
      if (b && b.status !== 'running' && !sameCounts(a, b))
        return `import run ${id} is ${String(b.status)}: its counts no longer change`;
      if ((a.status === 'reverted') !== (a.reverted_at !== null && a.reverted_by !== null))
        return `import run ${id}: reverted_at and reverted_by are set exactly when it is reverted`;
      if (before(a.finished_at, a.started_at) || before(a.reverted_at, a.started_at))
        return `import run ${id}: it cannot finish or be reverted before it started (${String(a.started_at)})`;
      return null;
    },
  },
};

const COUNTS = ['read', 'created', 'unchanged', 'revoked', 'renewed', 'rejected', 'finished_at'];
const sameCounts = (a: SyncRow, b: SyncRow) => COUNTS.every((k) => a[k] === b[k]);
